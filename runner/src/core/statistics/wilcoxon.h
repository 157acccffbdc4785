// The Wilcoxon signed-rank test on paired differences: the test on per-round log-ratios of
// interleaved A/B timings (the multi-seed gate pairs seeds with the paired t test instead).
// It follows scipy.stats.wilcoxon with its defaults (zero_method="wilcox", correction=False), with
// these deliberate choices:
//
// * Zero differences are dropped first ("wilcox"); n_used counts the rest. The exact
//   distribution is then that of n_used ranks. SciPy 1.10 instead switches to the normal
//   approximation as soon as one zero is present; at the gate's seed counts that approximation
//   is poor, so here a sample with zeros but no ties still gets the exact p-value — the same
//   number SciPy gives for the differences with the zeros removed and method="exact".
// * Ties among |d| (after dropping zeros) get mid-ranks, and the p-value comes from the normal
//   approximation with SciPy's tie correction of the variance, no continuity correction
//   (SciPy's method="approx"). SciPy's exact mode assumes no ties: given ties, SciPy 1.10
//   truncates the mid-rank sum to an integer and returns a wrong "exact" p-value silently.
//   Ties are exact floating-point equality of |x - y|, so 0.3 - 0.2 and 0.2 - 0.1 are not tied.
// * More than kWilcoxonExactMaxN non-zero differences also use the normal approximation.
// * Statistic: r_plus (sum of ranks of positive differences) for every alternative. SciPy
//   reports min(r_plus, r_minus) for two-sided tests; both are in the result.
//
// Small samples cannot reach small p-values: with n pairs and no ties the smallest one-sided
// p-value is 2^-n (1/32 at n = 5), so at alpha = 0.01 a paired Wilcoxon gate needs n >= 7,
// and more once Holm divides alpha among several checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "statistics/alternative.h"

namespace mlregress::internal::stats {

/// Largest number of non-zero differences for which the exact distribution is used.
inline constexpr std::size_t kWilcoxonExactMaxN = 50;

enum class WilcoxonMethod {
  kExact,                ///< exact null distribution of r_plus (no ties, n_used <= 50)
  kNormalApproximation,  ///< ties or n_used > 50: normal, tie-corrected variance
  kNoData,               ///< every difference is zero: no evidence either way, p = 1
};

struct WilcoxonResult {
  double r_plus = 0.0;   ///< sum of the (mid-)ranks of |d| over positive d
  double r_minus = 0.0;  ///< the same over negative d
  double p_value = 1.0;
  double z = 0.0;  ///< standardized r_plus (normal approximation only; NaN otherwise)
  WilcoxonMethod method = WilcoxonMethod::kExact;
  std::size_t n_used = 0;  ///< non-zero differences
  std::size_t n_zero = 0;  ///< dropped zero differences
  bool has_ties = false;   ///< some |d| values were equal (mid-ranks used)
};

/// Test on the paired differences d = x - y (x[i], y[i]: the same seed). Equal sizes and
/// finite values, else std::invalid_argument.
WilcoxonResult wilcoxon_signed_rank(std::span<const double> x, std::span<const double> y,
                                    Alternative alternative = Alternative::kTwoSided);

/// The same test on differences given directly.
WilcoxonResult wilcoxon_signed_rank(std::span<const double> differences,
                                    Alternative alternative = Alternative::kTwoSided);

/// Counts of subsets of {1..n} by rank sum: element r is how many of the 2^n sign patterns
/// give r_plus = r (r = 0 .. n(n+1)/2). Exact integers, by dynamic programming; n <= 63.
std::vector<std::uint64_t> wilcoxon_rank_sum_counts(std::size_t n);

/// P(R+ <= r) and P(R+ >= r) under H0 with n untied non-zero differences (exact).
double wilcoxon_exact_cdf(std::size_t n, long long r);
double wilcoxon_exact_sf(std::size_t n, long long r);

}  // namespace mlregress::internal::stats
