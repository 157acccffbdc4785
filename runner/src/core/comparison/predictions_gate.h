// Predictions on a frozen evaluation set judged against the reference predictions (the
// baseline's, stored by promote, or another run's): paired by example id, the flips decide.
//
//   NEW             no reference predictions yet
//   NOT_COMPARABLE  the reference covers other examples, or their targets changed (the
//                   evaluation set changed: the reason names how)
//   REGRESSION      McNemar's exact one-sided p for "more correct -> wrong than wrong -> correct",
//                   Holm-adjusted with the run's other statistical checks, is below alpha
//   IMPROVED        the same for the other side
//   PASS            otherwise (the flips are what chance gives on a frozen set)
//
// No band is involved: on a frozen set the two runs are paired per example and the flips are
// the whole evidence of a changed accuracy, so 91.2% -> 88.7% on 1,000 examples is judged by
// its 25 net flips.
#pragma once

#include <string>

#include "analysis/distribution_gate.h"
#include "comparison/comparator.h"
#include "record/run_result.h"

namespace mlregress::internal {

/// Step 1: the comparison of `recorded` with the reference file `reference_csv` (a path),
/// pending (no decision) when both are comparable.
MetricComparison compare_predictions_metric(const RecordedPredictions& recorded,
                                            const std::string& reference_csv);

/// Step 2: the verdict from the Holm-adjusted p-values.
GateDecision decide_predictions(const FlipsAnalysis& flips, const OtherCheck& adjusted,
                                double alpha);

}  // namespace mlregress::internal
