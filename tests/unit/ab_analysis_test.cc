// The statistics of an A/B timing comparison on made-up rounds. Planted: the ratio oriented the
// wrong way for rates or for durations, a significant but negligible difference called a
// REGRESSION, a large but unproven one called a PASS, Holm counting examples/s and steps/s (the
// same measurement) as two hypotheses, and a zero or NaN timing turned into a ratio.
#include "timing/ab_analysis.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace mlregress::internal {
namespace {

// `rounds` values of the other build around 100, and the candidate's scaled by `factor` with a
// small distinct wobble per round (distinct ratios keep the exact Wilcoxon distribution).
AbSeries series(const char* metric, Direction direction, int rounds, double factor) {
  AbSeries s{"Test", metric, direction, {}, {}};
  for (int i = 0; i < rounds; ++i) {
    const double other = 100.0 + i;
    s.other.push_back(other);
    s.candidate.push_back(other * factor * (1.0 + 0.001 * i));
  }
  return s;
}

AbMetricResult only(const std::vector<AbSeries>& input) {
  const auto results = analyse_ab(input, AbSettings{});
  EXPECT_EQ(results.size(), input.size());
  return results.at(0);
}

TEST(AbAnalysis, AFifthFewerStepsPerSecondInEveryRoundIsARegression) {
  const AbMetricResult r = only({series("steps_per_s", Direction::HigherIsBetter, 10, 1.0 / 1.2)});
  EXPECT_EQ(r.verdict, Verdict::kRegression);
  EXPECT_NEAR(r.median_cost_ratio, 1.2, 0.01);  // other / candidate for a rate
  EXPECT_DOUBLE_EQ(r.p_slower, 1.0 / 1024.0);   // all 10 rounds slower: 2^-10, exact
  EXPECT_EQ(r.wilcoxon_method, "exact");
  EXPECT_LE(r.ci_low, r.median_cost_ratio);
  EXPECT_GE(r.ci_high, r.median_cost_ratio);
  EXPECT_GT(r.ci_low, 1.0);
}

TEST(AbAnalysis, LongerDurationsAreARegressionAndShorterOnesAnImprovement) {
  EXPECT_EQ(only({series("step_seconds", Direction::LowerIsBetter, 10, 1.2)}).verdict,
            Verdict::kRegression);
  EXPECT_EQ(only({series("step_seconds", Direction::LowerIsBetter, 10, 0.8)}).verdict,
            Verdict::kImproved);
  EXPECT_EQ(only({series("steps_per_s", Direction::HigherIsBetter, 10, 1.2)}).verdict,
            Verdict::kImproved);
}

TEST(AbAnalysis, ASignificantSlowdownWithinTheMarginPasses) {
  const AbMetricResult r = only({series("steps_per_s", Direction::HigherIsBetter, 10, 1.0 / 1.02)});
  EXPECT_LT(r.p_slower_holm, 0.01);
  EXPECT_EQ(r.verdict, Verdict::kPass);
}

TEST(AbAnalysis, ALargeButUnprovenSlowdownIsInconclusiveNotAPass) {
  // Four rounds cannot reach p < 0.01 (the smallest one-sided p is 1/16).
  const AbMetricResult r = only({series("steps_per_s", Direction::HigherIsBetter, 4, 0.5)});
  EXPECT_EQ(r.verdict, Verdict::kInconclusive);
  EXPECT_THAT(r.note, ::testing::HasSubstr("more rounds")) << r.note;
}

TEST(AbAnalysis, MetricsWithIdenticalRatiosAreOneHypothesisForHolm) {
  // 8 rounds all slower: p = 1/256. With two distinct hypotheses Holm doubles it (< 0.01);
  // counting examples/s as a third would triple it (> 0.01) and hide the regression.
  AbSeries steps = series("steps_per_s", Direction::HigherIsBetter, 8, 0.8);
  AbSeries examples = steps;
  examples.metric = "examples_per_s";
  for (double& v : examples.candidate) v *= 32.0;
  for (double& v : examples.other) v *= 32.0;
  AbSeries unchanged = series("other_steps_per_s", Direction::HigherIsBetter, 8, 1.0);
  const auto results = analyse_ab({steps, examples, unchanged}, AbSettings{});
  ASSERT_EQ(results.size(), 3u);
  EXPECT_DOUBLE_EQ(results[0].p_slower_holm, 2.0 / 256.0);
  EXPECT_EQ(results[0].verdict, Verdict::kRegression);
  EXPECT_EQ(results[1].verdict, Verdict::kRegression);
  EXPECT_DOUBLE_EQ(results[1].p_slower_holm, results[0].p_slower_holm);
}

TEST(AbAnalysis, HolmAdjustsAcrossDistinctMetrics) {
  AbSeries a = series("a", Direction::HigherIsBetter, 7, 0.8);
  AbSeries b = series("b", Direction::HigherIsBetter, 7, 0.7);
  const auto results = analyse_ab({a, b}, AbSettings{});
  EXPECT_DOUBLE_EQ(results[0].p_slower, 1.0 / 128.0);
  EXPECT_DOUBLE_EQ(results[0].p_slower_holm, 2.0 / 128.0);
  EXPECT_NE(results[0].verdict, Verdict::kRegression);
}

TEST(AbAnalysis, AZeroOrNaNTimingIsReportedNotCompared) {
  AbSeries zero = series("steps_per_s", Direction::HigherIsBetter, 10, 1.0);
  zero.candidate[3] = 0.0;
  AbSeries missing = series("examples_per_s", Direction::HigherIsBetter, 10, 1.0);
  missing.other[0] = std::numeric_limits<double>::quiet_NaN();
  AbSeries must_equal = series("count", Direction::MustEqual, 10, 1.0);
  const auto results = analyse_ab({zero, missing, must_equal}, AbSettings{});
  for (const AbMetricResult& r : results) {
    EXPECT_EQ(r.verdict, Verdict::kInconclusive);
    EXPECT_FALSE(r.note.empty());
    EXPECT_TRUE(r.cost_ratios.empty());
  }
  EXPECT_THAT(results[0].note, ::testing::HasSubstr("round 4")) << results[0].note;
}

}  // namespace
}  // namespace mlregress::internal
