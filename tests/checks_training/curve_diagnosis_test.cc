#include "mlregress/checks/curve_diagnosis.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "synthetic_curves.h"

namespace mlregress::checks {
namespace {

using testing_curves::curve;
using testing_curves::noisy;

TEST(CurveDiagnosis, EquilibriumGapIsAStableGapNotOverfitting) {
  const auto train = noisy(curve(50, [](double i) { return 0.2 + 0.8 * std::exp(-0.3 * i); }));
  const auto validation = curve(50, [](double i) { return 0.35 + 0.65 * std::exp(-0.3 * i); });
  const CurveDiagnosis d = diagnose_curves(train, validation);
  EXPECT_TRUE(diagnosed_as(d, CurvePattern::StableGap));
  EXPECT_TRUE(curves_healthy(d));
  EXPECT_NEAR(d.final_gap, 0.15, 0.01);
}

TEST(CurveDiagnosis, BothStillFallingIsHealthy) {
  const auto train = curve(50, [](double i) { return std::exp(-0.05 * i); });
  const auto validation = curve(50, [](double i) { return 1.1 * std::exp(-0.04 * i); });
  const CurveDiagnosis d = diagnose_curves(train, validation);
  EXPECT_TRUE(diagnosed_as(d, CurvePattern::StillImproving));
  EXPECT_TRUE(curves_healthy(d));
}

TEST(CurveDiagnosis, PlantedOverfittingIsCaughtWithItsMinimum) {
  const auto train = noisy(curve(50, [](double i) { return std::exp(-0.05 * i); }));
  const auto validation = curve(
      50, [](double i) { return 0.5 + 0.5 * std::exp(-0.2 * i) + 0.01 * std::max(0.0, i - 20.0); });
  const CurveDiagnosis d = diagnose_curves(train, validation);
  EXPECT_TRUE(diagnosed_as(d, CurvePattern::Overfitting));
  EXPECT_GE(d.validation_min_step, 18);
  EXPECT_LE(d.validation_min_step, 24);
  EXPECT_GT(d.validation_final, d.validation_min);
  const auto healthy = curves_healthy(d);
  EXPECT_FALSE(healthy);
  EXPECT_THAT(std::string(healthy.message()), ::testing::HasSubstr("early stopping"))
      << healthy.message();
}

TEST(CurveDiagnosis, PlantedUnderfittingIsCaught) {
  const auto train =
      noisy(curve(50, [](double i) { return 1.0 - 0.2 * (1.0 - std::exp(-0.05 * i)); }));
  const auto validation =
      curve(50, [](double i) { return 1.02 - 0.2 * (1.0 - std::exp(-0.05 * i)); });
  const CurveDiagnosis d = diagnose_curves(train, validation);
  EXPECT_TRUE(diagnosed_as(d, CurvePattern::Underfitting));
  EXPECT_FALSE(curves_healthy(d));
}

TEST(CurveDiagnosis, PlantedTrainingOnlyShortcutIsCaught) {
  // Training near zero almost at once; validation stays at chance (ln 2) and never improves.
  const auto train = curve(50, [](double i) { return 0.01 + 0.68 * std::exp(-0.5 * i); });
  const auto validation =
      curve(50, [](double i) { return 0.693 + (static_cast<int>(i) % 2 ? 0.004 : -0.004); });
  const CurveDiagnosis d = diagnose_curves(train, validation);
  EXPECT_TRUE(diagnosed_as(d, CurvePattern::TrainingOnlyShortcut));
  EXPECT_FALSE(curves_healthy(d));
}

TEST(CurveDiagnosis, NonFiniteAndMalformedInputs) {
  auto train = curve(20, [](double i) { return 1.0 / (1.0 + i); });
  auto validation = train;
  validation[7] = std::nan("");
  EXPECT_EQ(diagnose_curves(train, validation).pattern, CurvePattern::NonFinite);
  EXPECT_FALSE(curves_healthy(diagnose_curves(train, validation)));
  EXPECT_EQ(diagnose_curves(train, {1.0, 0.5}).pattern, CurvePattern::Unclassified);
}

}  // namespace
}  // namespace mlregress::checks
