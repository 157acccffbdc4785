// The standard normal's upper tail, shared by the sequential designs.
#pragma once

#include <cmath>
#include <numbers>

namespace mlregress::internal::stats {

/// P(Z > z) for a standard normal Z; erfc keeps it accurate far into the tail, where 1 − Φ(z)
/// would round to 0.
inline double upper_tail(double z) { return 0.5 * std::erfc(z / std::numbers::sqrt2); }

}  // namespace mlregress::internal::stats
