#include "statistics/power.h"

#include <fmt/format.h>

#include <boost/math/distributions/non_central_t.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace mlregress::internal::stats {
namespace {

void require_alpha_power(double alpha, double power) {
  if (!(alpha > 0.0 && alpha < power && power < 1.0)) {
    throw std::invalid_argument("power analysis needs 0 < alpha < power < 1");
  }
}

// The non-centrality at which the one-sided level-alpha t(df) test has the given power.
double required_ncp(double df, double alpha, double power) {
  const auto power_minus_target = [&](double ncp) {
    return one_sided_t_power(ncp, df, alpha) - power;
  };
  // Power is alpha at ncp = 0 and increases with ncp: bracket [lo, hi] by doubling.
  double lo = 0.0;
  double hi = 1.0;
  while (power_minus_target(hi) < 0.0) {
    lo = hi;
    hi *= 2.0;
    if (hi > 1e6) throw std::runtime_error("minimum detectable effect: no bracket found");
  }
  std::uintmax_t max_iterations = 200;
  const auto [a, b] = boost::math::tools::toms748_solve(
      power_minus_target, lo, hi, boost::math::tools::eps_tolerance<double>(50), max_iterations);
  return (a + b) / 2.0;
}

// value rounded up to two significant digits, printed without an exponent.
std::string two_digits_up(double value) {
  if (!(value > 0.0) || !std::isfinite(value)) return fmt::format("{}", value);
  const int exponent = static_cast<int>(std::floor(std::log10(value)));
  const double unit = std::pow(10.0, exponent - 1);
  // The small slack keeps 0.013 from becoming 0.014 through representation error.
  const double rounded = std::ceil(value / unit * (1.0 - 1e-12)) * unit;
  return fmt::format("{:.{}f}", rounded, std::max(0, 1 - exponent));
}

}  // namespace

double noncentral_t_sf(double x, double df, double ncp) {
  if (!(df > 0.0) || !std::isfinite(df) || !std::isfinite(ncp)) {
    throw std::invalid_argument("non-central t needs finite df > 0 and a finite non-centrality");
  }
  if (std::isinf(x)) return x > 0 ? 0.0 : 1.0;
  return boost::math::cdf(boost::math::complement(boost::math::non_central_t(df, ncp), x));
}

double one_sided_t_power(double ncp, double df, double alpha) {
  if (!(alpha > 0.0 && alpha < 1.0)) throw std::invalid_argument("alpha must lie in (0, 1)");
  const double critical = boost::math::quantile(boost::math::students_t(df), 1.0 - alpha);
  return noncentral_t_sf(critical, df, ncp);
}

double two_sample_power(double effect, std::size_t n_per_arm, double sd, double alpha) {
  if (n_per_arm < 2 || !(sd > 0.0)) throw std::invalid_argument("power needs n >= 2 and sd > 0");
  const double n = static_cast<double>(n_per_arm);
  return one_sided_t_power(effect / (sd * std::sqrt(2.0 / n)), 2.0 * n - 2.0, alpha);
}

double minimum_detectable_effect(std::size_t n_per_arm, double sd, double alpha, double power) {
  if (n_per_arm < 2 || !(sd > 0.0) || !std::isfinite(sd)) {
    throw std::invalid_argument("minimum detectable effect needs n >= 2 and a finite sd > 0");
  }
  require_alpha_power(alpha, power);
  const double n = static_cast<double>(n_per_arm);
  return required_ncp(2.0 * n - 2.0, alpha, power) * sd * std::sqrt(2.0 / n);
}

double minimum_detectable_effect_paired(std::size_t n_pairs, double sd_difference, double alpha,
                                        double power) {
  if (n_pairs < 2 || !(sd_difference > 0.0) || !std::isfinite(sd_difference)) {
    throw std::invalid_argument("minimum detectable effect needs n >= 2 and a finite sd > 0");
  }
  require_alpha_power(alpha, power);
  const double n = static_cast<double>(n_pairs);
  return required_ncp(n - 1.0, alpha, power) * sd_difference / std::sqrt(n);
}

std::string detectable_effect_sentence(std::size_t n_per_arm, double sd, double alpha, double power,
                                       Direction direction) {
  if (direction == Direction::MustEqual) {
    throw std::invalid_argument("a must-equal metric has no one-sided detectable effect");
  }
  const double effect = minimum_detectable_effect(n_per_arm, sd, alpha, power);
  const char* change = direction == Direction::HigherIsBetter ? "drop" : "rise";
  return fmt::format(
      "with n={} and sd={:.3g}, a {} of >={} is detected with {:g}% power at alpha={:g}", n_per_arm,
      sd, change, two_digits_up(effect), power * 100.0, alpha);
}

}  // namespace mlregress::internal::stats
