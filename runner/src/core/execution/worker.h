// The test-process side of a run: runs the planned tests through GoogleTest and reports every
// observation as an event. GoogleTest's own console printer is replaced by the runner's.
#pragma once

#include <string>
#include <vector>

#include "execution/event_sink.h"
#include "execution/run_plan.h"
#include "mlregress/runner_hooks.h"

namespace mlregress::internal {

/// Runs the tests named in `full_names` (GoogleTest full names). Returns RUN_ALL_TESTS's code.
/// With `job`, runs that one seed of a seeded test: its seed and its variant's parameters.
int run_worker(const RunPlan& plan, const RunnerHooks& hooks, EventSink& sink,
               const std::vector<std::string>& full_names, const SeedJob* job = nullptr);

}  // namespace mlregress::internal
