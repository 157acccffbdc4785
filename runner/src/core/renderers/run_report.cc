#include "renderers/run_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "baselines/stored_samples_power.h"
#include "comparison/hypothesis_family.h"
#include "environment/git_info.h"
#include "observers/ablation_table.h"
#include "observers/not_gated_summary.h"
#include "observers/regression_report.h"
#include "record/json_text.h"
#include "storage/curve_csv.h"
#include "storage/seed_ledger.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

bool has_verdict(const TestResult& test, Verdict verdict) {
  return std::any_of(test.comparisons.begin(), test.comparisons.end(),
                     [verdict](const MetricComparison& c) { return c.verdict == verdict; });
}

int rank_of(const TestResult& test) {
  if (is_test_failure(test.status) || test.status == TestStatus::kRegressed ||
      has_verdict(test, Verdict::kRegression) || !test.constraints_violated.empty())
    return 0;
  if (has_verdict(test, Verdict::kInconclusive) || has_verdict(test, Verdict::kNotComparable) ||
      has_verdict(test, Verdict::kUngated))
    return 1;
  if (has_verdict(test, Verdict::kImproved) || has_verdict(test, Verdict::kNew)) return 2;
  return 3;
}

const TestResult* find_test(const RunRecord* record, const std::string& name) {
  if (record == nullptr) return nullptr;
  for (const TestResult& test : record->run.tests) {
    if (test.name == name) return &test;
  }
  return nullptr;
}

// "loss.seed3" -> {"loss", "seed 3"}; a curve of a plain test is its own group.
std::pair<std::string, std::string> curve_group(const std::string& name) {
  static const std::regex seeded(R"((.*)\.seed([0-9]+))");
  std::smatch match;
  if (std::regex_match(name, match, seeded)) return {match[1], "seed " + match[2].str()};
  return {name, name};
}

PlotLine load_line(const std::string& folder, const RecordedCurve& curve, std::string label,
                   bool reference) {
  const CurveRecord values = read_curve_csv(folder + "/" + curve.csv_file);
  PlotLine line{std::move(label), {}, values.values, reference};
  line.x.assign(values.steps.begin(), values.steps.end());
  return line;
}

// The gate's comparison of the gated curve `name` (comparisons of kind kCurve follow the
// metrics' and predictions' in test.comparisons, in the order of the gated curves).
std::optional<MetricComparison> gated_comparison(const TestResult& test, const std::string& name) {
  for (const MetricComparison& c : test.comparisons) {
    if (c.kind == MetricKind::kCurve && c.metric == name) return c;
  }
  return std::nullopt;
}

CurvePlot& plot_named(std::vector<CurvePlot>& plots, const std::string& name) {
  for (CurvePlot& plot : plots) {
    if (plot.name == name) return plot;
  }
  plots.push_back(CurvePlot{name, {}, std::nullopt, std::nullopt, ""});
  return plots.back();
}

// A curve file that cannot be read is said on its plot rather than stopping the report.
void add_line(CurvePlot& plot, const std::string& folder, const RecordedCurve& curve,
              std::string label, bool reference) {
  try {
    plot.lines.push_back(load_line(folder, curve, std::move(label), reference));
  } catch (const RunFolderError& error) {
    plot.problem += (plot.problem.empty() ? "" : "; ") + std::string(error.what());
  }
}

void add_run_curves(std::vector<CurvePlot>& plots, const TestResult& owner,
                    const std::string& owner_folder, bool is_reference) {
  for (const RecordedCurve& curve : owner.curves) {
    const auto names = curve_group(curve.curve.name);
    const std::string& group = names.first;
    const std::string& label = names.second;
    if (is_reference && std::none_of(plots.begin(), plots.end(),
                                     [&](const CurvePlot& p) { return p.name == group; }))
      continue;  // a curve the candidate no longer records has nothing to be drawn under
    add_line(plot_named(plots, group), owner_folder, curve,
             is_reference ? "reference " + label : label, is_reference);
  }
}

// The reference curves of the test's gated curves that the baseline keeps in `folder`.
void add_baseline_reference_curves(std::vector<CurvePlot>& plots, const TestResult& test,
                                   const std::string& folder) {
  for (const RecordedCurve& curve : test.curves) {
    if (!curve.curve.policy) continue;
    std::error_code error;
    if (!std::filesystem::exists(folder + "/" + curve.csv_file, error)) continue;
    add_line(plot_named(plots, curve.curve.name), folder, curve, "baseline reference", true);
  }
}

// Where one candidate line leaves its one reference line's band, for the marker.
void mark_divergence(CurvePlot& plot) {
  const PlotLine* candidate = nullptr;
  const PlotLine* base = nullptr;
  std::size_t candidates = 0, references = 0;
  for (const PlotLine& line : plot.lines) {
    (line.reference ? references : candidates) += 1;
    (line.reference ? base : candidate) = &line;
  }
  if (candidates == 1 && references == 1) {
    checks::CurveComparisonOptions options;
    options.direction = Direction::MustEqual;
    options.consecutive_steps = kCurveReportSteps;
    plot.divergence = checks::compare_curve(
        candidate->y, base->y, Band{.rtol = kCurveReportRtol, .atol = kCurveReportAtol}, options);
  }
}

// `baseline_references`: the folder of the baseline's reference files (empty: none), whose
// curves/ hold the reference curves of gated curves; drawn when no reference run is.
std::vector<CurvePlot> curve_plots(const TestResult& test, const std::string& folder,
                                   const TestResult* reference, const std::string& reference_folder,
                                   const std::string& baseline_references) {
  std::vector<CurvePlot> plots;
  add_run_curves(plots, test, folder, false);
  if (reference != nullptr) {
    add_run_curves(plots, *reference, reference_folder, true);
  } else if (!baseline_references.empty()) {
    add_baseline_reference_curves(plots, test, baseline_references);
  }
  for (const RecordedCurve& curve : test.curves) {
    if (curve.curve.policy)
      plot_named(plots, curve.curve.name).gate = gated_comparison(test, curve.curve.name);
  }
  for (CurvePlot& plot : plots) mark_divergence(plot);
  return plots;
}

std::string text_at(const nlohmann::json& json, const char* pointer) {
  const nlohmann::json::json_pointer at(pointer);
  if (!json.contains(at)) return "—";
  const nlohmann::json& value = json.at(at);
  return value.is_string() ? value.get<std::string>() : json_text(value);
}

// The rows of the environment table, from an environment.json document.
std::vector<std::pair<std::string, std::string>> environment_fields(const nlohmann::json& env) {
  const GitInfo git = recorded_git(env);
  std::vector<std::pair<std::string, std::string>> fields = {
      {"framework", text_at(env, "/framework/name") + " " + text_at(env, "/framework/version")},
      {"build", text_at(env, "/framework/build")},
      {"CUDA devices", text_at(env, "/framework/cuda/device_count")},
      {"CPU", text_at(env, "/cpu/model")},
      {"logical cores", text_at(env, "/cpu/logical_cores")},
      {"architecture", text_at(env, "/os/machine")},
      {"OS", text_at(env, "/os/name") + " " + text_at(env, "/os/release")},
      {"compiler", text_at(env, "/compiler/id")},
      {"build type", text_at(env, "/compiler/build_type")},
      {"intra-op threads", text_at(env, "/run/intra_op_threads")},
      {"seed", text_at(env, "/run/seed")},
      {"git commit", git.commit.substr(0, 12) + (git.dirty ? " (dirty)" : "")},
  };
  // Only where a CUDA device was used: CPU runs keep the table they had.
  if (env.contains(nlohmann::json::json_pointer("/framework/cuda/devices/0/name"))) {
    fields.insert(fields.begin() + 3,
                  {"GPU", text_at(env, "/framework/cuda/devices/0/name") + " (compute " +
                              text_at(env, "/framework/cuda/devices/0/compute_capability") + ")"});
  }
  return fields;
}

// What a baseline file's provenance says, in the same rows (the rest it does not record).
std::map<std::string, std::string> baseline_fields(const BaselineSet& baselines) {
  std::map<std::string, std::set<std::string>> values;
  for (const LoadedBaselineFile& loaded : baselines.files()) {
    const BaselineFile& file = loaded.file;
    if (auto it = file.environments.find(file.provenance.environment);
        it != file.environments.end()) {
      const EnvironmentProfile& p = it->second;
      values["framework"].insert(p.framework);
      values["build"].insert(p.build);
      values["CPU"].insert(p.cpu);
      values["architecture"].insert(p.machine);
      values["intra-op threads"].insert(std::to_string(p.threads));
      if (!p.gpu.empty()) values["GPU"].insert(p.gpu);
    }
    values["git commit"].insert(file.provenance.git_commit.substr(0, 12) +
                                (file.provenance.git_dirty ? " (dirty)" : ""));
  }
  std::map<std::string, std::string> fields;
  for (const auto& [field, set] : values) fields[field] = fmt::format("{}", fmt::join(set, " / "));
  return fields;
}

std::vector<EnvironmentRow> environment_rows(const RunRecord& record,
                                             const ReportReference& reference,
                                             const std::vector<TestSection>& sections) {
  std::map<std::string, std::string> reference_values;
  if (reference.run != nullptr) {
    for (auto& [field, value] : environment_fields(reference.run->run.info.environment))
      reference_values[field] = value;
  } else if (reference.baselines != nullptr) {
    reference_values = baseline_fields(*reference.baselines);
  }
  std::vector<EnvironmentRow> rows;
  for (auto& [field, value] : environment_fields(record.run.info.environment)) {
    const auto it = reference_values.find(field);
    rows.push_back({field, it != reference_values.end() ? it->second : "—", value});
  }
  std::size_t compared = 0, changed = 0;
  for (const TestSection& section : sections) {
    if (section.test.environment_note.empty()) continue;
    ++compared;
    changed += section.test.environment_note.find("config changed") != std::string::npos;
  }
  if (compared > 0) {
    rows.push_back({"config (per test)", fmt::format("{} tests", compared),
                    changed == 0
                        ? fmt::format("{} tests, same config", compared)
                        : fmt::format("{} of {} tests changed config", changed, compared)});
  }
  return rows;
}

// Adds one test and its verdicts to the run's counts.
void count_test(ReportCounts& counts, const TestResult& test) {
  ++counts.tests;
  switch (test.status) {
    case TestStatus::kPassed:
      ++counts.passed;
      break;
    case TestStatus::kFailed:
      ++counts.failed;
      break;
    case TestStatus::kSkipped:
      ++counts.skipped;
      break;
    case TestStatus::kCrashed:
      ++counts.crashed;
      break;
    case TestStatus::kRegressed:
      ++counts.regressed;
      break;
    case TestStatus::kTimedOut:
      ++counts.timed_out;
      break;
  }
  for (const MetricComparison& c : test.comparisons) ++counts.metrics[c.verdict];
}

// The baseline's per-seed samples of the test's metrics, for the plots, and (with gate_power)
// what the stored samples let the gate detect, in a family of `family` hypotheses.
void add_stored_samples(TestSection& section, const TestResult& test,
                        const ReportReference& reference, int family) {
  if (reference.baselines == nullptr) return;
  const LoadedBaselineFile* file = reference.baselines->find(test.name);
  if (file == nullptr) return;
  const auto t = file->file.tests.find(test.name);
  if (t == file->file.tests.end()) return;
  for (const auto& [metric, stored] : t->second.metrics) {
    if (!stored.samples.empty()) section.baseline_samples[metric] = stored.samples;
  }
  for (const MetricRecord& metric : test.metrics) {
    const auto stored = t->second.metrics.find(metric.name);
    if (!reference.gate_power || !test.seeded || metric.samples.empty() ||
        stored == t->second.metrics.end() || stored->second.samples.empty() ||
        std::holds_alternative<FailureRate>(metric.policy)) {
      continue;
    }
    section.gate_power[metric.name] =
        stored_samples_power_note(metric, stored->second, test, family, &t->second);
  }
}

// The run's one-word result: a failure first, then a regression, an unfinished run, values left
// ungated under --strict-env.
std::string headline_of(const ReportCounts& counts, const RunResult& run) {
  if (counts.failed + counts.crashed + counts.timed_out > 0) return "FAILED";
  if (counts.regressed > 0 || counts.metrics.count(Verdict::kRegression) > 0) return "REGRESSION";
  for (const TestResult& test : run.tests) {
    if (!test.constraints_violated.empty()) return "CONSTRAINT_VIOLATED";
  }
  if (run.info.finished_at.empty()) return "INCOMPLETE";
  if (run.info.strict_env && count_not_gated(run) > 0) return "NOT_GATED";
  return "PASSED";
}

// The run's seed ledger, if it has one; damaged lines and an unreadable file become notes.
SeedLedger load_seed_ledger(const std::string& run_folder, std::vector<std::string>& notes) {
  SeedLedger seed_ledger;
  const std::string seeds_path = run_folder + "/seeds.jsonl";
  if (std::filesystem::exists(seeds_path)) {
    try {
      seed_ledger = read_seed_ledger(seeds_path);
      notes.insert(notes.end(), seed_ledger.damaged.begin(), seed_ledger.damaged.end());
    } catch (const RunFolderError& error) {
      notes.emplace_back(error.what());
    }
  }
  return seed_ledger;
}

// The family the gate's looks settle at, counted as the gate counts it for this run.
int gate_family(const RunRecord& record, const ReportReference& reference) {
  int family = 1;
  if (reference.baselines != nullptr && reference.gate_power) {
    std::map<std::string, std::string> tests;
    for (const TestResult& test : record.run.tests) tests[test.name] = test.config_hash;
    family = planned_hypotheses(*reference.baselines, tests);
  }
  return family;
}

TestSection test_section(const TestResult& test, const RunRecord& record,
                         const ReportReference& reference, int family,
                         const SeedLedger& seed_ledger) {
  TestSection section;
  section.test = test;
  section.rank = rank_of(test);
  section.curves =
      curve_plots(test, record.path, find_test(reference.run, test.name),
                  reference.run != nullptr ? reference.run->path : "",
                  reference.baselines != nullptr ? reference.baselines->references_folder() : "");
  section.regression_text = format_regression_report(record.run.info.run_id, test);
  add_stored_samples(section, test, reference, family);
  if (test.seeded) section.ablation_text = render_ablation_tables(seed_ledger.lines, test.name);
  return section;
}

std::string reference_label_of(const ReportReference& reference, const RunInfo& info) {
  return reference.run != nullptr ? "reference run"
         : reference.baselines != nullptr && !info.baseline_history.empty()
             ? fmt::format("rolling baseline ({} runs)", info.baseline_runs.size())
         : reference.baselines != nullptr ? "baseline (as promoted)"
                                          : "reference";
}

}  // namespace

RunReport build_run_report(const RunRecord& record, const ReportReference& reference) {
  RunReport report;
  report.path = record.path;
  report.info = record.run.info;
  report.reference = reference.description;
  report.runner_errors = record.run.runner_errors;
  const GitInfo git = recorded_git(record.run.info.environment);
  report.commit = git.commit;
  report.dirty = git.dirty;

  const SeedLedger seed_ledger = load_seed_ledger(record.path, report.notes);
  for (const HeldOutTally& tally : record.run.held_out) {
    if (const std::string warning = held_out_warning(tally); !warning.empty()) {
      report.notes.push_back("WARNING: " + warning);
    }
  }
  const int family = gate_family(record, reference);
  ReportCounts& counts = report.counts;
  for (const TestResult& test : record.run.tests) {
    count_test(counts, test);
    report.sections.push_back(test_section(test, record, reference, family, seed_ledger));
  }
  report.compared = !counts.metrics.empty();
  std::stable_sort(report.sections.begin(), report.sections.end(),
                   [](const TestSection& a, const TestSection& b) { return a.rank < b.rank; });

  report.headline = headline_of(counts, record.run);
  report.reference_label = reference_label_of(reference, record.run.info);
  report.environment = environment_rows(record, reference, report.sections);
  report.not_gated_summary = not_gated_summary(record.run);
  return report;
}

std::string count_summary(const RunReport& report) {
  std::vector<std::string> parts;
  auto add = [&parts](std::size_t n, std::string_view one, std::string_view many) {
    if (n > 0) parts.push_back(fmt::format("{} {}", n, n == 1 ? one : many));
  };
  const ReportCounts& c = report.counts;
  add(c.failed + c.crashed + c.timed_out, "test failed", "tests failed");
  if (report.compared) {
    auto n = [&c](Verdict v) {
      const auto it = c.metrics.find(v);
      return it == c.metrics.end() ? std::size_t{0} : it->second;
    };
    add(n(Verdict::kRegression), "regression", "regressions");
    add(n(Verdict::kInconclusive), "inconclusive", "inconclusive");
    add(n(Verdict::kUngated), "ungated", "ungated");
    add(n(Verdict::kNotComparable), "not comparable", "not comparable");
    add(n(Verdict::kImproved), "improved", "improved");
    add(n(Verdict::kNew), "new", "new");
    add(n(Verdict::kPass), "passed", "passed");
  } else {
    add(c.regressed, "regressed", "regressed");
    add(c.passed, "test passed", "tests passed");
  }
  add(c.skipped, "skipped", "skipped");
  if (parts.empty()) return "no tests";
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string fingerprints_line(const TestResult& test) {
  if (test.datasets.empty()) return "";
  std::vector<std::string> parts;
  for (const RecordedDataset& d : test.datasets) {
    parts.push_back(
        fmt::format("{} {} {}…", fingerprint_kind_noun(d.kind), d.name, d.sha256.substr(0, 19)));
  }
  return fmt::format("Fingerprints: {}", fmt::join(parts, " · "));
}

std::string properties_line(const TestResult& test) {
  if (test.properties.empty()) return "";
  std::vector<std::string> parts;
  for (const auto& [key, value] : test.properties) parts.push_back(key + " " + value);
  return fmt::format("Properties: {}", fmt::join(parts, " · "));
}

}  // namespace mlregress::internal
