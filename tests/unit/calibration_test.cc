// Calibrated bands: the analysis of K repeats (calibrate_metrics), the baseline file it changes
// (plan_calibration, through promote's plan) and the TOML of a calibration. Planted, and caught
// here: a band of 1 × sd, or k × sd without the widening to the largest deviation
// (BandIsTheToleranceFactorTimesTheSdWidenedToTheLargestDeviation); a band written for values
// identical in every repeat (IdenticalValuesAreOfferedExactNotABand); a band wider than the value
// written silently (ABandWiderThanTheValueIsReportedNotWritten); promote dropping the calibrated
// band (PromoteMovesTheValueAndKeepsTheCalibratedBand); the calibration lost or edited by hand
// in the file (ACalibrationSurvivesAWriteAndARead, AHandEditedCalibrationIsRefused).
#include "baselines/calibration.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "baseline_edits.h"
#include "baselines/baseline_toml.h"
#include "builders.h"
#include "statistics/tolerance_interval.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;

RunRecord repeat_recording(int index, const std::vector<MetricRecord>& metrics) {
  TestResult test =
      finished_test("Training", "Fast.Training", "suites/fast/training_test.cc", metrics);
  test.config_hash = "c0ffee";
  RunRecord record = run_record("runs/calibration/r" + std::to_string(index),
                                "r" + std::to_string(index), "cpu-aaaa", "cpu-avx2-bbbb", test);
  record.profile.cpu = "Some CPU";
  record.profile.threads = 4;
  return record;
}

// K repeats: `loss` takes the given values, `steps` is 500 every time.
std::vector<RunRecord> repeats_of(const std::vector<double>& losses,
                                  TolerancePolicy loss_policy = Band{.rtol = 0.5}) {
  std::vector<RunRecord> repeats;
  for (std::size_t i = 0; i < losses.size(); ++i) {
    repeats.push_back(repeat_recording(
        static_cast<int>(i),
        {{"loss", losses[i], LowerIsBetter, loss_policy}, {"steps", 500.0, LowerIsBetter, {}}}));
  }
  return repeats;
}

const MetricCalibration& named(const std::vector<MetricCalibration>& all, const std::string& m) {
  for (const MetricCalibration& c : all) {
    if (c.metric == m) return c;
  }
  throw std::runtime_error("no metric " + m);
}

// 20 values: mean 1.0, one of them far out (a deviation larger than k × sd could be without it).
std::vector<double> twenty_values() {
  std::vector<double> v;
  for (int i = 0; i < 20; ++i) v.push_back(1.0 + 0.001 * ((i % 5) - 2));
  return v;
}

TEST(Calibration, BandIsTheToleranceFactorTimesTheSdWidenedToTheLargestDeviation) {
  const std::vector<double> values = twenty_values();
  const auto metrics = calibrate_metrics(repeats_of(values), CalibrationRule{});
  const MetricCalibration& loss = named(metrics, "loss");
  ASSERT_EQ(loss.outcome, CalibrationOutcome::kBand) << loss.note;
  double mean = 0.0, ss = 0.0;
  for (double v : values) mean += v / values.size();
  for (double v : values) ss += (v - mean) * (v - mean);
  const double sd = std::sqrt(ss / (values.size() - 1));
  EXPECT_NEAR(loss.calibration.mean, 1.0, 1e-15);
  EXPECT_NEAR(loss.calibration.sd, sd, 1e-15);
  EXPECT_NEAR(loss.calibration.max_deviation, 0.002, 1e-15);
  EXPECT_NEAR(loss.calibration.k, 4.174746440, 1e-8);  // exact two-sided 99%/99%, n = 20
  EXPECT_EQ(loss.calibration.repeats, 20);
  EXPECT_EQ(loss.calibration.environment, "cpu-aaaa");
  EXPECT_THAT(loss.calibration.rule, HasSubstr("normal tolerance interval 99%/99%"));
  EXPECT_DOUBLE_EQ(loss.half_width, loss.calibration.k * loss.calibration.sd);

  // Heavy tails: one value 4.3 sd out of 20 (the most 20 values allow) is wider than k × sd.
  std::vector<double> outlier(19, 1.0);
  outlier.push_back(2.0);
  const MetricCalibration wide =
      named(calibrate_metrics(repeats_of(outlier), CalibrationRule{}), "loss");
  EXPECT_GT(wide.calibration.max_deviation, wide.calibration.k * wide.calibration.sd);
  EXPECT_DOUBLE_EQ(wide.half_width, wide.calibration.max_deviation);
  EXPECT_THAT(wide.note, HasSubstr("widened to the largest observed deviation"));
}

TEST(Calibration, IdenticalValuesAreOfferedExactNotABand) {
  const auto metrics = calibrate_metrics(repeats_of(twenty_values()), CalibrationRule{});
  const MetricCalibration& steps = named(metrics, "steps");
  EXPECT_EQ(steps.outcome, CalibrationOutcome::kIdentical);
  EXPECT_THAT(steps.note, HasSubstr("identical in 20 of 20: offered Exact"));
  EXPECT_EQ(steps.calibration.mean, 500.0);
  EXPECT_EQ(steps.calibration.max_deviation, 0.0);
  EXPECT_FALSE(writes_band(steps, /*allow_wide=*/true));
}

TEST(Calibration, ABandWiderThanTheValueIsReportedNotWritten) {
  const auto metrics = calibrate_metrics(repeats_of({0.001, -0.002, 0.0015, 0.0}), {});
  const MetricCalibration& loss = named(metrics, "loss");
  EXPECT_EQ(loss.outcome, CalibrationOutcome::kNoiseDominates);
  EXPECT_THAT(loss.note, HasSubstr("noise dominates"));
  EXPECT_FALSE(writes_band(loss, false));
  EXPECT_TRUE(writes_band(loss, true));
}

TEST(Calibration, AnExactMetricThatVariesIsNotRepeatableAndMissingValuesAreNotCalibrated) {
  const auto exact = calibrate_metrics(repeats_of({1.0, 1.0000001, 1.0}, Exact{}), {});
  EXPECT_EQ(named(exact, "loss").outcome, CalibrationOutcome::kNotRepeatable);

  std::vector<RunRecord> repeats = repeats_of({1.0, 1.1, 1.2});
  repeats[1].run.tests[0].metrics.erase(repeats[1].run.tests[0].metrics.begin());
  EXPECT_THAT(named(calibrate_metrics(repeats, {}), "loss").note,
              HasSubstr("not recorded in repeat 2"));
  repeats = repeats_of({1.0, std::numeric_limits<double>::quiet_NaN(), 1.2});
  EXPECT_EQ(named(calibrate_metrics(repeats, {}), "loss").outcome, CalibrationOutcome::kIncomplete);
  repeats = repeats_of({1.0, 1.1});
  repeats[0].run.tests[0].metrics[0].policy = Timing{.cv = 0.1};
  EXPECT_EQ(named(calibrate_metrics(repeats, {}), "loss").outcome,
            CalibrationOutcome::kNotCalibrated);
}

// Across kernel paths: the six paths of `calibrate --across-kernels`, named in the rule.
CalibrationRule across_kernels() {
  CalibrationRule rule;
  rule.kernel_paths = {
      "natural", "ATen default kernels (ATEN_CPU_CAPABILITY=default)", "c", "d", "e", "f"};
  return rule;
}

TEST(Calibration, AcrossKernelPathsABandIsWrittenAndTheRuleNamesThePaths) {
  // Rounding-sized moves: a band, the same rule as for repeats.
  const auto metrics = calibrate_metrics(
      repeats_of({0.5, 0.5000001, 0.4999998, 0.5, 0.5000003, 0.5}), across_kernels());
  const MetricCalibration& loss = named(metrics, "loss");
  ASSERT_EQ(loss.outcome, CalibrationOutcome::kBand) << loss.note;
  EXPECT_THAT(loss.calibration.rule,
              HasSubstr("across 6 kernel paths (natural; ATen default kernels "
                        "(ATEN_CPU_CAPABILITY=default); c; d; e; f): normal tolerance interval"));
  EXPECT_EQ(loss.calibration.repeats, 6);
  EXPECT_TRUE(writes_band(loss, false));
  EXPECT_THAT(named(metrics, "steps").note, HasSubstr("identical in 6 of 6 kernel paths"));
}

TEST(Calibration, AcrossKernelPathsAValueThatMovesByMoreThanItsSizeIsChaoticAndNeverWritten) {
  // A p-value: 0.01 on the natural path, 0.9 on another (mean 0.175, largest |Δ| 0.725).
  const auto metrics =
      calibrate_metrics(repeats_of({0.01, 0.02, 0.03, 0.04, 0.9, 0.05}), across_kernels());
  const MetricCalibration& p = named(metrics, "loss");
  EXPECT_EQ(p.outcome, CalibrationOutcome::kChaotic);
  EXPECT_THAT(p.note, HasSubstr("chaotic: it moves by more than its own size across the 6 kernel "
                                "paths"));
  EXPECT_THAT(p.note, HasSubstr("record the decision it supports"));
  EXPECT_FALSE(writes_band(p, /*allow_wide=*/true));
  // The same values as repeats of one path are noise that dominates, not chaos: --allow-wide-bands
  // still writes them.
  const MetricCalibration& repeated =
      named(calibrate_metrics(repeats_of({0.01, 0.02, 0.03, 0.04, 0.9, 0.05}), {}), "loss");
  EXPECT_EQ(repeated.outcome, CalibrationOutcome::kNoiseDominates);
}

TEST(Calibration, AcrossKernelPathsAnExactNumericsValueMayDifferButAPortableOneMayNot) {
  // A float recorded Exact{} is stored per numerics profile: each path is a profile of its own.
  const auto numerics = calibrate_metrics(repeats_of({1.0, 1.0000001, 1.0, 1.0, 1.0, 1.0}, Exact{}),
                                          across_kernels());
  EXPECT_EQ(named(numerics, "loss").outcome, CalibrationOutcome::kNotCalibrated);
  EXPECT_THAT(named(numerics, "loss").note, HasSubstr("Exact per numerics profile"));
  // A whole number recorded Exact{} is stored portable and gated everywhere: it must not move.
  const auto portable = calibrate_metrics(
      repeats_of({103.0, 100.0, 103.0, 103.0, 100.0, 103.0}, Exact{}), across_kernels());
  EXPECT_EQ(named(portable, "loss").outcome, CalibrationOutcome::kNotRepeatable);
  EXPECT_THAT(named(portable, "loss").note, HasSubstr("Exact{.scope = Scope::Numerics}"));
  const auto declared = calibrate_metrics(
      repeats_of({103.0, 100.0, 103.0, 103.0, 100.0, 103.0}, Exact{.scope = Scope::Numerics}),
      across_kernels());
  EXPECT_EQ(named(declared, "loss").outcome, CalibrationOutcome::kNotCalibrated);
  // must_equal without a policy is compared exactly, but promote stores its one value for every
  // machine: a float of that kind that moves between paths fails on another CPU (planted: such a
  // value taken for a numerics one and left alone).
  std::vector<RunRecord> no_policy =
      repeats_of({0.5, 0.5000001, 0.5, 0.5, 0.5, 0.5}, TolerancePolicy{});
  for (RunRecord& r : no_policy) r.run.tests[0].metrics[0].direction = MustEqual;
  EXPECT_EQ(named(calibrate_metrics(no_policy, across_kernels()), "loss").outcome,
            CalibrationOutcome::kNotRepeatable);
}

PromotionRequest request_now() {
  return promotion_request("calibrate: 20 repeats", "2026-12-04T00:00:00Z");
}

TEST(Calibration, WritesTheBandAtTheMeanWithItsProvenanceAndNothingElse) {
  const std::vector<RunRecord> repeats = repeats_of(twenty_values());
  const auto metrics = calibrate_metrics(repeats, {});
  // The baseline held the loss at 1.5 with a hand-set band, and the steps at 400.
  BaselineFile before;
  before.provenance.version = 3;
  before.tests["Training"].config_hash = "c0ffee";
  before.tests["Training"].metrics["loss"] = {
      .direction = LowerIsBetter, .policy = Band{.rtol = 0.5}, .value = 1.5};
  before.tests["Training"].metrics["steps"] = {.direction = LowerIsBetter, .value = 400.0};
  const BaselineSet existing = BaselineSet::from_files({{"b/suite/training_test.toml", before}});
  const std::vector<PlannedFile> plan =
      plan_calibration(repeats, metrics, "calibration-X", false, existing, request_now());
  ASSERT_EQ(plan.size(), 1u);
  const BaselineFile& after = plan[0].after;
  EXPECT_EQ(after.provenance.version, 4);
  EXPECT_EQ(after.provenance.source_run, "calibration-X");
  EXPECT_EQ(after.environments.count("cpu-aaaa"), 1u);
  const BaselineMetric& loss = after.tests.at("Training").metrics.at("loss");
  const MetricCalibration& c = named(metrics, "loss");
  EXPECT_EQ(loss.policy, TolerancePolicy(Band{.rtol = 0.0, .atol = c.half_width}));
  EXPECT_EQ(loss.value, c.calibration.mean);
  ASSERT_TRUE(loss.calibration.has_value());
  EXPECT_EQ(*loss.calibration, c.calibration);
  ASSERT_EQ(loss.history.size(), 1u);
  EXPECT_EQ(loss.history[0].old_value, 1.5);
  EXPECT_EQ(loss.history[0].version, 4);
  // The identical metric is offered, not written: its baseline stays as it was.
  EXPECT_EQ(after.tests.at("Training").metrics.at("steps"),
            before.tests.at("Training").metrics.at("steps"));
  // Written and read back, the calibration is the same.
  EXPECT_EQ(parse_baseline(render_baseline(after), "after.toml"), after);
}

TEST(Calibration, PromoteMovesTheValueAndKeepsTheCalibratedBand) {
  const std::vector<RunRecord> repeats = repeats_of(twenty_values());
  const auto metrics = calibrate_metrics(repeats, {});
  const std::vector<PlannedFile> calibrated = plan_calibration(
      repeats, metrics, "calibration-X", false, BaselineSet::from_files({}), request_now());
  ASSERT_EQ(calibrated.size(), 1u);
  const BaselineSet existing = BaselineSet::from_files({{calibrated[0].path, calibrated[0].after}});
  RunRecord later = repeat_recording(99, {{"loss", 0.9, LowerIsBetter, Band{.rtol = 0.5}}});
  PromotionRequest request = request_now();
  request.reason = "new optimizer";
  const std::vector<PlannedFile> promoted = plan_promotion(later, existing, request);
  ASSERT_EQ(promoted.size(), 1u);
  const BaselineMetric& loss = promoted[0].after.tests.at("Training").metrics.at("loss");
  EXPECT_EQ(loss.value, 0.9);
  EXPECT_EQ(loss.policy, calibrated[0].after.tests.at("Training").metrics.at("loss").policy);
  EXPECT_TRUE(loss.calibration.has_value());
  // A test that now records the metric Exact drops the band and its calibration.
  later.run.tests[0].metrics[0].policy = Exact{};
  const BaselineMetric exact =
      plan_promotion(later, existing, request)[0].after.tests.at("Training").metrics.at("loss");
  EXPECT_FALSE(exact.calibration.has_value());
}

BaselineFile calibrated_file() {
  BaselineFile file;
  file.provenance.version = 1;
  file.provenance.environment = "cpu-aaaa";
  file.environments["cpu-aaaa"] = EnvironmentProfile{.id = "cpu-aaaa", .threads = 4};
  Calibration c{.repeats = 20,
                .mean = 0.25,
                .sd = 0.001,
                .max_deviation = 0.0021,
                .rule = "normal tolerance interval 99%/99% (two-sided, exact k)",
                .k = 4.174746440,
                .environment = "cpu-aaaa"};
  BaselineMetric m{.direction = LowerIsBetter,
                   .policy = Band{.rtol = 0.0, .atol = calibrated_half_width(c)},
                   .value = 0.25,
                   .calibration = c};
  file.tests["Training"].metrics["loss"] = m;
  return file;
}

TEST(Calibration, ACalibrationSurvivesAWriteAndARead) {
  const BaselineFile file = calibrated_file();
  const std::string text = render_baseline(file);
  EXPECT_THAT(text, HasSubstr("calibration = { repeats = 20, mean = 0.25, sd = 0.001, "
                              "max_deviation = 0.0021, k = 4.17474644, rule = \"normal tolerance "
                              "interval 99%/99% (two-sided, exact k)\", environment = "
                              "\"cpu-aaaa\" }\n"));
  EXPECT_EQ(parse_baseline(text, "calibrated.toml"), file);
}

TEST(Calibration, AHandEditedCalibrationIsRefused) {
  const std::string text = render_baseline(calibrated_file());
  const auto refused = [&](const std::string& from, const std::string& to) {
    return error_of(replace(text, from, to), "edited.toml", "(accepted)");
  };
  // Each edit, from one text to another, and what its refusal says.
  struct Edit {
    std::string from, to, error;
  };
  const std::vector<Edit> edits = {
      {"atol = ", "atol = 1", "is not the one its calibration gives"},
      {"rtol = 0.0", "rtol = 0.1", "is not the one its calibration"},
      {"sd = 0.001", "sd = 0.002", "is not the one its calibration"},
      {"repeats = 20", "repeats = 1", "calibration.repeats must be between 2"},
      {"sd = 0.001", "sd = -0.001", "must be a finite number >= 0"},
      {"environment = \"cpu-aaaa\" }", "environment = \"cpu-zzzz\" }",
       "names 'cpu-zzzz', which [environments] does not define"},
      {"repeats = 20,", "repeats = 20, spread = 1.0,", "unknown key 'spread'"},
      {", rule = \"normal tolerance interval 99%/99% (two-sided, exact k)\"", "",
       "is missing 'rule'"},
      {"policy = \"band\"", "policy = \"default\"", "'rtol' only applies to policy \"band\""}};
  for (const Edit& edit : edits) {
    EXPECT_THAT(refused(edit.from, edit.to), HasSubstr(edit.error))
        << edit.from << " -> " << edit.to;
  }
  // The file and line of the mistake, as for every other key.
  EXPECT_THAT(refused("atol = ", "atol = 1"), HasSubstr("edited.toml:"));
}

}  // namespace
}  // namespace mlregress::internal
