#include "statistics/mcnemar.h"

#include <algorithm>
#include <boost/math/special_functions/beta.hpp>
#include <stdexcept>
#include <string>

namespace mlregress::internal::stats {
namespace {

// Counts up to 2^53 are exact as doubles, which is what ibeta takes.
constexpr std::int64_t kMaxCount = std::int64_t{1} << 53;

void require_trials(std::int64_t n) {
  if (n < 0 || n > kMaxCount) {
    throw std::invalid_argument("binomial tail: the number of trials must lie in [0, 2^53], got " +
                                std::to_string(n));
  }
}

}  // namespace

double binomial_half_sf(std::int64_t k, std::int64_t n) {
  require_trials(n);
  if (k <= 0) return 1.0;
  if (k > n) return 0.0;
  // P(X >= k) = I_{1/2}(k, n - k + 1) for 1 <= k <= n (the order-statistic identity). ibeta
  // evaluates the small tail directly, so no 1 - (something near 1) cancels.
  return boost::math::ibeta(static_cast<double>(k), static_cast<double>(n - k + 1), 0.5);
}

double binomial_half_cdf(std::int64_t k, std::int64_t n) {
  require_trials(n);
  if (k < 0) return 0.0;
  if (k >= n) return 1.0;
  // With p = 1/2 the distribution is symmetric: P(X <= k) = P(X >= n - k).
  return binomial_half_sf(n - k, n);
}

McNemarResult mcnemar_exact(std::int64_t b, std::int64_t c) {
  if (b < 0 || c < 0) {
    throw std::invalid_argument("McNemar: the discordant counts must be >= 0, got b = " +
                                std::to_string(b) + ", c = " + std::to_string(c));
  }
  if (b > kMaxCount - c) {
    throw std::invalid_argument("McNemar: b + c must not exceed 2^53");
  }
  McNemarResult result;
  result.b = b;
  result.c = c;
  result.n = b + c;
  result.p_worse = binomial_half_sf(b, result.n);
  result.p_better = binomial_half_cdf(b, result.n);
  result.p_two_sided = std::min(1.0, 2.0 * binomial_half_cdf(std::min(b, c), result.n));
  return result;
}

}  // namespace mlregress::internal::stats
