// The overfit-one-batch criterion on the seed's own numbers: the correct model's curve
// (1.3411 -> 0.0002) passes, the softmax-before-CrossEntropyLoss curve (1.3746 -> 0.7438) fails,
// and a NaN anywhere fails even when the curve ends low. Only the header is included: no torch.
#include "mlregress/checks/overfit_criterion.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace mlregress::checks {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// The seed's table, steps 0, 100, ..., 500 (one entry per printed step).
const std::vector<double> kCorrectCurve = {1.3411, 0.0148, 0.0024, 0.0009, 0.0004, 0.0002};
const std::vector<double> kDoubleSoftmaxCurve = {1.3746, 0.7499, 0.7448, 0.7441, 0.7439, 0.7438};

TEST(JudgeOverfit, CorrectModelCurvePasses) {
  const OverfitVerdict v = judge_overfit(kCorrectCurve);
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.initial_loss, 1.3411);
  EXPECT_EQ(v.final_loss, 0.0002);
  EXPECT_DOUBLE_EQ(v.threshold, 0.013411);  // 1% of the initial loss, above the 0.01 floor
  // 0.0148 at step 1 is above the threshold, 0.0024 at step 2 is the first under it.
  EXPECT_EQ(v.first_step_below, 2);
  EXPECT_EQ(v.first_non_finite_step, -1);
}

TEST(JudgeOverfit, DoubleSoftmaxCurveFails) {
  const OverfitVerdict v = judge_overfit(kDoubleSoftmaxCurve);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.initial_loss, 1.3746);
  EXPECT_EQ(v.final_loss, 0.7438);
  EXPECT_EQ(v.first_step_below, -1);
  EXPECT_EQ(v.first_non_finite_step, -1);
}

TEST(JudgeOverfit, NaNAnywhereFailsEvenIfTheCurveEndsLow) {
  std::vector<double> curve = kCorrectCurve;
  curve[3] = kNaN;
  const OverfitVerdict v = judge_overfit(curve);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.first_non_finite_step, 3);
  EXPECT_EQ(v.final_loss, 0.0002);  // ends low, and still fails
}

TEST(JudgeOverfit, NonFiniteAtEitherEndFails) {
  std::vector<double> first = kCorrectCurve;
  first.front() = kNaN;
  EXPECT_FALSE(judge_overfit(first).passed);
  EXPECT_EQ(judge_overfit(first).first_non_finite_step, 0);

  std::vector<double> last = kCorrectCurve;
  last.back() = kNaN;
  EXPECT_FALSE(judge_overfit(last).passed);
  EXPECT_EQ(judge_overfit(last).first_non_finite_step, 5);

  std::vector<double> diverged = kCorrectCurve;
  diverged[1] = kInf;
  EXPECT_FALSE(judge_overfit(diverged).passed);
  EXPECT_EQ(judge_overfit(diverged).first_non_finite_step, 1);

  std::vector<double> negative = kCorrectCurve;
  negative[4] = -kInf;  // "very low" is not a pass either
  EXPECT_FALSE(judge_overfit(negative).passed);
}

TEST(JudgeOverfit, ReportsTheFirstNonFiniteStep) {
  EXPECT_EQ(judge_overfit({1.0, 0.5, kInf, kNaN, 0.001}).first_non_finite_step, 2);
}

TEST(JudgeOverfit, EmptyCurveFails) {
  const OverfitVerdict v = judge_overfit({});
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.first_step_below, -1);
}

TEST(JudgeOverfit, FlatCurveFails) {
  // Parameters missing from the optimizer: the loss stays at its step-0 value.
  EXPECT_FALSE(judge_overfit(std::vector<double>(501, 1.3863)).passed);
}

TEST(JudgeOverfit, FinalLossDecidesNotTheBestOne) {
  // Dipped under the threshold, then came back up: a late blow-up is not a pass.
  const OverfitVerdict v = judge_overfit({1.3, 0.005, 0.9});
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.first_step_below, 1);
}

TEST(JudgeOverfit, ThresholdIsTheLargerOfFloorAndRatio) {
  const OverfitCriterion strict{.max_ratio = 1e-4, .absolute_floor = 0.0};
  EXPECT_FALSE(judge_overfit(kCorrectCurve, strict).passed);  // 0.0002 > 0.00013411
  EXPECT_DOUBLE_EQ(judge_overfit(kCorrectCurve, strict).threshold, 0.00013411);
  const OverfitCriterion floor_only{.max_ratio = 0.0, .absolute_floor = 0.75};
  EXPECT_TRUE(judge_overfit(kDoubleSoftmaxCurve, floor_only).passed);
  EXPECT_EQ(judge_overfit(kDoubleSoftmaxCurve, floor_only).first_step_below, 1);
}

TEST(JudgeOverfit, FinalEqualToTheThresholdPasses) {
  const OverfitCriterion criterion{.max_ratio = 0.5, .absolute_floor = 0.0};
  EXPECT_TRUE(judge_overfit({2.0, 1.5, 1.0}, criterion).passed);
  EXPECT_FALSE(judge_overfit({2.0, 1.5, std::nextafter(1.0, 2.0)}, criterion).passed);
}

TEST(Overfits, PassesTheCorrectCurveAndSaysWhereItCrossed) {
  const ::testing::AssertionResult result = overfits(kCorrectCurve);
  EXPECT_TRUE(result);
  const std::string message = result.message();
  EXPECT_THAT(message, ::testing::HasSubstr("first under the threshold at step 2")) << message;
}

TEST(Overfits, ExplainsTheDoubleSoftmaxFailure) {
  const ::testing::AssertionResult result = overfits(kDoubleSoftmaxCurve);
  EXPECT_FALSE(result);
  const std::string message = result.message();
  EXPECT_THAT(message, ::testing::HasSubstr("did not overfit one batch")) << message;
  EXPECT_THAT(message, ::testing::HasSubstr("initial loss 1.3746")) << message;
  EXPECT_THAT(message, ::testing::HasSubstr("final loss 0.7438 after 6 steps")) << message;
  EXPECT_THAT(message, ::testing::HasSubstr("threshold 0.013746")) << message;
}

TEST(Overfits, NamesTheStepOfANaN) {
  std::vector<double> curve = kCorrectCurve;
  curve[3] = kNaN;
  const ::testing::AssertionResult result = overfits(curve);
  EXPECT_FALSE(result);
  const std::string message = result.message();
  EXPECT_THAT(message, ::testing::HasSubstr("loss is nan at step 3")) << message;
}

TEST(Overfits, EmptyCurveFailsWithAMessage) {
  const ::testing::AssertionResult result = overfits({});
  EXPECT_FALSE(result);
  EXPECT_THAT(std::string(result.message()), ::testing::HasSubstr("empty loss curve"));
}

// NLLLoss fed logits: the "loss" is -z_y, which falls through 0 without bound. Without a possible
// minimum it looks like perfect memorisation; with min_possible_loss = 0 it fails at the first
// step below 0.
const std::vector<double> kNllOnLogitsCurve = {0.05, -0.4, -1.2, -2.6, -5.0};

TEST(JudgeOverfit, ALossBelowItsPossibleMinimumFails) {
  EXPECT_TRUE(judge_overfit(kNllOnLogitsCurve).passed) << "unchecked, it looks memorised";
  const OverfitCriterion criterion{.min_possible_loss = 0.0};
  const OverfitVerdict v = judge_overfit(kNllOnLogitsCurve, criterion);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.first_step_below_possible, 1);
  EXPECT_EQ(v.final_loss, -5.0);
}

TEST(JudgeOverfit, MinPossibleLossLeavesAHealthyCurveAlone) {
  const OverfitCriterion criterion{.min_possible_loss = 0.0};
  const OverfitVerdict v = judge_overfit(kCorrectCurve, criterion);
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.first_step_below_possible, -1);
  EXPECT_TRUE(judge_overfit({1.3, 0.5, 0.0}, criterion).passed) << "the minimum itself is possible";
}

TEST(Overfits, NamesTheFirstStepBelowThePossibleMinimum) {
  const ::testing::AssertionResult result =
      overfits(kNllOnLogitsCurve, OverfitCriterion{.min_possible_loss = 0.0});
  EXPECT_FALSE(result);
  const std::string message = result.message();
  EXPECT_THAT(message, ::testing::HasSubstr("the loss is not what it says: -0.4 at step 1 is "
                                            "below its possible minimum 0"))
      << message;
}

}  // namespace
}  // namespace mlregress::checks
