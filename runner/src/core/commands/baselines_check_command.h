// `baselines check`: what in the baseline files is stale — entries whose test is gone, tests
// without an entry, exact values recorded only on another environment profile.
#pragma once

#include <string>

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"
#include "mlregress/runner_hooks.h"

namespace mlregress::internal {

ExitCode baselines_check_command(const BaselinesCheckOptions& options, const RunnerHooks& hooks,
                                 const std::string& binary);

}  // namespace mlregress::internal
