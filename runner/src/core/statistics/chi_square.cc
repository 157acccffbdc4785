#include "statistics/chi_square.h"

#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <stdexcept>

namespace mlregress::internal::stats {

double chi_square_quantile(double q, double df) {
  if (!(q > 0.0 && q < 1.0) || !(df > 0.0) || !std::isfinite(df)) {
    throw std::invalid_argument("chi_square_quantile: needs 0 < q < 1 and a finite df > 0");
  }
  return boost::math::quantile(boost::math::chi_squared_distribution<double>(df), q);
}

SdInterval sd_interval(double sd, std::size_t n, double level) {
  if (n < 2 || !(level > 0.0 && level < 1.0)) {
    throw std::invalid_argument("sd_interval: needs n >= 2 and 0 < level < 1");
  }
  const double df = static_cast<double>(n - 1);
  const double tail = (1.0 - level) / 2.0;
  return {sd * std::sqrt(df / chi_square_quantile(1.0 - tail, df)),
          sd * std::sqrt(df / chi_square_quantile(tail, df))};
}

}  // namespace mlregress::internal::stats
