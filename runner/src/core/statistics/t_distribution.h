// Student's t distribution (Boost.Math) and what the t tests build from it: one- and
// two-sided p-values for an observed t, and confidence intervals estimate ± quantile · se.
// Degrees of freedom may be fractional (Welch–Satterthwaite).
#pragma once

#include "statistics/alternative.h"

namespace mlregress::internal::stats {

/// P(T <= t) for T ~ t(df). df > 0 and finite, else std::invalid_argument. t may be ±Inf.
double t_cdf(double t, double df);

/// P(T > t), computed as a complement (accurate far in the upper tail, not 1 - cdf).
double t_sf(double t, double df);

/// The q-quantile, 0 < q < 1.
double t_quantile(double q, double df);

/// The t with P(T > t) = upper_tail, 0 < upper_tail < 1: accurate for tails far below 1e-16,
/// where t_quantile(1 - upper_tail) would see q round to 1.
double t_upper_quantile(double upper_tail, double df);

/// p-value of an observed t under H0 for the given alternative: kGreater → sf(t),
/// kLess → cdf(t), kTwoSided → 2 · sf(|t|) (at most 1). NaN t gives NaN.
double t_p_value(double t, double df, Alternative alternative);

/// A confidence interval; one-sided intervals have one infinite end.
struct ConfidenceInterval {
  double lower = 0.0;
  double upper = 0.0;
  double level = 0.95;
};

/// The interval for a parameter estimated by `estimate` with standard error `se` and a t(df)
/// pivot, matching the alternative as SciPy does: kTwoSided → estimate ± t_{(1+level)/2} · se;
/// kLess → (-Inf, estimate + t_level · se]; kGreater → [estimate - t_level · se, +Inf).
/// 0 < level < 1, else std::invalid_argument. NaN se or df gives NaN ends.
ConfidenceInterval t_confidence_interval(double estimate, double se, double df, double level,
                                         Alternative alternative);

}  // namespace mlregress::internal::stats
