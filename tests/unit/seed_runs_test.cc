// A seeded test's seeds each run in their own process; what they recorded is summed up when the
// last one ends. These tests plant the mistake of losing what a seed recorded about its data:
// without the fingerprints a seeded test measured on other data would be judged against a
// baseline from the old data, though baselines.md promises NOT_COMPARABLE.
#include "execution/seed_runs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "baselines/baseline_store.h"
#include "comparison/baseline_gate.h"

namespace mlregress::internal {
namespace {

constexpr const char* kTrainData = "sha256:1111111111111111111111111111111111111111";
constexpr const char* kOtherData = "sha256:2222222222222222222222222222222222222222";

struct SeededPlan {
  PlannedTest test;
  SeededPlan() {
    test.variants = {PlannedVariant{"", {}, "cfg"}};
    test.seeds = {0, 1, 2};
  }
  SeedJob job(std::uint64_t seed) const { return SeedJob{&test, &test.variants[0], seed}; }
};

std::vector<TestEvent> seed_events(double loss, const std::string& data_sha,
                                   const std::string& order_sha) {
  MetricRecord metric;
  metric.name = "loss";
  metric.value = loss;
  metric.policy = Margin{.delta = 0.05};
  return {MetricRecorded{metric},
          DatasetRecorded{"train", data_sha, 1024, FingerprintKind::kDataset},
          DatasetRecorded{"train", order_sha, 0, FingerprintKind::kDataOrder},
          TestEnded{"SeededStudy", true, false, 0.1}};
}

TestResult seeded_result(const SeededPlan& plan, const std::vector<std::uint64_t>& finish_order,
                         const std::vector<std::string>& data_by_seed) {
  TestResult test;
  test.name = "SeededStudy";
  test.full_name = "Full.SeededStudy";
  test.seeded = true;
  for (std::uint64_t seed : finish_order) {
    std::vector<CurveRecord> curves;
    insert_in_plan_order(
        test.seed_runs,
        seed_run_from_events(plan.job(seed),
                             seed_events(0.5 + 0.01 * static_cast<double>(seed), data_by_seed[seed],
                                         "sha256:order" + std::to_string(seed)),
                             "", 0.1, curves));
  }
  return test;
}

TEST(SeedRuns, ASeedsDatasetFingerprintsReachTheTest) {
  const SeededPlan plan;
  TestResult test = seeded_result(plan, {0, 1, 2}, {kTrainData, kTrainData, kTrainData});
  ASSERT_EQ(summarize_seed_runs(test), TestStatus::kPassed);
  ASSERT_EQ(test.datasets.size(), 2u) << "record_dataset and record_data_order of the seeds";
  EXPECT_EQ(test.datasets[0].name, "train");
  EXPECT_EQ(test.datasets[0].sha256, kTrainData);
  EXPECT_EQ(test.datasets[0].kind, FingerprintKind::kDataset);
  EXPECT_EQ(test.datasets[1].kind, FingerprintKind::kDataOrder);
}

TEST(SeedRuns, TheFirstSeedInPlanOrderGivesTheFingerprintWhateverOrderSeedsFinish) {
  const SeededPlan plan;
  // Seed 0 measured other data than seeds 1 and 2, and finished last: --jobs must not decide
  // which fingerprint the test keeps.
  TestResult test = seeded_result(plan, {2, 1, 0}, {kOtherData, kTrainData, kTrainData});
  summarize_seed_runs(test);
  ASSERT_EQ(test.datasets.size(), 2u);
  EXPECT_EQ(test.datasets[0].sha256, kOtherData);
  EXPECT_EQ(test.datasets[1].sha256, "sha256:order0");
}

TEST(SeedRuns, ASeededTestOnOtherDataIsNotComparableWithItsBaseline) {
  BaselineFile file;
  BaselineTest& promoted = file.tests["SeededStudy"];
  promoted.datasets["train"] = kTrainData;
  BaselineMetric& loss = promoted.metrics["loss"];
  loss.policy = Margin{.delta = 0.05};
  loss.samples = {0.50, 0.51, 0.52};
  loss.seeds = {0, 1, 2};
  const BaselineSet baselines = BaselineSet::from_files({{"study_test.toml", file}});
  const BaselineGate gate(baselines, EnvironmentProfile{}, 0.01);

  const SeededPlan plan;
  TestResult same = seeded_result(plan, {0, 1, 2}, {kTrainData, kTrainData, kTrainData});
  summarize_seed_runs(same);
  gate.compare_test(same);
  ASSERT_EQ(same.comparisons.size(), 1u);
  EXPECT_NE(same.comparisons[0].verdict, Verdict::kNotComparable) << same.comparisons[0].note;

  TestResult other = seeded_result(plan, {0, 1, 2}, {kOtherData, kOtherData, kOtherData});
  summarize_seed_runs(other);
  gate.compare_test(other);
  ASSERT_EQ(other.comparisons.size(), 1u);
  EXPECT_EQ(other.comparisons[0].verdict, Verdict::kNotComparable);
  EXPECT_THAT(other.comparisons[0].note, ::testing::HasSubstr("the dataset 'train' changed"));
}

// A covariate names another metric the seed records. A name it does not record (a typo) fails
// the seed with a message naming the metric, the covariate and the names it did record; planted:
// the correct name passes.
TEST(SeedRuns, AnUnknownCovariateFailsTheSeedNamingTheMetricAndTheKnownNames) {
  const SeededPlan plan;
  const auto events = [](const std::string& covariate) {
    MetricRecord difficulty{"difficulty", 0.4, Direction::HigherIsBetter, Margin{.delta = 0.02}};
    MetricRecord accuracy{"accuracy", 0.87, Direction::HigherIsBetter,
                          Margin{.delta = 0.01, .covariate = covariate}};
    return std::vector<TestEvent>{MetricRecorded{difficulty}, MetricRecorded{accuracy},
                                  TestEnded{"SeededStudy", true, false, 0.1}};
  };
  std::vector<CurveRecord> curves;
  const SeedRun good = seed_run_from_events(plan.job(0), events("difficulty"), "", 0.1, curves);
  EXPECT_EQ(good.status, TestStatus::kPassed);
  EXPECT_TRUE(good.failures.empty());
  const SeedRun typo = seed_run_from_events(plan.job(0), events("dificulty"), "", 0.1, curves);
  EXPECT_EQ(typo.status, TestStatus::kFailed);
  ASSERT_EQ(typo.failures.size(), 1u);
  EXPECT_THAT(typo.failures[0].message,
              ::testing::HasSubstr("metric 'accuracy' names the covariate 'dificulty', which this "
                                   "seed did not record"));
  EXPECT_THAT(typo.failures[0].message,
              ::testing::HasSubstr("(recorded: 'difficulty', 'accuracy')"));
}

}  // namespace
}  // namespace mlregress::internal
