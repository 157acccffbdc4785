#include "baselines/graduation.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

#include "baselines/baseline_toml.h"
#include "support/atomic_file.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

// The run folders of the window, newest first, each holding only test.metric: calibrate's rule
// then measures that one metric, and promotion touches nothing else of the test.
std::vector<RunRecord> window_records(const std::vector<CapabilityObservation>& window,
                                      const std::string& test, const std::string& metric) {
  std::vector<RunRecord> records;
  for (auto it = window.rbegin(); it != window.rend(); ++it) {
    RunRecord record = read_run_record(it->folder);
    std::erase_if(record.run.tests, [&](const TestResult& t) { return t.name != test; });
    for (TestResult& t : record.run.tests) {
      std::erase_if(t.metrics, [&](const MetricRecord& m) { return m.name != metric; });
      t.comparisons.clear();
      t.curves.clear();
      t.predictions.clear();
    }
    records.push_back(std::move(record));
  }
  return records;
}

// The band calibrate's rule gives the window's values; a band of 0 when they are identical (any
// worse value is then a regression), and the wide one when the spread exceeds the value: the
// history, not a repeat on one machine, is what the guard must hold.
MetricCalibration guard_band(const std::vector<RunRecord>& records, const std::string& name) {
  std::vector<MetricCalibration> calibrated = calibrate_metrics(records, CalibrationRule{});
  if (calibrated.size() != 1) {
    throw PromotionRefused(
        fmt::format("graduate refuses {}: its runs hold no single value of it", name));
  }
  MetricCalibration c = calibrated.front();
  if (c.outcome == CalibrationOutcome::kIdentical) {
    c.outcome = CalibrationOutcome::kBand;
    c.half_width = 0.0;
  } else if (c.outcome == CalibrationOutcome::kNoiseDominates) {
    c.outcome = CalibrationOutcome::kBand;
  }
  if (c.outcome != CalibrationOutcome::kBand) {
    throw PromotionRefused(fmt::format("graduate refuses {}: {}", name, c.note));
  }
  return c;
}

Graduation graduation_record(const GraduationRequest& request, const GraduationResult& result) {
  Graduation g;
  g.graduated_at = request.now;
  g.reason = request.reason;
  g.target = target_text(result.target);
  g.met = result.evidence.met;
  g.runs = result.evidence.runs;
  g.lower_bound = result.evidence.lower;
  g.threshold = result.evidence.threshold;
  const auto [low, high] =
      std::minmax_element(result.calibration.values.begin(), result.calibration.values.end());
  g.min = *low;
  g.max = *high;
  for (const CapabilityObservation& o : result.window) {
    g.source_runs.push_back(o.run_id);
    g.commits.push_back(o.commit);
  }
  return g;
}

// "graduate: no run under runs/ recorded a capability X.m; the capabilities there: A.b, C.d".
std::string unknown_capability(const GraduationRequest& request, const CapabilityHistory& history) {
  std::vector<std::string> known;
  for (const auto& [key, observations] : history) known.push_back(key.first + "." + key.second);
  return fmt::format(
      "graduate: no run of {} under {} recorded a capability {}.{} (record_target); {}",
      request.binary, request.runs_folder, request.test, request.metric,
      known.empty() ? std::string("none recorded any")
                    : fmt::format("the capabilities there: {}", fmt::join(known, ", ")));
}

}  // namespace

GraduationResult graduate_capability(const GraduationRequest& request) {
  const std::string name = request.test + "." + request.metric;
  const CapabilityHistory history = read_capability_history(request.runs_folder, request.binary);
  const auto found = history.find({request.test, request.metric});
  if (found == history.end() || found->second.empty()) {
    throw ConfigError(unknown_capability(request, history));
  }
  // The evidence is about the configuration the latest run measured, one run per commit and
  // seed: runs of other parameters are another experiment, a rerun of one seed is not new data.
  const std::vector<CapabilityObservation> observed =
      independent_observations(found->second, found->second.back().configuration);
  GraduationResult result;
  if (!observed.empty()) result.target = observed.back().target;
  try {
    result.evidence = judge_graduation(capability_outcomes(observed, result.target), request.last,
                                       request.min_lower_bound);
  } catch (const std::invalid_argument& error) {
    throw ConfigError(fmt::format("graduate: {}", error.what()));
  }
  if (!result.evidence.graduates) {
    throw PromotionRefused(fmt::format("graduate refuses {} ({} independent run{} under {}): {}",
                                       name, observed.size(), observed.size() == 1 ? "" : "s",
                                       request.runs_folder, graduation_refusal(result.evidence)));
  }
  result.window.assign(observed.end() - result.evidence.runs, observed.end());
  const std::vector<RunRecord> records =
      window_records(result.window, request.test, request.metric);
  result.calibration = guard_band(records, name);

  const BaselineFolderLock lock(request.baselines_dir, request.binary);
  remove_stale_temporaries(baseline_folder(request.baselines_dir, request.binary));
  const BaselineSet existing =
      BaselineSet::load(request.baselines_dir, request.binary, /*allow_missing=*/true);
  const PromotionRequest promotion{.baselines_dir = request.baselines_dir,
                                   .reason = request.reason,
                                   .force = request.force,
                                   .now = request.now,
                                   .graduating = true};
  result.written = plan_calibration(records, {result.calibration}, records.front().run.info.run_id,
                                    /*allow_wide=*/true, existing, promotion);
  for (PlannedFile& file : result.written) {
    BaselineMetric& guard = file.after.tests.at(request.test).metrics.at(request.metric);
    guard.graduation = graduation_record(request, result);
    write_file_atomically(file.path, render_baseline(file.after), Durability::kSurvivesPowerLoss);
  }
  return result;
}

std::string demote_guard(const DemotionRequest& request) {
  const std::string name = request.test + "." + request.metric;
  const BaselineFolderLock lock(request.baselines_dir, request.binary);
  remove_stale_temporaries(baseline_folder(request.baselines_dir, request.binary));
  const BaselineSet existing =
      BaselineSet::load(request.baselines_dir, request.binary, /*allow_missing=*/false);
  const LoadedBaselineFile* loaded = existing.find(request.test);
  const BaselineMetric* guard = nullptr;
  if (loaded != nullptr) {
    const BaselineTest& stored = loaded->file.tests.at(request.test);
    if (const auto it = stored.metrics.find(request.metric); it != stored.metrics.end())
      guard = &it->second;
  }
  if (guard == nullptr || !guard->graduation) {
    throw ConfigError(fmt::format(
        "demote: the baselines under {} hold no guard graduated from capability {} (graduate "
        "writes one; a metric promoted as a guard is changed in the test, not demoted)",
        request.baselines_dir, name));
  }
  BaselineFile after = loaded->file;
  BaselineTest& test = after.tests.at(request.test);
  test.demotions.push_back(
      {request.metric, request.now, request.reason, guard->graduation->graduated_at});
  test.metrics.erase(request.metric);
  Provenance& p = after.provenance;
  p.version += 1;
  p.promoted_at = request.now;
  p.reason = fmt::format("demote {}: {}", name, request.reason);
  drop_unused_environments(after);
  write_file_atomically(loaded->path, render_baseline(after), Durability::kSurvivesPowerLoss);
  return loaded->path;
}

}  // namespace mlregress::internal
