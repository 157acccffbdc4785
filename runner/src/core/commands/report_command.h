// `report RUN [--against RUN_A | --baselines DIR] [--format html|markdown|openmetrics]
// [--out FILE]`: the run as a page, a pull-request summary or a metrics file. Without
// --against or --baselines it shows the verdicts the run recorded; with them it judges the run
// first, through the same gate `run` and `compare` use, and writes nothing into the run folder.
#pragma once

#include "cli/cli_options.h"
#include "mlregress/exit_code.h"
#include "report/run_report.h"
#include "storage/run_folder.h"

namespace mlregress::internal {

ExitCode report_command(const ReportOptions& options);

/// report.html at the end of a run, judged against `baselines` (nullptr: not compared).
void write_run_report_html(const RunRecord& record, const BaselineSet* baselines,
                           const std::string& path);

/// The end of a finished run folder (`run`, `merge`): report.html, then the ledger line and
/// `latest`. What cannot be written is added to `output_errors`; nothing of the run is lost.
void finish_run_folder_with_report(const RunFolder& folder, const RunRecord& record,
                                   const BaselineSet* baselines,
                                   std::vector<std::string>& output_errors);

}  // namespace mlregress::internal
