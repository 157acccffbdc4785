// The median of a small sample with a distribution-free confidence interval from its order
// statistics (the interval the sign test inverts): [x_(k), x_(n+1-k)] covers the population
// median with probability 1 - 2 P(Bin(n, 1/2) <= k - 1), whatever the distribution. Used for
// throughput repetitions and for the per-round ratios of an A/B comparison, where a handful of
// values with an occasional outlier (a descheduled repetition) make a normal-theory interval
// on the mean misleading.
//
// Small samples cannot reach every level: at n = 5 even [min, max] covers only 93.75%, so the
// interval reports the coverage it actually has rather than the one asked for.
#pragma once

#include <cstddef>
#include <span>

namespace mlregress::internal::stats {

struct MedianInterval {
  double median = 0.0;       ///< the middle value; the mean of the two middle values when n is even
  double low = 0.0;          ///< x_(low_rank)
  double high = 0.0;         ///< x_(high_rank)
  double coverage = 0.0;     ///< exact coverage of [low, high] for a continuous distribution
  std::size_t low_rank = 0;  ///< 1-based rank of `low` in the sorted sample
  std::size_t high_rank = 0;  ///< n + 1 - low_rank
};

/// The narrowest symmetric order-statistic interval whose coverage is at least `level`; when
/// no interval reaches it (n < 6 at 0.95), [min, max] with its smaller coverage. Throws
/// std::invalid_argument on an empty or non-finite sample or a level outside (0, 1).
MedianInterval median_interval(std::span<const double> values, double level = 0.95);

}  // namespace mlregress::internal::stats
