#include "statistics/sequential_bound.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <stdexcept>
#include <string>

namespace mlregress::internal::stats {
namespace {

void require_probability(double value, const char* name) {
  // Written so that a NaN fails too.
  if (!(value > 0.0 && value < 1.0)) {
    throw std::invalid_argument(std::string(name) + " must lie strictly between 0 and 1, got " +
                                std::to_string(value));
  }
}

void require_shift(double d) {
  if (!(d > 0.0) || !std::isfinite(d)) {
    throw std::invalid_argument(
        "d (the shift in standard deviations) must be positive and finite, got " +
        std::to_string(d));
  }
}

}  // namespace

double binary_kl(double p, double q) {
  require_probability(p, "kl's p");
  require_probability(q, "kl's q");
  return p * std::log(p / q) + (1.0 - p) * std::log((1.0 - p) / (1.0 - q));
}

ExpectedSeedsBound wald_expected_seeds(double alpha, double beta, double d) {
  require_probability(alpha, "alpha (the level)");
  require_probability(beta, "beta (1 - power)");
  require_shift(d);
  const double information = d * d / 2.0;  // KL divergence of N(d, 1) from N(0, 1)
  return {.h0 = binary_kl(1.0 - alpha, beta) / information,
          .h1 = binary_kl(1.0 - beta, alpha) / information};
}

double expected_seeds_bound_at(double alpha, double beta, double d, double theta) {
  const ExpectedSeedsBound wald = wald_expected_seeds(alpha, beta, d);
  if (!(theta >= 0.0 && theta <= d)) {
    throw std::invalid_argument("theta (the true shift) must lie in [0, d], got " +
                                std::to_string(theta));
  }
  if (theta == 0.0) return wald.h0;
  if (theta == d) return wald.h1;
  const double information_h0 = theta * theta / 2.0;
  const double information_h1 = (d - theta) * (d - theta) / 2.0;
  // p = P_theta(reject): the first term grows with p from 0 at alpha, the second falls to 0 at
  // 1 - beta, so the smallest maximum is where they cross.
  const auto against_h0 = [&](double p) {
    return p > alpha ? binary_kl(p, alpha) / information_h0 : 0.0;
  };
  const auto against_h1 = [&](double p) {
    return 1.0 - p > beta ? binary_kl(1.0 - p, beta) / information_h1 : 0.0;
  };
  double low = alpha, high = 1.0 - beta;
  for (int step = 0; step < 200 && high - low > 1e-15; ++step) {
    const double middle = 0.5 * (low + high);
    (against_h0(middle) < against_h1(middle) ? low : high) = middle;
  }
  // At the crossing both sides are equal; read it off the side whose information is the larger.
  // Near theta = d the other side divides by an information close to 0, and the last ulp of p
  // (1 - 0.8 is not 0.2) would blow it up.
  return information_h0 >= information_h1 ? against_h0(high) : against_h1(low);
}

WorstCaseSeedsBound worst_case_expected_seeds(double alpha, double beta, double d) {
  // Clamped: d * step / kSteps may round a hair past d at the last step.
  const auto at = [&](double theta) {
    return expected_seeds_bound_at(alpha, beta, d, std::clamp(theta, 0.0, d));
  };
  constexpr int kSteps = 2000;
  WorstCaseSeedsBound worst{.theta = 0.0, .seeds = at(0.0)};
  int best_step = 0;
  for (int step = 1; step <= kSteps; ++step) {
    const double theta = d * step / kSteps;
    if (const double seeds = at(theta); seeds > worst.seeds) {
      worst = {.theta = theta, .seeds = seeds};
      best_step = step;
    }
  }
  // Golden-section search between the grid's neighbours of its best point.
  double low = d * std::max(0, best_step - 1) / kSteps;
  double high = d * std::min(kSteps, best_step + 1) / kSteps;
  const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
  for (int step = 0; step < 100; ++step) {
    const double left = high - ratio * (high - low), right = low + ratio * (high - low);
    if (at(left) < at(right)) {
      low = left;
    } else {
      high = right;
    }
  }
  const double theta = 0.5 * (low + high);
  if (const double seeds = at(theta); seeds > worst.seeds) {
    worst = {.theta = std::clamp(theta, 0.0, d), .seeds = seeds};
  }
  return worst;
}

PercentileSeedsBound percentile_seeds_bound(double alpha, double beta, double d, double q,
                                            int reference_seeds) {
  require_probability(alpha, "alpha (the level)");
  require_probability(beta, "beta (1 - power)");
  require_shift(d);
  if (!(q > std::max(alpha, beta) && q < 1.0)) {
    throw std::invalid_argument("q (the share of tests stopped) must lie between " +
                                std::to_string(std::max(alpha, beta)) + " and 1, got " +
                                std::to_string(q));
  }
  if (reference_seeds < 0) {
    throw std::invalid_argument("the reference needs 0 seeds (known exactly) or more, got " +
                                std::to_string(reference_seeds));
  }
  const boost::math::normal standard;
  // The smallest whole n with d / sqrt(1 / n + 1 / m) >= the two quantiles' sum (1 / m = 0 for a
  // reference known exactly).
  const double reference_variance = reference_seeds == 0 ? 0.0 : 1.0 / reference_seeds;
  const auto fewest = [&](double upper_error, double other_error) {
    const double needed = boost::math::quantile(standard, 1.0 - upper_error) +
                          boost::math::quantile(standard, q - other_error);
    if (needed <= 0.0) return 0;
    const double per_seed = (d / needed) * (d / needed) - reference_variance;  // 1 / n at most
    if (!(per_seed > 0.0)) return kNoSeedsSuffice;
    return static_cast<int>(std::ceil(1.0 / per_seed - 1e-9));
  };
  return {.h0 = fewest(beta, alpha), .h1 = fewest(alpha, beta)};
}

}  // namespace mlregress::internal::stats
