#include "statistics/sequential_bound.h"

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

}  // namespace

double binary_kl(double p, double q) {
  require_probability(p, "kl's p");
  require_probability(q, "kl's q");
  return p * std::log(p / q) + (1.0 - p) * std::log((1.0 - p) / (1.0 - q));
}

ExpectedSeedsBound wald_expected_seeds(double alpha, double beta, double d) {
  require_probability(alpha, "alpha (the level)");
  require_probability(beta, "beta (1 - power)");
  if (!(d > 0.0) || !std::isfinite(d)) {
    throw std::invalid_argument(
        "d (the shift in standard deviations) must be positive and finite, got " +
        std::to_string(d));
  }
  const double information = d * d / 2.0;  // KL divergence of N(d, 1) from N(0, 1)
  return {.h0 = binary_kl(1.0 - alpha, beta) / information,
          .h1 = binary_kl(1.0 - beta, alpha) / information};
}

}  // namespace mlregress::internal::stats
