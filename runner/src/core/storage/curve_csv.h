// The curve CSV format: curves/<test>.<curve>.csv in a run folder (written as the run goes by
// reporting/curve_csv_writer) and the reference curves promote stores under
// baselines/<binary>/curves/. Rendered and read here, nowhere else.
#pragma once

#include <cstddef>
#include <string>

#include "mlregress/metric.h"

namespace mlregress::internal {

/// At most this many points of a curve go into the baseline (evenly spaced, first and last kept).
inline constexpr std::size_t kReferenceCurvePoints = 1000;

/// The curve as promote stores it: downsampled to kReferenceCurvePoints.
CurveRecord reference_curve(const CurveRecord& curve);

/// "step,value" then one row per step, values in shortest round-trip form so the CSV reproduces
/// the recorded doubles exactly.
std::string render_curve_csv(const CurveRecord& curve);

/// The steps and values of the CSV at `path` ("step,value" header, then one row per step;
/// "nan", "inf" and "-inf" for values that are not finite). Throws RunFolderError naming the
/// file and line of anything else.
CurveRecord read_curve_csv(const std::string& path);

}  // namespace mlregress::internal
