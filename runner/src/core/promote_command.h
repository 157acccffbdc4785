// `promote RUN`, `compare RUN_A RUN_B` and `baselines check`: the commands that read run
// folders and baseline files. None of them runs a test.
#pragma once

#include <string>

#include "cli_options.h"
#include "mlregress/exit_code.h"
#include "mlregress/runner_hooks.h"

namespace mlregress::internal {

ExitCode promote_command(const PromoteOptions& options);
ExitCode compare_command(const CompareOptions& options);
ExitCode baselines_check_command(const BaselinesCheckOptions& options, const RunnerHooks& hooks,
                                 const std::string& binary);

}  // namespace mlregress::internal
