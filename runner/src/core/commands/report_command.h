// `report RUN [--against RUN_A | --baselines DIR] [--format html|markdown|openmetrics]
// [--out FILE]`: the run as a page, a pull-request summary or a metrics file. Without
// --against or --baselines it shows the verdicts the run recorded; with them it judges the run
// first, through the same gate `run` and `compare` use, and writes nothing into the run folder.
#pragma once

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"

namespace mlregress::internal {

ExitCode report_command(const ReportOptions& options);

}  // namespace mlregress::internal
