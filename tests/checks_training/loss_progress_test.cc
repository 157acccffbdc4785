#include "mlregress/checks/loss_progress.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace mlregress::checks {
namespace {

std::vector<double> decaying(std::size_t n, double start, double rate) {
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(start * std::exp(-rate * static_cast<double>(i)));
  return v;
}

TEST(LossProgress, FallingCurveTrains) {
  const std::vector<double> losses = decaying(60, 0.69, 0.02);
  const LossProgress p = judge_loss_progress(losses);
  EXPECT_EQ(p.status, LossProgressStatus::Trains);
  EXPECT_DOUBLE_EQ(p.initial_loss, 0.69);
  EXPECT_LT(p.relative_change, -0.5);
  EXPECT_TRUE(trains(losses));
}

TEST(LossProgress, NanAfterExplosionIsCaughtAtItsStep) {
  std::vector<double> losses = decaying(40, 1.6, 0.01);
  losses[19] = std::numeric_limits<double>::infinity();
  for (std::size_t i = 20; i < losses.size(); ++i) losses[i] = std::nan("");
  const LossProgress p = judge_loss_progress(losses);
  EXPECT_EQ(p.status, LossProgressStatus::NonFinite);
  EXPECT_EQ(p.first_non_finite_step, 19);
  EXPECT_TRUE(std::isnan(p.tail_loss));
  const auto result = trains(losses);
  EXPECT_FALSE(result);
  EXPECT_THAT(std::string(result.message()), ::testing::HasSubstr("step 19")) << result.message();
}

TEST(LossProgress, FlatCurveIsStalled) {
  // Parameters never reached the optimizer: the loss stays at its step-0 level.
  std::vector<double> losses(60, 0.6935);
  losses[30] = 0.69;
  EXPECT_EQ(judge_loss_progress(losses).status, LossProgressStatus::Stalled);
  EXPECT_FALSE(trains(losses));
}

TEST(LossProgress, NoisyPlateauAboveTheStartIsThrashing) {
  std::vector<double> losses = {0.6935, 12.0, 4.8, 0.9, 2.5, 3.1, 0.8, 2.3, 4.0, 1.9, 2.2, 2.7};
  const LossProgress p = judge_loss_progress(losses);
  EXPECT_EQ(p.status, LossProgressStatus::Thrashing);
  EXPECT_GT(p.tail_loss, p.initial_loss);
  EXPECT_FALSE(trains(losses));
}

TEST(LossProgress, BouncingBackToTheStartIsThrashingNotStalled) {
  // Too high a rate: spikes far above the start, then a tail that averages near it.
  std::vector<double> losses = {0.69, 3.0, 0.5, 1.4, 0.6, 0.9};
  for (int i = 0; i < 10; ++i) losses.push_back(i % 2 ? 0.75 : 0.63);
  const LossProgress p = judge_loss_progress(losses);
  EXPECT_LT(std::abs(p.relative_change), 0.02);
  EXPECT_EQ(p.status, LossProgressStatus::Thrashing);
  EXPECT_DOUBLE_EQ(p.max_loss, 3.0);
}

TEST(LossProgress, EmptyCurveFails) {
  EXPECT_EQ(judge_loss_progress({}).steps, 0u);
  EXPECT_FALSE(trains({}));
}

}  // namespace
}  // namespace mlregress::checks
