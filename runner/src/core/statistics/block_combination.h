// Exact group-sequential REGRESSION boundaries for paired looks: each block's own t test,
// combined across blocks by the inverse normal method.
//
// The Lan–DeMets boundaries of statistics/group_sequential.h are exact for statistics whose joint
// law under H0 is a Brownian motion observed at the looks. A t test on all the seeds so far is
// not one: its estimated variance changes from look to look, and with the boundaries as nominal
// t levels the looks cross more often than the boundaries spend (the reason the union bound of
// spent_increments guarded the REGRESSION side, leaving about a quarter of alpha unspent).
//
// Each block's one-sided paired t test on its own seeds gives a p-value p_j that is exactly
// uniform under H0 (normal differences, whatever their variance), independent of the other
// blocks. z_j = Phi^-1(1 - p_j) is then exactly standard normal, and
//   Z_k = sum_{j <= k} sqrt(b_j) z_j / sqrt(n_k),    b_j the seeds of block j, n_k = sum b_j,
// is exactly a Brownian motion at the information fractions n_k / n_K (Lehmacher and Wassmer,
// Biometrics 1999): the z boundaries are exact for it, with any variance and any block size.
//
// The sequential p-value joins the run's Holm family, which compares it with alpha / m,
// alpha / (m - 1), ..., alpha only (m the family's hypotheses). At each of those levels it is
// exact: p_seq < alpha / i exactly when the combined statistics crossed the exact boundaries of
// level alpha / i at some look so far. Between the levels it is the union bound's p-value on
// the combined statistics (min over looks of p_j / w_j), which is valid at every level.
#pragma once

#include <vector>

#include "statistics/group_sequential.h"

namespace mlregress::internal::stats {

/// Phi^-1(1 - p) for a one-sided p-value, kept within +-38 so that a block with no spread (p 0
/// or 1) counts as certain evidence without turning sums into NaN.
double block_z(double one_sided_p);

/// Z_k of the blocks so far: sum sqrt(b_j) z_j / sqrt(sum b_j). Sizes must be positive and as
/// many as the z values, else std::invalid_argument.
double combined_z(const std::vector<double>& block_zs, const std::vector<int>& block_sizes);

/// The sequential p-value after looks 1..k (k = z.size() <= t.size()) of a design with
/// information fractions t, spending alpha over them: below alpha / i (i = 1..family) exactly
/// when some Z_j crossed the exact boundary of level alpha / i, and otherwise the union bound's
/// min_j (1 - Phi(Z_j)) / w_j with w_j the share of alpha look j spends. Level alpha / i lands
/// just below alpha / i, so that "p < level" (Holm's and the looks' comparison) holds exactly
/// when the boundary was crossed. Boundaries are computed once per design and level
/// (nominal_p_thresholds). Invalid designs or alpha are std::invalid_argument.
double crossing_p_value(const std::vector<double>& z, const std::vector<double>& t, double alpha,
                        int family, SpendingFunction spending);

}  // namespace mlregress::internal::stats
