// Where a gated curve left its band against the reference curve (comparison/curve_gate.h), in
// numbers a report can draw: the first step of the run that made it a REGRESSION and the
// largest distance beyond the band.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace mlregress::internal {

struct CurveExcursion {
  std::size_t compared_steps = 0;  ///< reference steps the candidate also has
  /// The first reference step of the first `consecutive` steps in a row outside the band on the
  /// worse side; unset when the curve stayed inside (PASS).
  std::optional<std::int64_t> first_exit_step;
  /// How far beyond the band the candidate went at its worst, in the metric's units (<= 0: it
  /// never left the band), and at which reference step.
  double largest_excess = 0.0;
  std::int64_t largest_excess_step = 0;
};

}  // namespace mlregress::internal
