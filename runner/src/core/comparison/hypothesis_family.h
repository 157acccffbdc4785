// How many hypotheses the run's Holm families will hold, known before any seed runs: a
// sequential test must decide at its looks whether a p-value is small enough to survive the
// correction at the end of the run (analysis/sequential_seeds.h, SequentialPlan::family).
#pragma once

#include <map>
#include <string>

#include "baselines/baseline_store.h"

namespace mlregress::internal {

/// The distinct hypotheses of `tests` (test name, as the baseline files key them -> the config
/// hash the run gives it; empty: the baseline's) in the run's Holm families: one per baseline
/// metric with per-seed samples (margin policy, a direction that is not must-equal), counted once
/// for metrics whose direction, margin, seeds and samples are identical and whose tests run the
/// same configuration (the same question under two names: counting it twice would make Holm
/// stricter for nothing; a test whose configuration changed asks another one), plus one per
/// predictions reference file of the tests (McNemar's checks join the same families). At least 1.
int planned_hypotheses(const BaselineSet& baselines,
                       const std::map<std::string, std::string>& tests);

}  // namespace mlregress::internal
