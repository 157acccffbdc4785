// `compare RUN_A RUN_B`: the regression report of run B with run A as its baseline, built in
// memory the way promote would write it. Reads two run folders; never runs a test.
#pragma once

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"

namespace mlregress::internal {

ExitCode compare_command(const CompareOptions& options);

}  // namespace mlregress::internal
