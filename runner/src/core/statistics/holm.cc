#include "statistics/holm.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace mlregress::internal::stats {

std::vector<double> holm_adjust(std::span<const double> p_values) {
  for (const double p : p_values) {
    if (!(p >= 0.0 && p <= 1.0)) throw std::invalid_argument("Holm needs p-values in [0, 1]");
  }
  const std::size_t m = p_values.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p_values[a] < p_values[b]; });
  std::vector<double> adjusted(m);
  double running_max = 0.0;
  for (std::size_t k = 0; k < m; ++k) {
    const double scaled = std::min(1.0, static_cast<double>(m - k) * p_values[order[k]]);
    running_max = std::max(running_max, scaled);
    adjusted[order[k]] = running_max;
  }
  return adjusted;
}

std::vector<bool> holm_reject(std::span<const double> p_values, double alpha) {
  const auto adjusted = holm_adjust(p_values);
  std::vector<bool> reject(adjusted.size());
  for (std::size_t i = 0; i < adjusted.size(); ++i) reject[i] = adjusted[i] <= alpha;
  return reject;
}

}  // namespace mlregress::internal::stats
