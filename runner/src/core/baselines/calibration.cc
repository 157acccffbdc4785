#include "baselines/calibration.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "baselines/baseline_toml.h"
#include "statistics/moments.h"
#include "statistics/tolerance_interval.h"
#include "support/atomic_file.h"
#include "support/number_format.h"

namespace mlregress::internal {
namespace {

const MetricRecord* find_metric(const RunRecord& record, const std::string& test,
                                const std::string& metric) {
  for (const TestResult& t : record.run.tests) {
    if (t.name != test) continue;
    for (const MetricRecord& m : t.metrics) {
      if (m.name == metric) return &m;
    }
  }
  return nullptr;
}

// A metric the test wants equal bit for bit: an Exact policy, or must_equal without a policy.
bool wants_exact(const MetricRecord& metric) {
  return std::holds_alternative<Exact>(metric.policy) ||
         (std::holds_alternative<std::monostate>(metric.policy) &&
          metric.direction == Direction::MustEqual);
}

std::string percent(double rate) { return fmt::format("{:g}%", 100.0 * rate); }

// Whether promote stores the values as one for every machine: every policy but Exact does, and
// Exact does where promotion's scope rule makes them portable (stored_scope).
bool stored_portable(const MetricRecord& metric, const std::vector<double>& values) {
  const Exact* exact = std::get_if<Exact>(&metric.policy);
  if (exact == nullptr) return true;
  return std::all_of(values.begin(), values.end(),
                     [&](double v) { return stored_scope(*exact, v) == Scope::Portable; });
}

// What calibrate does with a metric the test wants exact whose values differ between the runs
// (`across_kernels`: runs on different kernel paths, not repeats on one).
void decide_varying_exact(MetricCalibration& c, const MetricRecord& first, bool across_kernels) {
  const int k_repeats = c.calibration.repeats;
  if (across_kernels) {
    // A numerics value is stored per profile, and each kernel path is a profile of its own: it
    // may differ between them. A portable one (a whole number) is gated on every machine.
    if (stored_portable(first, c.values)) {
      c.outcome = CalibrationOutcome::kNotRepeatable;
      c.note = fmt::format(
          "recorded Exact and stored portable (gated on every machine), yet it differs between "
          "the {} kernel paths: record it with Exact{{.scope = Scope::Numerics}}",
          k_repeats);
    } else {
      c.outcome = CalibrationOutcome::kNotCalibrated;
      c.note =
          "Exact per numerics profile: each kernel path is a profile of its own, so it may "
          "differ between them; not calibrated";
    }
    return;
  }
  c.outcome = CalibrationOutcome::kNotRepeatable;
  c.note = fmt::format(
      "recorded Exact, yet it varies across the {} repeats: Exact cannot hold on this machine; "
      "record it with a Band and calibrate again",
      k_repeats);
}

// Decides what calibrate does with a metric whose calibration over the runs is filled in
// (`identical`: the same bits in every run).
void decide_outcome(MetricCalibration& c, const MetricRecord& first, const CalibrationRule& rule,
                    bool identical) {
  const Calibration& cal = c.calibration;
  const int k_repeats = cal.repeats;
  const bool across_kernels = !rule.kernel_paths.empty();
  const std::string runs = across_kernels ? " kernel paths" : "";
  if (identical) {
    c.outcome = CalibrationOutcome::kIdentical;
    c.note =
        wants_exact(first)
            ? fmt::format("identical in {} of {}{}: Exact holds here", k_repeats, k_repeats, runs)
            : fmt::format("identical in {} of {}{}: offered Exact (record it with Exact{{}})",
                          k_repeats, k_repeats, runs);
    return;
  }
  if (wants_exact(first)) {
    decide_varying_exact(c, first, across_kernels);
    return;
  }
  if (across_kernels && cal.max_deviation > std::fabs(cal.mean)) {
    c.outcome = CalibrationOutcome::kChaotic;
    c.note = fmt::format(
        "chaotic: it moves by more than its own size across the {} kernel paths (largest |Δ| {} "
        "against |mean| {}); no band is written: record the decision it supports (a 0/1 outcome "
        "with Exact{{}}) or a quantity that is stable",
        k_repeats, format_value(cal.max_deviation), format_value(std::fabs(cal.mean)));
    return;
  }
  if (c.half_width > std::fabs(cal.mean)) {
    c.outcome = CalibrationOutcome::kNoiseDominates;
    c.note = fmt::format(
        "noise dominates: the band ±{} is wider than the value itself ({}); not written (reduce "
        "the noise, e.g. --threads 1, or gate another metric; --allow-wide-bands writes it)",
        format_value(c.half_width), format_value(cal.mean));
    return;
  }
  c.outcome = CalibrationOutcome::kBand;
  if (cal.max_deviation > cal.k * cal.sd) {
    c.note = "widened to the largest observed deviation (k × sd would exclude it)";
  }
}

MetricCalibration calibrate_one(const std::vector<RunRecord>& repeats, const TestResult& test,
                                const MetricRecord& first, const CalibrationRule& rule, double k) {
  MetricCalibration c;
  c.test = test.name;
  c.metric = first.name;
  const int k_repeats = static_cast<int>(repeats.size());
  if (std::holds_alternative<Timing>(first.policy) ||
      std::holds_alternative<Margin>(first.policy) ||
      std::holds_alternative<FailureRate>(first.policy)) {
    c.outcome = CalibrationOutcome::kNotCalibrated;
    c.note = std::holds_alternative<Timing>(first.policy)
                 ? "a timing: promote stores its spread (cv) per machine"
                 : "not a single value: its baseline is stored by promote";
    return c;
  }
  for (std::size_t i = 0; i < repeats.size(); ++i) {
    const MetricRecord* m = find_metric(repeats[i], test.name, first.name);
    if (m == nullptr) {
      c.outcome = CalibrationOutcome::kIncomplete;
      c.note = fmt::format("not recorded in repeat {} ({}): not calibrated", i + 1,
                           repeats[i].run.info.run_id);
      return c;
    }
    if (!std::isfinite(m->value)) {
      c.outcome = CalibrationOutcome::kIncomplete;
      c.note = fmt::format(
          "{} in repeat {} ({}): a value that is not finite is never a pass; "
          "not calibrated",
          format_value(m->value), i + 1, repeats[i].run.info.run_id);
      return c;
    }
    c.values.push_back(m->value);
  }
  const bool identical = std::all_of(c.values.begin(), c.values.end(),
                                     [&](double v) { return v == c.values.front(); });
  Calibration& cal = c.calibration;
  cal.repeats = k_repeats;
  // Identical values: their own value, without the rounding a sum of K of them adds.
  cal.mean = identical ? c.values.front() : stats::mean(c.values);
  cal.sd = identical ? 0.0 : std::sqrt(stats::sample_variance(c.values));
  for (double v : c.values)
    cal.max_deviation = std::max(cal.max_deviation, std::fabs(v - cal.mean));
  cal.rule = calibration_rule_text(rule);
  cal.k = k;
  cal.environment = repeats.front().profile.id;
  c.half_width = calibrated_half_width(cal);

  decide_outcome(c, first, rule, identical);
  return c;
}

}  // namespace

std::string calibration_rule_text(const CalibrationRule& rule) {
  const std::string band = fmt::format(
      "normal tolerance interval {}/{} (two-sided, exact k); band = max(k × sd, max_deviation)",
      percent(rule.coverage), percent(rule.confidence));
  if (rule.kernel_paths.empty()) return band;
  return fmt::format("across {} kernel paths ({}): {}", rule.kernel_paths.size(),
                     fmt::join(rule.kernel_paths, "; "), band);
}

std::vector<MetricCalibration> calibrate_metrics(const std::vector<RunRecord>& repeats,
                                                 const CalibrationRule& rule) {
  std::vector<MetricCalibration> out;
  if (repeats.size() < 2) return out;
  // The same n for every metric: one factor.
  const double k =
      stats::tolerance_factor(static_cast<int>(repeats.size()), rule.coverage, rule.confidence);
  for (const TestResult& test : repeats.front().run.tests) {
    for (const MetricRecord& metric : test.metrics) {
      out.push_back(calibrate_one(repeats, test, metric, rule, k));
    }
  }
  return out;
}

bool writes_band(const MetricCalibration& metric, bool allow_wide) {
  return metric.outcome == CalibrationOutcome::kBand ||
         (allow_wide && metric.outcome == CalibrationOutcome::kNoiseDominates);
}

std::vector<PlannedFile> plan_calibration(const std::vector<RunRecord>& repeats,
                                          const std::vector<MetricCalibration>& metrics,
                                          const std::string& calibration_id, bool allow_wide,
                                          const BaselineSet& existing,
                                          const PromotionRequest& request) {
  if (repeats.empty()) return {};
  // The first repeat, holding only the metrics whose band is written, each at its mean.
  RunRecord calibrated = repeats.front();
  calibrated.run.info.run_id = calibration_id;
  PromotionRequest with_bands = request;
  for (TestResult& test : calibrated.run.tests) {
    std::vector<MetricRecord> kept;
    for (const MetricRecord& m : test.metrics) {
      for (const MetricCalibration& c : metrics) {
        if (c.test != test.name || c.metric != m.name || !writes_band(c, allow_wide)) continue;
        MetricRecord at_mean = m;
        at_mean.value = c.calibration.mean;
        kept.push_back(at_mean);
        with_bands.calibrations[{c.test, c.metric}] = c.calibration;
      }
    }
    test.metrics = std::move(kept);
    // Nothing to write for this test: leave its baseline (config hash, datasets) as it is.
    if (test.metrics.empty()) test.status = TestStatus::kSkipped;
  }
  return plan_promotion(calibrated, existing, with_bands);
}

std::vector<PlannedFile> write_calibration(const std::vector<RunRecord>& repeats,
                                           const std::vector<MetricCalibration>& metrics,
                                           const std::string& calibration_id, bool allow_wide,
                                           const PromotionRequest& request) {
  if (repeats.empty()) return {};
  const std::string& binary = repeats.front().run.info.binary;
  const BaselineFolderLock lock(request.baselines_dir, binary);
  remove_stale_temporaries(baseline_folder(request.baselines_dir, binary));
  const BaselineSet existing =
      BaselineSet::load(request.baselines_dir, binary, /*allow_missing=*/true);
  std::vector<PlannedFile> plan =
      plan_calibration(repeats, metrics, calibration_id, allow_wide, existing, request);
  for (const PlannedFile& file : plan) {
    write_file_atomically(file.path, render_baseline(file.after), Durability::kSurvivesPowerLoss);
  }
  return plan;
}

}  // namespace mlregress::internal
