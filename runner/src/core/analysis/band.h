// The tolerance band of a single value, a curve's point and a timing: how far an observed value
// may lie from its reference, atol + rtol * |reference|. One formula for every gate, so the
// report's drawn band and the verdict cannot disagree.
#pragma once

#include <cmath>

namespace mlregress::internal {

/// The band's half-width around `reference`, in the value's units.
inline double band_half_width(double rtol, double atol, double reference) {
  return atol + rtol * std::fabs(reference);
}

}  // namespace mlregress::internal
