// Change points in a series of measurements ordered in time (one point per commit), by
// E-Divisive means with a t-test significance check, as Apache Otava (Hunter) finds them:
//
//   1. In a segment, the split τ that maximises the energy statistic
//        Q(τ) = m·n/(m+n) · ( 2/(m·n) Σ|x−y| − 1/C(m,2) Σ|x_i−x_k| − 1/C(n,2) Σ|y_j−y_k| )
//      (X the m points before τ, Y the n after; large when the two sides differ in distribution).
//   2. The split is kept when Welch's t test between the two sides, Bonferroni-adjusted for the
//      number of splits tried, gives p < max_p and the relative change of the means is at least
//      min_magnitude; then both sides are searched again (binary segmentation), until no split
//      passes.
//
// Otava replaces E-Divisive's permutation test with the t test for speed; a series whose points
// are each a mean of seeds or runs is close to normal, where the t test is apt. The adjustment is
// ours: the split tested is the most different one, so its raw p-value is too small (unadjusted,
// 26 of 500 noise series of 50 points showed a change at p < 0.001; adjusted, see the tests).
// Segments shorter than 2·min_segment points are not split. Cost: O(n²) per segment (the
// energy of every split from the running sums of each point's distances to the points before and
// after it): a series of 1,000 commits in a few milliseconds.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace mlregress::internal::stats {

struct ChangePointOptions {
  double max_p = 0.001;         ///< Otava's default significance threshold
  double min_magnitude = 0.0;   ///< |mean after / mean before − 1| must reach this
  std::size_t min_segment = 3;  ///< points on each side of a split, at least
};

struct ChangePoint {
  std::size_t index = 0;                       ///< the first point after the change
  double mean_before = 0.0, mean_after = 0.0;  ///< of the segments it separates
  double relative_change = 0.0;  ///< mean_after / mean_before − 1 (0 when before is 0)
  double p_value = 1.0;          ///< Welch's two-sided t test between the segments, × splits tried
};

/// The change points of `series`, in index order. Non-finite values must be removed first.
std::vector<ChangePoint> detect_change_points(std::span<const double> series,
                                              const ChangePointOptions& options = {});

}  // namespace mlregress::internal::stats
