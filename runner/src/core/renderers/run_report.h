// What a report shows, gathered once from a run folder and what it was compared with, for the
// HTML, Markdown and OpenMetrics renderers. Building it decides nothing: the verdicts are the
// run's own (results.json), or those the report command had BaselineGate make before, exactly
// as `run` and `compare` make them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "baselines/baseline_store.h"
#include "mlregress/checks/curve_comparison.h"
#include "renderers/svg_plot.h"
#include "storage/run_record.h"

namespace mlregress::internal {

/// Where a candidate curve first leaves the reference's band: ±kCurveReportRtol relative
/// (plus kCurveReportAtol) for kCurveReportSteps steps in a row, on either side. A report's
/// view, not a gate: it shows where to start looking.
inline constexpr double kCurveReportRtol = 0.10;
inline constexpr double kCurveReportAtol = 1e-6;
inline constexpr std::size_t kCurveReportSteps = 3;

/// What the run is compared with.
struct ReportReference {
  std::string description;         ///< "baselines (baselines/, v3)", "run 20261202T…-a1b2c3d"
  const RunRecord* run = nullptr;  ///< --against: its curves and environment are drawn
  const BaselineSet* baselines = nullptr;  ///< stored per-seed samples and environments
  /// State, per seeded metric compared with stored samples, the simulated power of the gate
  /// against them (TestSection::gate_power). About a second per sequential metric, so only the
  /// `report` command's HTML asks for it; the report a run writes as it ends does not.
  bool gate_power = false;
};

/// One plot: a curve, or one curve per seed of a seeded test (and variant).
struct CurvePlot {
  std::string name;  ///< "loss", "loss[half_width]"
  std::vector<PlotLine> lines;
  std::optional<checks::CurveComparison> divergence;  ///< with a single reference curve only
  /// A curve recorded with a CurvePolicy: the gate's own comparison with the reference curve
  /// (the baseline's, drawn from baselines/<binary>/curves/, or the --against run's). The
  /// report's ±10% view above gives way to it.
  std::optional<MetricComparison> gate;
  std::string problem;  ///< a curve file that could not be read
};

struct TestSection {
  TestResult test;
  /// 0: failed, crashed, timed out or regressed; 1: INCONCLUSIVE, NOT_COMPARABLE or UNGATED;
  /// 2: IMPROVED or NEW; 3: passed. Sections are ordered by it, then as the run ran them.
  int rank = 3;
  std::vector<CurvePlot> curves;
  std::map<std::string, std::vector<double>> baseline_samples;  ///< metric → stored samples
  /// metric → the power of the gate against those samples, for a candidate on fresh seeds
  /// (stored_samples_power.h): what a PASS here could have missed.
  std::map<std::string, std::string> gate_power;
  std::string regression_text;  ///< what the console printed after the test
  std::string ablation_text;    ///< seeded tests with variants
};

struct EnvironmentRow {
  std::string field;
  std::string reference;  ///< "—" when the reference does not say
  std::string candidate;
  bool differs() const { return reference != "—" && reference != candidate; }
};

struct ReportCounts {
  std::map<Verdict, std::size_t> metrics;  ///< compared metrics per verdict
  std::size_t tests = 0, passed = 0, failed = 0, skipped = 0, crashed = 0, regressed = 0,
              timed_out = 0;
};

struct RunReport {
  std::string path;
  RunInfo info;
  /// "FAILED", "REGRESSION", "CONSTRAINT_VIOLATED" (a test's own constraint broke), "INCOMPLETE",
  /// "NOT_GATED" (--strict-env and a metric not gated) or "PASSED"
  std::string headline;
  /// not_gated_summary(): "7 metrics not gated on this machine ..."; empty when all were gated
  std::string not_gated_summary;
  std::string commit;  ///< from environment.json
  bool dirty = false;
  std::string reference;  ///< ReportReference::description
  bool compared = false;  ///< some metric has a verdict
  ReportCounts counts;
  std::vector<TestSection> sections;
  std::string reference_label;  ///< the environment table's reference column
  std::vector<EnvironmentRow> environment;
  std::vector<std::string> runner_errors;
  std::vector<std::string> notes;  ///< what could not be shown, and why
  /// The run's metrics across earlier runs (report --history, run --baseline-history): one
  /// HTML <figure> per series (renderers/history_figure.h), and where they came from.
  std::vector<std::string> history_figures;
  std::string history_source;
};

RunReport build_run_report(const RunRecord& record, const ReportReference& reference);

/// "2 regressions, 1 inconclusive, 41 passed" over the compared metrics, or over the tests when
/// nothing was compared.
std::string count_summary(const RunReport& report);

/// "Fingerprints: dataset eval sha256:ab12cd34ef56… · checkpoint pretrained sha256:…": what the
/// test recorded with record_dataset, record_data_order and record_checkpoint, in one line;
/// empty when it recorded none.
std::string fingerprints_line(const TestResult& test);

/// "Properties: dtype float32 · sequence_length 16": what the test recorded with record_property,
/// by key, in one line; empty when it recorded none.
std::string properties_line(const TestResult& test);

}  // namespace mlregress::internal
