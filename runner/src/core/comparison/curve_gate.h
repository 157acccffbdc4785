// A curve recorded with a CurvePolicy judged against the reference curve (the baseline's, stored
// by promote under baselines/<binary>/curves/, or another run's): step by step at the
// reference's steps, after the policy's moving average on both, within atol + rtol * |reference|.
//
//   NEW             no reference curve yet
//   NOT_COMPARABLE  the reference cannot be read, or the candidate has none of its steps
//   REGRESSION      the candidate leaves the band on the worse side for `consecutive` reference
//                   steps in a row (the first of them is reported), or is not finite there
//   PASS            otherwise
//
// The note gives the first step out, the values there, and the largest excursion: "compare
// curves, not just final loss" — a loss that diverges at step 6 and still ends inside a loose
// band on its final value is caught here.
#pragma once

#include <string>

#include "comparison/comparator.h"
#include "record/run_result.h"

namespace mlregress::internal {

/// The comparison of `recorded` (with a policy and its values) with the CSV at `reference_csv`.
MetricComparison compare_curve_metric(const RecordedCurve& recorded,
                                      const std::string& reference_csv);

}  // namespace mlregress::internal
