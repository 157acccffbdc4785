#include "statistics/median_interval.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <stdexcept>
#include <vector>

#include "statistics/moments.h"

namespace mlregress::internal::stats {

MedianInterval median_interval(std::span<const double> values, double level) {
  require_finite_sample(values, 1, "sample");
  if (!(level > 0.0 && level < 1.0)) {
    throw std::invalid_argument("median_interval: the level must lie in (0, 1)");
  }
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();

  MedianInterval interval;
  interval.median = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);

  // Coverage of [x_(k), x_(n+1-k)] is 1 - 2 P(B <= k - 1), B ~ Bin(n, 1/2). It falls as k grows,
  // so take the largest k that still reaches the level, and k = 1 (min, max) when none does.
  const boost::math::binomial_distribution<double> sign_count(static_cast<double>(n), 0.5);
  const auto coverage = [&](std::size_t k) {
    return 1.0 - 2.0 * boost::math::cdf(sign_count, static_cast<double>(k - 1));
  };
  std::size_t k = 1;
  while (k + 1 <= (n + 1) / 2 && coverage(k + 1) >= level) ++k;
  interval.low_rank = k;
  interval.high_rank = n + 1 - k;
  interval.low = sorted[interval.low_rank - 1];
  interval.high = sorted[interval.high_rank - 1];
  interval.coverage = coverage(k);
  return interval;
}

}  // namespace mlregress::internal::stats
