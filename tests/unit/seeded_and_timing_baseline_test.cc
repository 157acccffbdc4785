// Baseline entries of seeded metrics (per-seed samples with a checked summary) and of timings
// (a value and the spread measured at promotion, per environment): they survive a write and a
// read unchanged, a hand edit that breaks them is refused with its line, and a timing is judged
// only against its own environment, inside the band its promoted spread allows.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "baseline_edits.h"
#include "baselines/baseline_toml.h"
#include "comparison/comparator.h"

namespace mlregress::internal {
namespace {

BaselineFile file_with(const BaselineMetric& metric) {
  BaselineFile file = file_of_one_environment();
  file.tests["Study"].config_hash = "0123456789abcdef";
  file.tests["Study"].metrics["accuracy"] = metric;
  return file;
}

BaselineMetric seeded_metric() { return four_seed_accuracy({0, 1, 2, 3}); }

BaselineMetric timing_metric(double steps_per_s, double cv) {
  BaselineMetric m;
  m.direction = Direction::HigherIsBetter;
  m.policy = Timing{};
  m.by_environment["cpu-aaaa"] = steps_per_s;
  m.cv_by_environment["cpu-aaaa"] = cv;
  return m;
}

TEST(SeededBaselineTest, SamplesSeedsAndSummaryRoundTrip) {
  const BaselineFile file = file_with(seeded_metric());
  const std::string text = render_baseline(file);
  EXPECT_THAT(text,
              ::testing::HasSubstr("policy = \"margin\"\nmargin = 0.01\nseeds = [0, 1, 2, 3]"))
      << text;
  EXPECT_THAT(text, ::testing::HasSubstr("summary = { n = 4, mean = ")) << text;
  EXPECT_EQ(parse_baseline(text, "b.toml"), file);
}

TEST(SeededBaselineTest, AHandEditedSampleThatNoLongerMatchesTheSummaryIsRefused) {
  const std::string text = render_baseline(file_with(seeded_metric()));
  const std::string error = error_of(replace(text, "0.88,", "0.98,"));
  EXPECT_THAT(error, ::testing::HasSubstr("does not match its samples")) << error;
  EXPECT_EQ(error.rfind("b.toml:", 0), 0u) << error;
}

TEST(SeededBaselineTest, SamplesAndSeedsMustPairUpAndSeedsMustBeDistinct) {
  const std::string text = render_baseline(file_with(seeded_metric()));
  EXPECT_THAT(error_of(replace(text, "seeds = [0, 1, 2, 3]", "seeds = [0, 1, 2]")),
              ::testing::HasSubstr("4 samples but 3 seeds"));
  EXPECT_THAT(error_of(replace(text, "seeds = [0, 1, 2, 3]", "seeds = [0, 1, 1, 3]")),
              ::testing::HasSubstr("lists seed 1 twice"));
}

TEST(SeededBaselineTest, ASingleValueUnderPolicyMarginIsRefused) {
  const std::string text = render_baseline(file_with(seeded_metric()));
  const std::string error =
      error_of(replace(text, "margin = 0.01\n", "margin = 0.01\nvalue = 0.87\n"));
  EXPECT_THAT(error, ::testing::HasSubstr("'value' does not apply to policy \"margin\"")) << error;
}

TEST(SeededBaselineTest, AMarginKeyUnderAnotherPolicyIsRefused) {
  const std::string text = render_baseline(file_with(seeded_metric()));
  const std::string error = error_of(replace(text, "policy = \"margin\"", "policy = \"band\""));
  EXPECT_THAT(error, ::testing::HasSubstr("only applies to policy \"margin\"")) << error;
}

TEST(TimingBaselineTest, ValueAndPromotedSpreadRoundTripPerEnvironment) {
  const BaselineFile file = file_with(timing_metric(120.0, 0.02));
  const std::string text = render_baseline(file);
  EXPECT_THAT(text,
              ::testing::HasSubstr(
                  "policy = \"timing\"\nvalues = { cpu-aaaa = 120.0 }\ncv = { cpu-aaaa = 0.02 }"))
      << text;
  EXPECT_EQ(parse_baseline(text, "b.toml"), file);
}

TEST(TimingBaselineTest, ASpreadForAnEnvironmentWithoutAValueIsRefused) {
  const std::string text = render_baseline(file_with(timing_metric(120.0, 0.02)));
  const std::string error = error_of(replace(text, "cv = { cpu-aaaa", "cv = { cpu-bbbb"));
  EXPECT_THAT(error, ::testing::HasSubstr("names environment 'cpu-bbbb'")) << error;
  EXPECT_THAT(error_of(replace(text, "cv = { cpu-aaaa = 0.02 }\n", "")),
              ::testing::HasSubstr("missing 'cv'"));
}

// A run's profile by its machine id (and a numerics id of its own).
EnvironmentProfile profile(const std::string& id) {
  return EnvironmentProfile{.id = id, .numerics_id = id + "-numerics"};
}

TEST(TimingComparisonTest, TheBandIsThreePromotedSpreadsWithAFloor) {
  const BaselineMetric noisy = timing_metric(100.0, 0.04);  // band 12%
  EXPECT_EQ(
      compare_metric("steps", 89.0, Direction::HigherIsBetter, &noisy, profile("cpu-aaaa")).verdict,
      Verdict::kPass);
  EXPECT_EQ(
      compare_metric("steps", 87.0, Direction::HigherIsBetter, &noisy, profile("cpu-aaaa")).verdict,
      Verdict::kRegression);
  EXPECT_EQ(compare_metric("steps", 113.0, Direction::HigherIsBetter, &noisy, profile("cpu-aaaa"))
                .verdict,
            Verdict::kImproved);
  const BaselineMetric quiet = timing_metric(100.0, 0.001);  // 0.3% would cry wolf: floor 5%
  const MetricComparison c =
      compare_metric("steps", 96.0, Direction::HigherIsBetter, &quiet, profile("cpu-aaaa"));
  EXPECT_EQ(c.verdict, Verdict::kPass);
  EXPECT_EQ(c.kind, MetricKind::kPerformance);
  EXPECT_EQ(
      compare_metric("steps", 94.0, Direction::HigherIsBetter, &quiet, profile("cpu-aaaa")).verdict,
      Verdict::kRegression);
}

TEST(TimingComparisonTest, APromotedSpreadTooWideToGateIsInconclusiveNotAPass) {
  const BaselineMetric noisy =
      timing_metric(100.0, 0.36);  // band would be ±108%: nothing could fail
  const MetricComparison c =
      compare_metric("steps", 10.0, Direction::HigherIsBetter, &noisy, profile("cpu-aaaa"));
  EXPECT_EQ(c.verdict, Verdict::kInconclusive);
  EXPECT_THAT(c.note, ::testing::HasSubstr("too wide to gate on")) << c.note;
}

TEST(TimingComparisonTest, ATimingFromAnotherEnvironmentIsNeverCompared) {
  const BaselineMetric timing = timing_metric(100.0, 0.02);
  // Even a tenfold slowdown: a time measured on other hardware says nothing about this one.
  const MetricComparison c =
      compare_metric("steps", 10.0, Direction::HigherIsBetter, &timing, profile("cpu-bbbb"));
  EXPECT_EQ(c.verdict, Verdict::kUngated);
  EXPECT_EQ(c.kind, MetricKind::kPerformance);
}

TEST(SeededComparisonTest, ASingleValueAgainstAStoredDistributionIsNotComparable) {
  const BaselineMetric seeded = seeded_metric();
  EXPECT_EQ(compare_metric("accuracy", 0.5, Direction::HigherIsBetter, &seeded, profile("cpu-aaaa"))
                .verdict,
            Verdict::kNotComparable);
}

}  // namespace
}  // namespace mlregress::internal
