#include "statistics/tolerance_interval.h"

#include <fmt/format.h>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/non_central_t.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace mlregress::internal::stats {
namespace {

void check_arguments(int n, double coverage, double confidence) {
  const bool rate = coverage > 0.0 && coverage < 1.0 && confidence > 0.0 && confidence < 1.0;
  if (n < 2 || !rate) {
    throw std::invalid_argument(fmt::format(
        "a tolerance factor needs n >= 2 and coverage and confidence in (0, 1), not n={}, "
        "coverage={}, confidence={}",
        n, coverage, confidence));
  }
}

const boost::math::normal kStandardNormal;

// The half-width r of the interval x ± r holding `coverage` of N(0, 1): Φ(x + r) − Φ(x − r) =
// coverage. r(0) = z_{(1+coverage)/2} and r grows towards x + z_coverage, so [z, x + z] brackets
// it (at x + z the interval holds at least Φ(z) − Φ(−z) = coverage).
double half_width(double x, double coverage, double z_half) {
  if (x == 0.0) return z_half;
  const auto held = [&](double r) {
    // The complements keep the difference accurate far out in the tails; the derivative is
    // φ(x + r) + φ(x − r).
    const double value = boost::math::cdf(boost::math::complement(kStandardNormal, x - r)) -
                         boost::math::cdf(boost::math::complement(kStandardNormal, x + r)) -
                         coverage;
    const double slope =
        boost::math::pdf(kStandardNormal, x + r) + boost::math::pdf(kStandardNormal, x - r);
    return std::make_pair(value, slope);
  };
  std::uintmax_t iterations = 100;
  return boost::math::tools::newton_raphson_iterate(held, z_half + 0.5 * x, z_half, x + z_half, 48,
                                                    iterations);
}

// The confidence of mean ± k·sd for n values: the integral of the exact two-sided factor.
double two_sided_confidence(int n, double coverage, double k, double z_half) {
  const double root_n = std::sqrt(static_cast<double>(n));
  const double df = n - 1.0;
  const auto integrand = [&](double x) {
    const double r = half_width(x, coverage, z_half);
    const double chi = df * r * r / (k * k);
    return 2.0 * root_n * boost::math::pdf(kStandardNormal, x * root_n) *
           boost::math::gamma_q(0.5 * df, 0.5 * chi);
  };
  // The normal density of the sample mean is below 1e-21 beyond 10 standard errors.
  return boost::math::quadrature::gauss_kronrod<double, 61>::integrate(integrand, 0.0,
                                                                       10.0 / root_n, 10, 1e-12);
}

}  // namespace

double howe_tolerance_factor(int n, double coverage, double confidence) {
  check_arguments(n, coverage, confidence);
  const double z = boost::math::quantile(kStandardNormal, 0.5 * (1.0 + coverage));
  const boost::math::chi_squared chi(n - 1.0);
  const double lower = boost::math::quantile(chi, 1.0 - confidence);
  return z * std::sqrt((n - 1.0) * (1.0 + 1.0 / n) / lower);
}

double tolerance_factor(int n, double coverage, double confidence) {
  check_arguments(n, coverage, confidence);
  const double z_half = boost::math::quantile(kStandardNormal, 0.5 * (1.0 + coverage));
  const double howe = howe_tolerance_factor(n, coverage, confidence);
  // The confidence rises with k; Howe's value is within a few percent of the root for n >= 3
  // and within 10% at n = 2, so [howe / 2, 2 · howe] brackets it (widened if ever it does not).
  double lo = 0.5 * howe;
  double hi = 2.0 * howe;
  while (two_sided_confidence(n, coverage, lo, z_half) > confidence) lo *= 0.5;
  while (two_sided_confidence(n, coverage, hi, z_half) < confidence) hi *= 2.0;
  const auto miss = [&](double k) {
    return two_sided_confidence(n, coverage, k, z_half) - confidence;
  };
  std::uintmax_t iterations = 200;
  const auto [a, b] = boost::math::tools::toms748_solve(
      miss, lo, hi, boost::math::tools::eps_tolerance<double>(40), iterations);
  return 0.5 * (a + b);
}

double one_sided_tolerance_factor(int n, double coverage, double confidence) {
  check_arguments(n, coverage, confidence);
  const double root_n = std::sqrt(static_cast<double>(n));
  const double z = boost::math::quantile(kStandardNormal, coverage);
  const boost::math::non_central_t t(n - 1.0, z * root_n);
  return boost::math::quantile(t, confidence) / root_n;
}

}  // namespace mlregress::internal::stats
