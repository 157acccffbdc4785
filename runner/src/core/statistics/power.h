// What a seed budget can detect, reported at promotion. For a one-sided test at level alpha
// with t(df) statistic T = delta / se, the power against a true difference delta is
//   power = P(T' > t_{1-alpha, df}),  T' ~ non-central t(df, ncp = delta / se)
// (Boost.Math's non_central_t). The minimum detectable effect is the delta whose power equals
// the target, found by root finding on ncp. For two independent arms of n seeds with common
// standard deviation sd (Welch's df is then 2n - 2 exactly): se = sd · sqrt(2 / n). For n
// paired seeds with sd of the differences: se = sd / sqrt(n), df = n - 1.
// The normal approximation (z_{1-alpha} + z_power) · se understates the effect that few seeds
// can detect: at n = 3 per arm by about a third.
#pragma once

#include <cstddef>
#include <string>

#include "mlregress/metric.h"

namespace mlregress::internal::stats {

/// P(T' > x) for T' ~ non-central t(df, ncp); df > 0 finite, ncp finite.
double noncentral_t_sf(double x, double df, double ncp);

/// Power of the one-sided test at level alpha with df degrees of freedom against a true
/// effect of `effect` standard errors (the non-centrality).
double one_sided_t_power(double ncp, double df, double alpha);

/// Power of a one-sided two-sample t test, n seeds per arm, common sd, true difference effect.
double two_sample_power(double effect, std::size_t n_per_arm, double sd, double alpha);

/// The smallest true difference detected with probability `power` by a one-sided two-sample
/// t test at level alpha, n per arm (n >= 2), common sd (> 0). Needs 0 < alpha < power < 1
/// (std::invalid_argument otherwise).
double minimum_detectable_effect(std::size_t n_per_arm, double sd, double alpha, double power);

/// The same for n paired seeds (n >= 2) whose differences have standard deviation sd.
double minimum_detectable_effect_paired(std::size_t n_pairs, double sd_difference, double alpha,
                                        double power);

/// The promotion line, e.g.
///   "with n=8 and sd=0.009, a drop of >=0.016 is detected with 80% power at alpha=0.01"
/// ("drop" for HigherIsBetter, "rise" for LowerIsBetter; MustEqual has no bad direction and is
/// std::invalid_argument). The effect is rounded up to two significant digits, so the sentence
/// never promises more than the budget can do; sd is printed with three significant digits.
std::string detectable_effect_sentence(std::size_t n_per_arm, double sd, double alpha, double power,
                                       Direction direction);

}  // namespace mlregress::internal::stats
