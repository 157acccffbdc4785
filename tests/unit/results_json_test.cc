// results.json is written by the run and read back by promote, compare, --ab and the reports:
// one to_json/from_json pair. What is written must read back to the same record, and a damaged
// file must be refused with the field that is wrong (a run-folder error, never an internal one).
#include "storage/results_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "builders.h"
#include "record/json_fields.h"
#include "support/errors.h"
#include "tests/support/temp_dir.h"

namespace mlregress::internal {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

// A run with every kind of content results.json holds.
RunResult full_run() {
  RunResult run;
  run.info.run_id = "20261202T134512Z-a1b2c3d";
  run.info.binary = "my_model_tests";
  run.info.started_at = "2026-12-02T13:45:12.000Z";
  run.info.finished_at = "2026-12-02T13:45:20.500Z";
  run.info.duration_s = 8.5;
  run.info.tiers = {"fast", "full"};
  run.info.filter = "Cnn*";
  run.info.seed = 7;
  run.info.threads = 2;
  run.info.baselines = "baselines";
  run.info.environment_profile = "cpu-1a2b3c4d";
  run.exit_code = 2;
  run.runner_errors = {"a worker said something odd"};

  TestResult plain =
      ended_test("CnnOverfits", Tier::Fast, TestStatus::kRegressed, 1.25, "0123456789abcdef");
  plain.file = "suites/fast/cnn_test.cc";
  plain.line = 12;
  plain.started_at = "2026-12-02T13:45:13.000Z";
  plain.seed = 7;
  plain.threads = 2;
  plain.failures = {{"cnn_test.cc", 20, "Expected equality", true}};
  plain.metrics = {
      {"final_loss", 0.031, LowerIsBetter, Band{.rtol = 0.5, .atol = 1e-3}, {}, {}},
      {"diverged", std::numeric_limits<double>::quiet_NaN(), HigherIsBetter, {}, {}, {}}};
  MetricComparison worse;
  worse.metric = "final_loss";
  worse.verdict = Verdict::kRegression;
  worse.observed = 0.031;
  worse.baseline = 0.0002;
  worse.delta = 0.0308;
  worse.relative_change = 154.0;
  worse.tolerance = "band ±0.0011";
  worse.direction_change = DirectionChange{LowerIsBetter, HigherIsBetter};
  worse.cause = Cause{.cause = CauseClass::kDataOrder,
                      .rule = "the data-order hash of 'train' differs from the baseline's",
                      .alternatives = {{CauseClass::kOperatorCount, "'ops' moved"},
                                       {CauseClass::kUnknown, "several rules fired"}}};
  MetricComparison fresh;
  fresh.metric = "diverged";
  fresh.verdict = Verdict::kNew;
  fresh.observed = std::numeric_limits<double>::quiet_NaN();
  fresh.note = "no baseline yet";
  // A gated curve's comparison follows the metrics'.
  const MetricComparison curve_gate{.metric = "val_loss",
                                    .verdict = Verdict::kRegression,
                                    .observed = 0.4,
                                    .baseline = 0.3,
                                    .delta = 0.1,
                                    .tolerance = "curve ±0.1 rel ±0.01 abs, 3 steps",
                                    .note = "left the band on the worse side at step 6",
                                    .kind = MetricKind::kCurve,
                                    .curve = CurveExcursion{.compared_steps = 100,
                                                            .first_exit_step = 6,
                                                            .largest_excess = 0.8,
                                                            .largest_excess_step = 7}};
  plain.comparisons = {worse, fresh, curve_gate};
  RecordedCurve curve;
  curve.curve.name = "loss";
  curve.csv_file = "curves/CnnOverfits.loss.csv";
  curve.points = 501;
  RecordedCurve gated;
  gated.curve.name = "val_loss";
  gated.curve.policy = CurvePolicy{.rtol = 0.1, .atol = 0.01};
  gated.csv_file = "curves/CnnOverfits.val_loss.csv";
  gated.points = 100;
  plain.curves = {curve, gated};
  plain.baseline_file = "baselines/my_model_tests/cnn_test.toml";
  plain.baseline_version = 3;
  plain.baseline_commit = "a1b2c3d";
  plain.baseline_promoted_at = "2026-11-30T10:00:00Z";
  plain.environment_note = "framework same · build same · CPU same · threads same · config same";
  run.tests.push_back(plain);

  TestResult seeded;
  seeded.name = "XorSeeds";
  seeded.full_name = "Full.XorSeeds";
  seeded.tier = Tier::Full;
  seeded.file = "suites/full/xor_test.cc";
  seeded.line = 30;
  seeded.status = TestStatus::kPassed;
  seeded.seeded = true;
  seeded.seed_runs_planned = 3;
  seeded.finished = true;
  seeded.metrics = {
      {"accuracy", 0.87, HigherIsBetter, Margin{.delta = 0.005}, {0.86, 0.87, 0.88}, {0, 1, 2}}};
  for (std::uint64_t s = 0; s < 3; ++s) {
    SeedRun r;
    r.seed = s;
    r.status = s == 2 ? TestStatus::kFailed : TestStatus::kPassed;
    r.duration_s = 0.5;
    r.metrics = {{"accuracy", 0.86 + 0.01 * static_cast<double>(s), HigherIsBetter, {}, {}, {}}};
    if (s == 2) r.failures = {{"", 0, "seed 2: planted", false}};
    seeded.seed_runs.push_back(r);
  }
  MetricComparison gate;
  gate.metric = "accuracy";
  gate.kind = MetricKind::kDistribution;
  gate.verdict = Verdict::kPass;
  gate.observed = 0.87;
  gate.baseline = 0.871;
  gate.delta = -0.001;
  gate.tolerance = "margin 0.005";
  gate.note = "the 95% CI rules out a drop beyond the margin";
  DistributionAnalysis a;
  a.metric = "accuracy";
  a.direction = HigherIsBetter;
  a.margin = 0.005;
  a.design = GateDesign::kPaired;
  a.n_candidate = a.n_baseline = 3;
  a.candidate_mean = 0.87;
  a.baseline_mean = 0.871;
  a.candidate_sd = a.baseline_sd = 0.01;
  a.difference = -0.001;
  a.ci_lower = -0.004;
  a.ci_upper = 0.002;
  a.p_worse = 0.2;
  a.p_better = 0.8;
  a.hedges_g = -0.1;
  a.probability_of_improvement = 0.45;
  set_mean_intervals(a);
  gate.distribution = a;
  gate.decision = GateDecision{Verdict::kPass, 0.4, 1.0, gate.note};
  seeded.comparisons = {gate};
  run.tests.push_back(seeded);
  return run;
}

TEST(ResultsJson, WhatIsWrittenReadsBackToTheSameRecord) {
  const json written = full_run();
  const RunResult read = written.get<RunResult>();
  EXPECT_EQ(json(read), written);

  ASSERT_EQ(read.tests.size(), 2u);
  const TestResult& plain = read.tests[0];
  EXPECT_EQ(plain.status, TestStatus::kRegressed);
  EXPECT_TRUE(std::isnan(plain.metrics[1].value));
  ASSERT_EQ(plain.comparisons.size(), 3u);
  ASSERT_TRUE(plain.comparisons[2].curve.has_value());
  EXPECT_EQ(plain.comparisons[2].curve->first_exit_step, 6);
  EXPECT_EQ(plain.comparisons[2].curve->largest_excess_step, 7);
  EXPECT_EQ(written["tests"][0]["curves"][1]["excursion"]["first_exit_step"], 6);
  ASSERT_TRUE(plain.comparisons[0].direction_change.has_value());
  EXPECT_EQ(plain.comparisons[0].direction_change->baseline, HigherIsBetter);
  EXPECT_EQ(plain.comparisons[0].direction_change->test, LowerIsBetter);
  ASSERT_TRUE(plain.comparisons[0].cause.has_value());
  EXPECT_EQ(plain.comparisons[0].cause->cause, CauseClass::kDataOrder);
  EXPECT_EQ(plain.comparisons[0].cause->alternatives[1].cause, CauseClass::kUnknown);
  EXPECT_EQ(written["tests"][0]["metrics"][0]["cause"]["class"], "data_order");
  EXPECT_FALSE(plain.comparisons[1].cause.has_value());
  EXPECT_EQ(plain.curves[0].points, 501u);
  const TestResult& seeded = read.tests[1];
  EXPECT_TRUE(seeded.seeded);
  EXPECT_EQ(seeded.metrics[0].sample_seeds, (std::vector<std::uint64_t>{0, 1, 2}));
  ASSERT_TRUE(seeded.comparisons[0].decision.has_value());
  EXPECT_EQ(seeded.comparisons[0].decision->p_worse_adjusted, 0.4);
  EXPECT_EQ(seeded.comparisons[0].distribution->design, GateDesign::kPaired);
  EXPECT_EQ(seeded.seed_runs[2].status, TestStatus::kFailed);
  EXPECT_EQ(read.info.finished_at, "2026-12-02T13:45:20.500Z");
}

TEST(ResultsJson, EachArmsMeanIntervalIsWrittenAndDerivedForOlderRuns) {
  json written = full_run();
  json& distribution = written["tests"][1]["metrics"][0]["distribution"];
  ASSERT_TRUE(distribution.is_object()) << written["tests"][1].dump(1);
  // sd 0.01 over 3 seeds: sem 0.01/√3 = 0.005774, t(0.975, 2) = 4.302652729749464.
  EXPECT_NEAR(distribution.at("baseline_sem").get<double>(), 0.01 / std::sqrt(3.0), 1e-15);
  const double half = 4.302652729749464 * 0.01 / std::sqrt(3.0);
  EXPECT_NEAR(distribution.at("candidate_mean_ci")[0].get<double>(), 0.87 - half, 1e-9);
  EXPECT_NEAR(distribution.at("baseline_mean_ci")[1].get<double>(), 0.871 + half, 1e-9);
  // A results.json written before these fields existed: derived from n, mean and sd on reading.
  for (const char* key : {"baseline_sem", "candidate_sem", "baseline_mean_ci", "candidate_mean_ci"})
    distribution.erase(key);
  const RunResult read = written.get<RunResult>();
  const DistributionAnalysis& a = *read.tests[1].comparisons[0].distribution;
  EXPECT_NEAR(a.candidate_sem, 0.01 / std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(a.baseline_mean_low, 0.871 - half, 1e-9);
}

TEST(ResultsJson, AnIncompleteRunHasNoEnd) {
  RunResult run = full_run();
  run.info.finished_at.clear();
  const json written = run;
  EXPECT_EQ(written.at("run").at("complete"), false);
  EXPECT_FALSE(written.at("run").contains("exit_code"));
  EXPECT_EQ(written.get<RunResult>().info.finished_at, "");
}

// The error a damaged document gives: its path and its problem.
std::string error_of(const json& document) {
  try {
    (void)document.get<RunResult>();
  } catch (const JsonFieldError& error) {
    return error.what();
  }
  return "";
}

TEST(ResultsJson, AMalformedValueNamesItsField) {
  json document = full_run();
  document["tests"][0]["metrics"][0]["value"] = "abc";
  EXPECT_THAT(error_of(document), HasSubstr("tests[0].metrics[0].value: expected a number"));

  document = full_run();
  document["tests"][1]["status"] = "exploded";
  EXPECT_THAT(error_of(document), HasSubstr("tests[1].status: unknown value \"exploded\""));

  document = full_run();
  document["tests"][1]["metrics"][0]["distribution"]["ci95"] = json::array({0.1});
  EXPECT_THAT(error_of(document), HasSubstr("tests[1].metrics[0].distribution.ci95"));

  document = full_run();
  document["tests"][0].erase("config_hash");
  EXPECT_THAT(error_of(document), HasSubstr("tests[0].config_hash: missing"));

  document = full_run();
  document["run"]["seed"] = -1;
  EXPECT_THAT(error_of(document), HasSubstr("run.seed"));

  document = full_run();
  document["tests"][1]["seed_runs"][0]["metrics"]["accuracy"] = true;
  EXPECT_THAT(error_of(document), HasSubstr("tests[1].seed_runs[0].metrics.accuracy"));

  document = full_run();
  document["schema_version"] = 2;
  EXPECT_THAT(error_of(document), HasSubstr("schema_version: 2 is newer"));
}

TEST(ReadResultsJson, ADamagedFileIsARunFolderErrorNamingTheFileAndTheField) {
  const test_support::TempDir dir;
  const std::string path = dir.path() + "/results.json";
  json document = full_run();
  document["tests"][0]["metrics"][0]["direction"] = "sideways";
  std::ofstream(path) << document.dump();
  try {
    (void)read_results_json(path);
    FAIL() << "a damaged results.json was read";
  } catch (const RunFolderError& error) {
    EXPECT_THAT(error.what(),
                HasSubstr(path + ": tests[0].metrics[0].direction: unknown value \"sideways\""));
    EXPECT_EQ(error.exit_code(), ExitCode::kRunFolderError);
  }
  document = full_run();
  document["tests"][0]["metrics"][0]["cause"]["class"] = "weather";
  std::ofstream(path) << document.dump();
  try {
    (void)read_results_json(path);
    FAIL() << "a cause of an unknown class was read";
  } catch (const RunFolderError& error) {
    EXPECT_THAT(error.what(), HasSubstr("tests[0].metrics[0].cause.class: unknown value"));
  }
  std::ofstream(path) << "{ not json";
  EXPECT_THROW((void)read_results_json(path), RunFolderError);
  EXPECT_THROW((void)read_results_json(dir.path() + "/missing.json"), RunFolderError);
}

}  // namespace
}  // namespace mlregress::internal
