// Reads a curve back from the run folder's curves/<test>.<curve>.csv (written by
// reporting/curve_csv_writer), for the reports that draw it.
#pragma once

#include <string>

#include "mlregress/metric.h"

namespace mlregress::internal {

/// The steps and values of the CSV at `path` ("step,value" header, then one row per step;
/// "nan", "inf" and "-inf" for values that are not finite). Throws RunFolderError naming the
/// file and line of anything else.
CurveRecord read_curve_csv(const std::string& path);

}  // namespace mlregress::internal
