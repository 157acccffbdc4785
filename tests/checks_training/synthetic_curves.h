// Synthetic curves for the curve checks' tests: a curve from a formula, and the alternating ±5%
// minibatch noise of a training curve.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace mlregress::checks::testing_curves {

inline std::vector<double> curve(std::size_t n, const std::function<double(double)>& f) {
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(f(static_cast<double>(i)));
  return v;
}

// Minibatch noise on a training curve: +-5%, alternating.
inline std::vector<double> noisy(std::vector<double> v) {
  for (std::size_t i = 0; i < v.size(); ++i) v[i] *= i % 2 ? 1.05 : 0.95;
  return v;
}

}  // namespace mlregress::checks::testing_curves
