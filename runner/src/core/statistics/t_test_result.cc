#include "statistics/t_test_result.h"

#include <cmath>
#include <limits>

namespace mlregress::internal::stats {

TTestResult t_test_from_estimate(double estimate, double standard_error, double df,
                                 Alternative alternative, double confidence_level) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  TTestResult result;
  result.estimate = estimate;
  result.standard_error = standard_error;
  result.df = df;
  if (standard_error == 0.0) {
    result.statistic = estimate == 0.0 ? kNaN : std::copysign(HUGE_VAL, estimate);
    result.p_value = kNaN;
    result.confidence_interval = {kNaN, kNaN, confidence_level};
    return result;
  }
  result.statistic = estimate / standard_error;
  result.p_value = t_p_value(result.statistic, df, alternative);
  result.confidence_interval =
      t_confidence_interval(estimate, standard_error, df, confidence_level, alternative);
  return result;
}

}  // namespace mlregress::internal::stats
