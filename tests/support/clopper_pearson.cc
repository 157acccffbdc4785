#include "tests/support/clopper_pearson.h"

#include <boost/math/distributions/beta.hpp>

namespace mlregress::test_support {

RateInterval clopper_pearson(int hits, int n) {
  using boost::math::beta_distribution;
  return {hits == 0 ? 0.0 : boost::math::quantile(beta_distribution<>(hits, n - hits + 1), 0.025),
          hits == n ? 1.0 : boost::math::quantile(beta_distribution<>(hits + 1, n - hits), 0.975)};
}

}  // namespace mlregress::test_support
