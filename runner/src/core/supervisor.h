// Runs the planned tests in child processes so that a test that segfaults, aborts or exits
// cannot take the run with it: the runner records that test as crashed and starts a fresh
// process for the tests that have not run yet.
#pragma once

#include <functional>

#include <nlohmann/json.hpp>

#include "mlregress/runner_hooks.h"
#include "run_collector.h"
#include "run_plan.h"

namespace mlregress::internal {

/// Calls `probe` in a child process and returns what it returned (an object with an "error"
/// key if the child failed).
nlohmann::json probe_in_child_process(const std::function<nlohmann::json()>& probe);

void run_tests_in_child_processes(const RunPlan& plan, const RunnerHooks& hooks,
                                  RunCollector& collector);

}  // namespace mlregress::internal
