#include "statistics/confidence_sequence.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace mlregress::internal::stats {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// log E_n, so that large n and t neither overflow nor lose the ratio to rounding.
double log_e_value(double t, double n, double g) {
  const double nu = n - 1.0;
  const double shrink = 1.0 + n * g;
  const double t2 = t * t;
  if (std::isinf(t2)) return 0.5 * nu * std::log(shrink);  // the limit as |t| → ∞
  return -0.5 * std::log(shrink) +
         0.5 * (nu + 1.0) * (std::log1p(t2 / nu) - std::log1p(t2 / (nu * shrink)));
}

void check(double n, double g) {
  if (!(n >= 2.0) || !std::isfinite(n) || !(g > 0.0) || !std::isfinite(g)) {
    throw std::invalid_argument("the t e-value needs n >= 2 values and a prior scale g > 0");
  }
}

}  // namespace

double t_e_value(double t, double n, double g) {
  check(n, g);
  return std::exp(log_e_value(t, n, g));
}

double confidence_sequence_radius(double n, double a, double g) {
  check(n, g);
  if (!(a > 0.0 && a < 1.0)) throw std::invalid_argument("the error a must lie in (0, 1)");
  const double target = -std::log(a);
  if (log_e_value(kInf, n, g) <= target) return kInf;
  if (log_e_value(0.0, n, g) >= target) return 0.0;  // not reached for g > 0: E_n(0) < 1
  double low = 0.0, high = 1.0;
  while (log_e_value(high, n, g) < target) high *= 2.0;
  for (int i = 0; i < 200 && high - low > 1e-12 * high; ++i) {
    const double mid = 0.5 * (low + high);
    (log_e_value(mid, n, g) < target ? low : high) = mid;
  }
  return high;
}

ConfidenceInterval mean_confidence_sequence(double mean, double sd, double n, double a, double g) {
  const double half = confidence_sequence_radius(n, a, g) * sd / std::sqrt(n);
  const double width = std::isnan(half) ? kInf : half;  // sd 0 with radius ∞: no information
  return {mean - width, mean + width, 1.0 - a};
}

ConfidenceInterval difference_confidence_sequence(double candidate_mean, double candidate_sd,
                                                  double candidate_n, double baseline_mean,
                                                  double baseline_sd, double baseline_n, double a,
                                                  double g) {
  const auto candidate =
      mean_confidence_sequence(candidate_mean, candidate_sd, candidate_n, a / 2, g);
  // The two-sided t interval at level 1 − a/2 puts a/4 in each tail; t_upper_quantile stays
  // accurate for the tiny a the p-value's bisection tries.
  const double baseline_half =
      t_upper_quantile(a / 4, baseline_n - 1.0) * baseline_sd / std::sqrt(baseline_n);
  return {candidate.lower - (baseline_mean + baseline_half),
          candidate.upper - (baseline_mean - baseline_half), 1.0 - a};
}

ConfidenceInterval intersect(const ConfidenceInterval& running, const ConfidenceInterval& look) {
  return {std::max(running.lower, look.lower), std::min(running.upper, look.upper), look.level};
}

double paired_anytime_p_value(double mean, double sd, double n, double g) {
  check(n, g);
  if (!(mean > 0.0)) return 1.0;
  const double t = sd > 0.0 ? mean * std::sqrt(n) / sd : kInf;
  return std::min(1.0, std::exp(-log_e_value(t, n, g)));
}

double independent_anytime_p_value(double candidate_mean, double candidate_sd, double candidate_n,
                                   double baseline_mean, double baseline_sd, double baseline_n,
                                   double g) {
  const auto lower_at = [&](double a) {
    return difference_confidence_sequence(candidate_mean, candidate_sd, candidate_n, baseline_mean,
                                          baseline_sd, baseline_n, a, g)
        .lower;
  };
  constexpr double kLargestA = 1.0 - 1e-12;
  if (!(lower_at(kLargestA) > 0.0)) return 1.0;
  // The lower end grows with a (a wider set at a smaller a): bisect on log a.
  double low = std::log(1e-300), high = std::log(kLargestA);
  if (lower_at(std::exp(low)) > 0.0) return 1e-300;
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (low + high);
    (lower_at(std::exp(mid)) > 0.0 ? high : low) = mid;
  }
  return std::exp(high);
}

}  // namespace mlregress::internal::stats
