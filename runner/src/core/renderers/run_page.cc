#include "renderers/run_page.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "renderers/history_figure.h"
#include "renderers/html_report.h"
#include "storage/metric_history.h"
#include "storage/run_ledger.h"
#include "support/atomic_file.h"
#include "support/errors.h"

namespace mlregress::internal {

std::string describe_baselines(const std::string& dir, const BaselineSet& set) {
  int newest = 0;
  for (const LoadedBaselineFile& file : set.files())
    newest = std::max(newest, file.file.provenance.version);
  return set.files().empty()
             ? fmt::format("baselines in {} (none for this binary yet)", dir)
             : fmt::format("baselines in {} ({} file{}, newest v{})", dir, set.files().size(),
                           set.files().size() == 1 ? "" : "s", newest);
}

void add_history(RunReport& report, const RunRecord& record, const std::vector<std::string>& paths,
                 const std::string& repository) {
  std::set<std::string> tests;
  for (const TestResult& test : record.run.tests) tests.insert(test.full_name);
  const MetricHistory history = read_metric_history(paths, "", "", repository);
  for (const auto& [key, series] : history.series) {
    if (tests.count(series.test) == 0 || series.profile != record.profile.id) continue;
    report.history_figures.push_back(history_figure(series, {}));
  }
  report.history_source = fmt::format(
      "Each metric of this run across {} runs under {} on profile {}, one point per commit; change "
      "points by E-Divisive means with a t test (max p 0.001).",
      history.runs, fmt::format("{}", fmt::join(paths, ", ")), record.profile.id);
}

void write_run_report_html(const RunRecord& record, const BaselineSet* baselines,
                           const std::string& path) {
  ReportReference reference;
  reference.baselines = baselines;
  reference.description = baselines != nullptr
                              ? describe_baselines(record.run.info.baselines, *baselines)
                              : "nothing (the run had no --baselines)";
  RunReport report = build_run_report(record, reference);
  // Compared with the recent past: that past's history belongs on the page.
  if (!record.run.info.baseline_history.empty()) {
    try {
      add_history(report, record, {record.run.info.baseline_history}, "");
    } catch (const Error& error) {
      report.notes.push_back(fmt::format("no history: {}", error.what()));
    }
  }
  write_file_atomically(path, render_html_report(report));
}

void finish_run_folder_with_report(const RunFolder& folder, const RunRecord& record,
                                   const BaselineSet* baselines,
                                   std::vector<std::string>& output_errors) {
  try {
    write_run_report_html(record, baselines, folder.path + "/report.html");
  } catch (const std::exception& error) {
    output_errors.push_back(fmt::format("report.html: {}", error.what()));
  }
  try {
    finish_run_folder(folder, ledger_entry(record.run));
  } catch (const OutputError& error) {
    output_errors.push_back(error.what());
  }
}

}  // namespace mlregress::internal
