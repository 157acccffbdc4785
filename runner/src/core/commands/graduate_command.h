// `graduate RUNS --test T --metric M --reason ...`: a capability met reliably over the runs
// under RUNS becomes a regression guard; `--demote` turns a graduated guard back into a
// capability (baselines/graduation.h). Reads run folders and baselines; never runs a test.
#pragma once

#include <string>

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"

namespace mlregress::internal {

ExitCode graduate_command(const GraduateOptions& options, const std::string& binary);

}  // namespace mlregress::internal
