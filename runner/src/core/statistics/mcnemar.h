// McNemar's exact test on paired binary outcomes: two runs of a classifier on the same frozen
// evaluation set, paired per example. Only the discordant pairs carry evidence: b examples went
// correct -> wrong (right in the baseline, wrong in the candidate), c went wrong -> correct.
// Under H0 (both runs are equally accurate) each of the n = b + c discordant pairs is as likely
// to go one way as the other, so conditionally on n, b ~ Binomial(n, 1/2).
//
// The exact test, not the chi-square approximation ((|b - c| - 1)^2 / (b + c)): a classifier
// change typically flips a few dozen examples, where the approximation is off by tens of percent
// (b = 5, c = 0: exact two-sided p = 0.0625, chi-square with continuity correction 0.074,
// without 0.025), and it costs nothing to be exact.
//
// Accuracy: the tails are regularized incomplete beta functions (Boost.Math's ibeta), which
// neither overflow nor lose relative precision in the far tail. Against exact rational sums
// of binomial coefficients (tests/statistics/mcnemar_test.cc) the relative error is below
// 4e-16 for n up to 10^5 and p-values down to 1e-301 (SciPy 1.10 itself is off by 4e-13 there).
// p-values below the smallest double (about 5e-324, e.g. b = 1100, c = 0) underflow to 0.
#pragma once

#include <cstdint>

namespace mlregress::internal::stats {

struct McNemarResult {
  std::int64_t b = 0;  ///< correct in the baseline, wrong in the candidate
  std::int64_t c = 0;  ///< wrong in the baseline, correct in the candidate
  std::int64_t n = 0;  ///< discordant pairs, b + c
  /// H1 "the candidate is worse": P(X >= b), X ~ Binomial(n, 1/2). 1 when n = 0.
  double p_worse = 1.0;
  /// H1 "the candidate is better": P(X <= b). 1 when n = 0.
  double p_better = 1.0;
  /// min(1, 2 P(X <= min(b, c))): statsmodels' mcnemar(table, exact=True). Not the sum of the
  /// two one-sided values: at b = c both are above 1/2 and this is capped at 1.
  double p_two_sided = 1.0;
};

/// The exact test from the discordant counts. Negative counts, or b + c beyond 2^53 (where a
/// count stops being exact as a double), are std::invalid_argument.
McNemarResult mcnemar_exact(std::int64_t b, std::int64_t c);

/// P(X >= k) for X ~ Binomial(n, 1/2): 1 for k <= 0, 0 for k > n. Requires 0 <= n <= 2^53.
double binomial_half_sf(std::int64_t k, std::int64_t n);

/// P(X <= k) for X ~ Binomial(n, 1/2): 0 for k < 0, 1 for k >= n. Requires 0 <= n <= 2^53.
double binomial_half_cdf(std::int64_t k, std::int64_t n);

}  // namespace mlregress::internal::stats
