// Curve smells on synthetic curves: validation clearly better than training is flagged and a gap
// inside the training curve's noise is not; test clearly worse than validation at validation's
// best point is flagged, at that point; accuracies (HigherIsBetter) mirror losses; curves that
// cannot be compared fail no_curve_smell with the reason instead of passing.
#include "mlregress/checks/curve_smells.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "synthetic_curves.h"

namespace mlregress::checks {
namespace {

using ::testing::HasSubstr;

using testing_curves::curve;
using testing_curves::noisy;

std::vector<double> scaled(std::vector<double> v, double factor) {
  for (double& x : v) x *= factor;
  return v;
}

const auto kFalling = [](double i) { return 0.3 + 0.7 * std::exp(-0.2 * i); };

TEST(ValidationBetterThanTraining, TenPercentBelowTrainingIsASmell) {
  const auto train = noisy(curve(30, kFalling));
  const auto validation = scaled(curve(30, kFalling), 0.9);
  const CurveSmellResult r = validation_better_than_training(train, validation);
  EXPECT_TRUE(r.judged);
  EXPECT_TRUE(r.smell);
  EXPECT_EQ(r.kind, CurveSmellKind::ValidationBetterThanTraining);
  EXPECT_EQ(r.at_point, 25);                  // the last 5 points
  EXPECT_NEAR(r.relative_gap, 0.109, 0.001);  // the noisy tail averages 1.01 x the curve
  const ::testing::AssertionResult a = no_curve_smell(r);
  EXPECT_FALSE(a);
  const std::string message = a.message();
  EXPECT_THAT(message, HasSubstr("curve smell, validation better than training"));
  EXPECT_THAT(message, HasSubstr("dropout or augmentation"));
  EXPECT_THAT(message, HasSubstr("eval() mode on a training subset"));
}

TEST(ValidationBetterThanTraining, AGapInsideTheNoiseIsNone) {
  const auto train = noisy(curve(30, kFalling));
  const auto validation = scaled(curve(30, kFalling), 0.97);  // 3% below, inside +-5% noise
  const CurveSmellResult r = validation_better_than_training(train, validation);
  EXPECT_TRUE(r.judged);
  EXPECT_FALSE(r.smell);
  EXPECT_TRUE(no_curve_smell(r));
  EXPECT_LT(r.relative_gap, 0.05);
}

TEST(ValidationBetterThanTraining, ValidationWorseThanTrainingIsNone) {
  const auto train = curve(30, kFalling);
  const CurveSmellResult r = validation_better_than_training(train, scaled(train, 1.3));
  EXPECT_FALSE(r.smell);
  EXPECT_NEAR(r.relative_gap, -0.3, 1e-9);
  EXPECT_THAT(std::string(r.assertion().message()), HasSubstr("validation worse by 30.0%"));
}

TEST(ValidationBetterThanTraining, AccuracyMirror) {
  const auto train = curve(20, [](double i) { return 0.8 - 0.3 * std::exp(-0.3 * i); });
  const CurveSmellOptions higher{.direction = Direction::HigherIsBetter};
  EXPECT_TRUE(validation_better_than_training(train, scaled(train, 1.1), higher).smell);
  EXPECT_FALSE(validation_better_than_training(train, scaled(train, 0.9), higher).smell);
  EXPECT_FALSE(validation_better_than_training(train, scaled(train, 1.1)).smell)
      << "as a loss, a higher validation is worse";
}

TEST(TestPoorAlthoughValidationGood, TwentyPercentAboveValidationAtItsMinimumIsASmell) {
  // Validation has its minimum at point 12 and rises after it; test tracks it 20% higher.
  const auto validation = curve(25, [](double i) { return 0.4 + 0.002 * (i - 12) * (i - 12); });
  const auto test = scaled(validation, 1.2);
  const CurveSmellResult r = test_poor_although_validation_good(validation, test);
  EXPECT_TRUE(r.judged);
  EXPECT_TRUE(r.smell);
  EXPECT_EQ(r.at_point, 12);
  EXPECT_DOUBLE_EQ(r.reference, 0.4);
  EXPECT_NEAR(r.observed, 0.48, 1e-12);
  EXPECT_NEAR(r.relative_gap, 0.2, 1e-12);
  const std::string message = no_curve_smell(r).message();
  EXPECT_THAT(message, HasSubstr("at validation's best point (12"));
  EXPECT_THAT(message, HasSubstr("distribution shift"));
}

TEST(TestPoorAlthoughValidationGood, TestCloseToValidationIsNone) {
  const auto validation = curve(25, kFalling);
  const CurveSmellResult r =
      test_poor_although_validation_good(validation, scaled(validation, 1.04));
  EXPECT_TRUE(r.judged);
  EXPECT_FALSE(r.smell);
  EXPECT_TRUE(no_curve_smell(r));
  EXPECT_EQ(r.at_point, 24);  // still falling: the best point is the last
}

TEST(TestPoorAlthoughValidationGood, OnlyTheBestPointCounts) {
  // Validation falls to its best at point 9, then rises; test is close up to there and far worse
  // after it, which early stopping never sees.
  const auto validation = curve(20, [](double i) { return 0.5 + 0.01 * (i - 9) * (i - 9); });
  auto test = validation;
  for (std::size_t i = 0; i < test.size(); ++i) test[i] *= i <= 9 ? 1.02 : 2.0;
  const CurveSmellResult r = test_poor_although_validation_good(validation, test);
  EXPECT_EQ(r.at_point, 9);
  EXPECT_NEAR(r.relative_gap, 0.02, 1e-12);
  EXPECT_FALSE(r.smell);
}

TEST(TestPoorAlthoughValidationGood, AccuracyMirror) {
  const auto validation = curve(20, [](double i) { return 0.95 - 0.5 * std::exp(-0.4 * i); });
  const CurveSmellOptions higher{.direction = Direction::HigherIsBetter};
  const CurveSmellResult r =
      test_poor_although_validation_good(validation, scaled(validation, 0.85), higher);
  EXPECT_TRUE(r.smell);
  EXPECT_EQ(r.at_point, 19);
  EXPECT_NEAR(r.relative_gap, 0.15, 1e-12);
  EXPECT_FALSE(
      test_poor_although_validation_good(validation, scaled(validation, 1.1), higher).smell)
      << "a better test accuracy is no smell";
}

TEST(CurveSmells, CurvesThatCannotBeComparedFailWithTheReason) {
  const auto four = curve(4, kFalling);
  const auto five = curve(5, kFalling);
  const CurveSmellResult mismatch = validation_better_than_training(four, five);
  EXPECT_FALSE(mismatch.judged);
  EXPECT_FALSE(mismatch.smell);
  const ::testing::AssertionResult a = no_curve_smell(mismatch);
  EXPECT_FALSE(a) << "an unjudged result is never a silent pass";
  EXPECT_THAT(std::string(a.message()), HasSubstr("not judged: needs training and validation "
                                                  "curves of one length, at least 4 points "
                                                  "(got 4 and 5)"));

  const auto three = curve(3, kFalling);
  EXPECT_FALSE(no_curve_smell(test_poor_although_validation_good(three, three)));

  auto with_nan = five;
  with_nan[2] = std::numeric_limits<double>::quiet_NaN();
  const CurveSmellResult nan = test_poor_although_validation_good(five, with_nan);
  EXPECT_FALSE(nan.judged);
  EXPECT_THAT(std::string(no_curve_smell(nan).message()), HasSubstr("test is nan at point 2"));

  const CurveSmellOptions must_equal{.direction = Direction::MustEqual};
  EXPECT_FALSE(validation_better_than_training(five, five, must_equal).judged);
}

TEST(CurveSmells, Names) {
  EXPECT_EQ(curve_smell_name(CurveSmellKind::ValidationBetterThanTraining),
            "validation better than training");
  EXPECT_EQ(curve_smell_name(CurveSmellKind::TestPoorAlthoughValidationGood),
            "test poor although validation good");
}

}  // namespace
}  // namespace mlregress::checks
