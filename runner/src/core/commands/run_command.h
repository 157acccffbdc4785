// `run`: select tests, fix the plan, create the run folder, run the tests in child processes
// and write every report. Returns the run's ExitCode.
#pragma once

#include <string>

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"
#include "mlregress/runner_hooks.h"

namespace mlregress::internal {

ExitCode run_command(const RunOptions& options, const RunnerHooks& hooks, const std::string& binary,
                     const std::string& gtest_filter);

}  // namespace mlregress::internal
