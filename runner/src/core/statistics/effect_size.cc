#include "statistics/effect_size.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "statistics/moments.h"

namespace mlregress::internal::stats {

double hedges_correction(double df) {
  if (!(df > 1.0) || !std::isfinite(df)) {
    throw std::invalid_argument("Hedges' correction needs finite df > 1");
  }
  return std::exp(std::lgamma(df / 2.0) - std::lgamma((df - 1.0) / 2.0)) / std::sqrt(df / 2.0);
}

double cohens_d(std::span<const double> x, std::span<const double> y) {
  require_finite_sample(x, 2, "x");
  require_finite_sample(y, 2, "y");
  const double nx = static_cast<double>(x.size());
  const double ny = static_cast<double>(y.size());
  const double pooled_variance =
      ((nx - 1.0) * sample_variance(x) + (ny - 1.0) * sample_variance(y)) / (nx + ny - 2.0);
  const double difference = mean(x) - mean(y);
  if (pooled_variance == 0.0) {
    return difference == 0.0 ? std::numeric_limits<double>::quiet_NaN()
                             : std::copysign(HUGE_VAL, difference);
  }
  return difference / std::sqrt(pooled_variance);
}

double hedges_g(std::span<const double> x, std::span<const double> y) {
  const double d = cohens_d(x, y);
  return hedges_correction(static_cast<double>(x.size() + y.size()) - 2.0) * d;
}

double probability_greater(std::span<const double> x, std::span<const double> y) {
  require_finite_sample(x, 1, "x");
  require_finite_sample(y, 1, "y");
  // Seeds number in the tens: the direct count over all pairs is exact and cheap.
  double wins = 0.0;  // counts in halves stay exact in a double
  for (const double a : x) {
    for (const double b : y) wins += a > b ? 1.0 : (a == b ? 0.5 : 0.0);
  }
  return wins / (static_cast<double>(x.size()) * static_cast<double>(y.size()));
}

double probability_of_improvement(std::span<const double> candidate,
                                  std::span<const double> baseline, Direction direction) {
  switch (direction) {
    case Direction::HigherIsBetter:
      return probability_greater(candidate, baseline);
    case Direction::LowerIsBetter:
      return probability_greater(baseline, candidate);
    case Direction::MustEqual:
      break;
  }
  throw std::invalid_argument("a must-equal metric has no direction of improvement");
}

}  // namespace mlregress::internal::stats
