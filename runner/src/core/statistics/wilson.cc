#include "statistics/wilson.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mlregress::internal::stats {

ProportionInterval wilson_interval(int successes, int trials) {
  if (trials < 0 || successes < 0 || successes > trials) {
    throw std::invalid_argument(
        fmt::format("wilson_interval: {} successes in {} trials", successes, trials));
  }
  if (trials == 0) return {0.0, 1.0};
  const double n = trials;
  const double p = successes / n;
  const double z2 = kWilsonZ95 * kWilsonZ95;
  const double scale = 1.0 + z2 / n;
  const double centre = (p + z2 / (2.0 * n)) / scale;
  const double half = kWilsonZ95 * std::sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / scale;
  // At k = 0 and k = n the bound is exactly 0 or 1; rounding must not move it off.
  return {successes == 0 ? 0.0 : std::max(0.0, centre - half),
          successes == trials ? 1.0 : std::min(1.0, centre + half)};
}

}  // namespace mlregress::internal::stats
