#include "statistics/t_distribution.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace mlregress::internal::stats {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Double precision throughout. Boost's default policy evaluates a double's incomplete beta in
// long double, accurate to the last bit of a double but about three times slower; the gate's
// p-values and intervals are printed to 4 digits, and the simulations behind promote's power
// statement and the sequential benchmarks evaluate them millions of times.
using DoublePrecision = boost::math::policies::policy<boost::math::policies::promote_double<false>>;
using StudentsT = boost::math::students_t_distribution<double, DoublePrecision>;

StudentsT distribution(double df) {
  if (!(df > 0.0) || !std::isfinite(df)) {
    throw std::invalid_argument("t distribution needs finite degrees of freedom > 0");
  }
  return StudentsT(df);
}

}  // namespace

double t_cdf(double t, double df) {
  const auto dist = distribution(df);
  if (std::isnan(t)) return kNaN;
  if (std::isinf(t)) return t > 0 ? 1.0 : 0.0;
  return boost::math::cdf(dist, t);
}

double t_sf(double t, double df) {
  const auto dist = distribution(df);
  if (std::isnan(t)) return kNaN;
  if (std::isinf(t)) return t > 0 ? 0.0 : 1.0;
  return boost::math::cdf(boost::math::complement(dist, t));
}

double t_quantile(double q, double df) {
  const auto dist = distribution(df);
  if (!(q > 0.0 && q < 1.0)) throw std::invalid_argument("t quantile needs 0 < q < 1");
  return boost::math::quantile(dist, q);
}

double t_upper_quantile(double upper_tail, double df) {
  const auto dist = distribution(df);
  if (!(upper_tail > 0.0 && upper_tail < 1.0)) {
    throw std::invalid_argument("t upper quantile needs 0 < upper_tail < 1");
  }
  return boost::math::quantile(boost::math::complement(dist, upper_tail));
}

double t_p_value(double t, double df, Alternative alternative) {
  if (std::isnan(t) || std::isnan(df)) return kNaN;
  switch (alternative) {
    case Alternative::kGreater:
      return t_sf(t, df);
    case Alternative::kLess:
      return t_cdf(t, df);
    case Alternative::kTwoSided:
      return std::min(1.0, 2.0 * t_sf(std::fabs(t), df));
  }
  return kNaN;
}

ConfidenceInterval t_confidence_interval(double estimate, double se, double df, double level,
                                         Alternative alternative) {
  if (!(level > 0.0 && level < 1.0)) {
    throw std::invalid_argument("confidence level must lie strictly between 0 and 1");
  }
  if (std::isnan(estimate) || std::isnan(se) || std::isnan(df)) return {kNaN, kNaN, level};
  switch (alternative) {
    case Alternative::kTwoSided: {
      const double half = t_quantile(0.5 + level / 2.0, df) * se;
      return {estimate - half, estimate + half, level};
    }
    case Alternative::kLess:
      return {-kInf, estimate + t_quantile(level, df) * se, level};
    case Alternative::kGreater:
      return {estimate - t_quantile(level, df) * se, kInf, level};
  }
  return {kNaN, kNaN, level};
}

}  // namespace mlregress::internal::stats
