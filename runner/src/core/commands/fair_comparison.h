// What `run` says about the fairness of the comparisons it makes: a seeded test whose random
// searches gave its methods unequal tuning budgets (when the run starts), and a held-out set
// evaluated more than once, in this run or in the earlier runs of its runs folder (when it ends).
// Both are warnings: neither changes a verdict or the exit code.
#pragma once

#include <string>

#include "execution/run_plan.h"
#include "record/run_result.h"

namespace mlregress::internal {

/// Prints "WARNING: Full.OptimizerSearch: unequal tuning budgets: adam 8 trials, sgd 3 — …" for
/// each planned test whose methods were not given the same number of trials.
void warn_unequal_budgets(const RunPlan& plan);

/// Counts the run's held-out evaluations with those of the earlier runs under `runs_folder` into
/// run.held_out, and prints "WARNING: held-out set 'test' (…) evaluated 2 times: …" for each set
/// evaluated more than once.
void count_held_out_evaluations(RunResult& run, const std::string& runs_folder);

}  // namespace mlregress::internal
