#include "mlregress/checks/curve_comparison.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace mlregress::checks {
namespace {

std::vector<double> decaying(std::size_t n, double scale = 1.0) {
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(scale * std::exp(-0.05 * static_cast<double>(i)));
  return v;
}

TEST(CurveComparison, SameCurveWithinTinyNoiseStaysInsideTheBand) {
  const std::vector<double> baseline = decaying(100);
  std::vector<double> candidate = baseline;
  for (std::size_t i = 0; i < candidate.size(); ++i) candidate[i] *= 1.0 + (i % 2 ? 0.01 : -0.01);
  const CurveComparison c = compare_curve(candidate, baseline, Band{.rtol = 0.05, .atol = 1e-6});
  EXPECT_FALSE(c.diverged);
  EXPECT_EQ(c.first_divergent_step, -1);
  EXPECT_TRUE(curve_within(c));
}

TEST(CurveComparison, PlantedDriftIsReportedAtItsFirstStep) {
  const std::vector<double> baseline = decaying(100);
  std::vector<double> candidate = baseline;
  for (std::size_t i = 30; i < candidate.size(); ++i) candidate[i] *= 1.5;  // regression at 30
  const CurveComparison c = compare_curve(candidate, baseline, Band{.rtol = 0.1});
  EXPECT_TRUE(c.diverged);
  EXPECT_EQ(c.first_divergent_step, 30);
  EXPECT_EQ(c.steps_outside, 70u);
  EXPECT_DOUBLE_EQ(c.candidate_value, candidate[30]);
  EXPECT_DOUBLE_EQ(c.upper, baseline[30] * 1.1);
  const auto result = curve_within(c);
  EXPECT_FALSE(result);
  EXPECT_THAT(std::string(result.message()), ::testing::HasSubstr("diverges at step 30"))
      << result.message();
}

TEST(CurveComparison, DirectionIgnoresImprovements) {
  const std::vector<double> baseline = decaying(50);
  const std::vector<double> better = decaying(50, 0.5);  // lower loss everywhere
  EXPECT_FALSE(
      compare_curve(better, baseline, Band{.rtol = 0.1}, {.direction = Direction::LowerIsBetter})
          .diverged);
  EXPECT_TRUE(compare_curve(better, baseline, Band{.rtol = 0.1}).diverged);  // MustEqual
  EXPECT_TRUE(
      compare_curve(better, baseline, Band{.rtol = 0.1}, {.direction = Direction::HigherIsBetter})
          .diverged);
}

TEST(CurveComparison, ConsecutiveStepsIgnoreASingleSpikeButNotADrift) {
  const std::vector<double> baseline = decaying(60);
  std::vector<double> candidate = baseline;
  candidate[10] *= 2.0;  // one noisy minibatch
  const CurveComparisonOptions three{.consecutive_steps = 3};
  EXPECT_FALSE(compare_curve(candidate, baseline, Band{.rtol = 0.1}, three).diverged);
  for (std::size_t i = 40; i < 60; ++i) candidate[i] *= 2.0;
  const CurveComparison c = compare_curve(candidate, baseline, Band{.rtol = 0.1}, three);
  EXPECT_EQ(c.first_divergent_step, 40);  // the first step of the run, not the third
}

TEST(CurveComparison, NonFiniteDivergesAtOnce) {
  const std::vector<double> baseline = decaying(30);
  std::vector<double> candidate = baseline;
  candidate[19] = std::nan("");
  const CurveComparison c =
      compare_curve(candidate, baseline, Band{.rtol = 10.0}, {.consecutive_steps = 5});
  EXPECT_EQ(c.first_divergent_step, 19);
}

TEST(CurveComparison, DifferentLengthsDiverge) {
  const std::vector<double> baseline = decaying(30);
  const std::vector<double> candidate(baseline.begin(), baseline.begin() + 20);
  const CurveComparison c = compare_curve(candidate, baseline, Band{.rtol = 0.1});
  EXPECT_EQ(c.first_divergent_step, 20);
  EXPECT_FALSE(curve_within(c));
}

TEST(CurveComparison, MinMaxEnvelopeOfSeeds) {
  const std::vector<std::vector<double>> seeds = {decaying(40, 0.9), decaying(40, 1.0),
                                                  decaying(40, 1.1)};
  const CurveEnvelope envelope = min_max_envelope(seeds);
  EXPECT_DOUBLE_EQ(envelope.lower[0], 0.9);
  EXPECT_DOUBLE_EQ(envelope.upper[0], 1.1);
  EXPECT_FALSE(compare_curve(decaying(40, 1.05), envelope).diverged);
  const CurveComparison c = compare_curve(decaying(40, 1.3), envelope);
  EXPECT_EQ(c.first_divergent_step, 0);
  EXPECT_THAT(c.envelope_description, ::testing::HasSubstr("3 curves"));
}

TEST(CurveComparison, MeanSdEnvelopeOfSeeds) {
  const std::vector<std::vector<double>> seeds = {{1.0, 2.0}, {3.0, 2.0}};
  const CurveEnvelope envelope = mean_sd_envelope(seeds, 2.0);
  // Step 0: mean 2, sample sd sqrt(2); step 1: no spread at all.
  EXPECT_DOUBLE_EQ(envelope.lower[0], 2.0 - 2.0 * std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(envelope.upper[0], 2.0 + 2.0 * std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(envelope.upper[1], 2.0);
  EXPECT_FALSE(compare_curve({4.5, 2.0}, envelope).diverged);
  EXPECT_EQ(compare_curve({4.5, 2.1}, envelope).first_divergent_step, 1);
}

}  // namespace
}  // namespace mlregress::checks
