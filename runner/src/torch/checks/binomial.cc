#include "binomial.h"

#include <c10/util/Exception.h>

#include <boost/math/distributions/binomial.hpp>

namespace mlregress::checks::detail {

double binomial_upper_tail(std::int64_t successes, std::int64_t trials, double rate) {
  TORCH_CHECK(trials >= 0 && rate >= 0.0 && rate <= 1.0, "binomial test: ", trials,
              " trials at rate ", rate);
  if (successes <= 0) return 1.0;
  if (successes > trials) return 0.0;
  if (rate == 0.0) return 0.0;
  if (rate == 1.0) return 1.0;
  const boost::math::binomial_distribution<double> distribution(static_cast<double>(trials), rate);
  // P(X >= k) = 1 - P(X <= k - 1), computed as a complement so small tails keep their digits.
  return boost::math::cdf(
      boost::math::complement(distribution, static_cast<double>(successes - 1)));
}

}  // namespace mlregress::checks::detail
