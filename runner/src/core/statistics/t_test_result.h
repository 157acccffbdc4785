// What a t test (Welch or paired) reports: the statistic, its degrees of freedom, the p-value
// for the requested alternative, the estimated difference with its standard error, and a
// confidence interval for that difference at the requested level and sidedness.
#pragma once

#include "statistics/t_distribution.h"

namespace mlregress::internal::stats {

struct TTestResult {
  double statistic = 0.0;                  ///< t = estimate / standard_error
  double df = 0.0;                         ///< degrees of freedom (fractional for Welch)
  double p_value = 0.0;                    ///< for the alternative the test was asked for
  double estimate = 0.0;                   ///< mean(x) - mean(y); paired: mean(x - y)
  double standard_error = 0.0;             ///< of the estimate
  ConfidenceInterval confidence_interval;  ///< for the difference, same sidedness as the test
};

/// The t test of `estimate` with its standard error and degrees of freedom. A zero standard
/// error (constant samples) gives t = ±Inf (NaN when the estimate is 0) and a NaN p-value and
/// interval: never a quiet pass.
TTestResult t_test_from_estimate(double estimate, double standard_error, double df,
                                 Alternative alternative, double confidence_level);

}  // namespace mlregress::internal::stats
