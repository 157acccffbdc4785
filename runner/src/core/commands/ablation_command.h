// `ablation RUN [--test NAME]`: the ablation table of a run's seeded tests with variants, from
// its seed ledger. Reads the run folder; never re-runs tests.
#pragma once

#include <string>

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"

namespace mlregress::internal {

ExitCode ablation_command(const AblationOptions& options, const std::string& binary);

}  // namespace mlregress::internal
