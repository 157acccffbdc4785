// How many hypotheses the run's Holm families will hold, known before any seed runs: a
// sequential test must decide at its looks whether a p-value is small enough to survive the
// correction at the end of the run (analysis/sequential_seeds.h, SequentialPlan::family).
#pragma once

#include <string>
#include <vector>

#include "baselines/baseline_store.h"

namespace mlregress::internal {

/// The distinct seeded hypotheses of `tests` (test names, as the baseline files key them): one
/// per baseline metric with per-seed samples (margin policy, a direction that is not
/// must-equal), and one only for metrics whose direction, margin, seeds and samples are all
/// identical (the same configuration run twice under two names is one question, and counting
/// it twice would make Holm stricter for nothing). At least 1.
int planned_hypotheses(const BaselineSet& baselines, const std::vector<std::string>& tests);

}  // namespace mlregress::internal
