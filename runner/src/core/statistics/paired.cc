#include "statistics/paired.h"

#include <cmath>
#include <limits>
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

  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  const double n = static_cast<double>(d.size());
  TTestResult result;
  result.estimate = mean(d);
  result.standard_error = std::sqrt(sample_variance(d) / n);
  result.df = n - 1.0;
  if (result.standard_error == 0.0) {
    result.statistic = result.estimate == 0.0 ? kNaN : std::copysign(HUGE_VAL, result.estimate);
    result.p_value = kNaN;
    result.confidence_interval = {kNaN, kNaN, confidence_level};
    return result;
  }
  result.statistic = result.estimate / result.standard_error;
  result.p_value = t_p_value(result.statistic, result.df, alternative);
  result.confidence_interval = t_confidence_interval(result.estimate, result.standard_error,
                                                     result.df, confidence_level, alternative);
  return result;
}

}  // namespace mlregress::internal::stats
