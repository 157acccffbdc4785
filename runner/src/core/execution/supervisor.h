// Runs the planned tests in child processes so that a test that segfaults, aborts or exits
// cannot take the run with it: the runner records that test as crashed and starts a fresh
// process for the tests that have not run yet. Seeded tests run one process per seed, up to
// --jobs at once.
#pragma once

#include "execution/run_collector.h"
#include "execution/run_plan.h"
#include "mlregress/runner_hooks.h"

namespace mlregress::internal {

void run_tests_in_child_processes(const RunPlan& plan, const RunnerHooks& hooks,
                                  RunCollector& collector);

}  // namespace mlregress::internal
