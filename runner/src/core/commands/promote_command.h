// `promote RUN`: the run's metrics become the baseline (see promotion.h). Reads a run folder;
// never runs a test.
#pragma once

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"

namespace mlregress::internal {

ExitCode promote_command(const PromoteOptions& options);

}  // namespace mlregress::internal
