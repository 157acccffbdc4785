#include "statistics/paired.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "statistics/moments.h"

namespace mlregress::internal::stats {

TTestResult paired_t_test(std::span<const double> x, std::span<const double> y,
                          Alternative alternative, double confidence_level) {
  if (x.size() != y.size()) throw std::invalid_argument("paired samples differ in size");
  require_finite_sample(x, 2, "x");
  require_finite_sample(y, 2, "y");
  std::vector<double> d(x.size());
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = x[i] - y[i];

  const double n = static_cast<double>(d.size());
  return t_test_from_estimate(mean(d), std::sqrt(sample_variance(d) / n), n - 1.0, alternative,
                              confidence_level);
}

}  // namespace mlregress::internal::stats
