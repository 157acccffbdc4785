// report.html of a run, the page `run` and `merge` leave in the run folder, and the parts of a
// run's page that `report` shares: the baselines' one-line description and the history charts.
#pragma once

#include <string>
#include <vector>

#include "baselines/baseline_store.h"
#include "renderers/run_report.h"
#include "storage/run_folder.h"

namespace mlregress::internal {

/// "baselines in DIR (3 files, newest v4)", or "... (none for this binary yet)".
std::string describe_baselines(const std::string& dir, const BaselineSet& set);

/// Adds the run's metrics across the runs under `paths` (the run itself among them when it is
/// there), one chart per series of its tests on its environment profile.
void add_history(RunReport& report, const RunRecord& record, const std::vector<std::string>& paths,
                 const std::string& repository);

/// report.html at the end of a run, judged against `baselines` (nullptr: not compared).
void write_run_report_html(const RunRecord& record, const BaselineSet* baselines,
                           const std::string& path);

/// The end of a finished run folder (`run`, `merge`): report.html, then the ledger line and
/// `latest`. What cannot be written is added to `output_errors`; nothing of the run is lost.
void finish_run_folder_with_report(const RunFolder& folder, const RunRecord& record,
                                   const BaselineSet* baselines,
                                   std::vector<std::string>& output_errors);

}  // namespace mlregress::internal
