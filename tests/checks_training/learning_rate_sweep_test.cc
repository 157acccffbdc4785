#include "mlregress/checks/learning_rate_sweep.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace mlregress::checks {
namespace {

// A loss curve that falls from 0.69 towards `floor` at speed `rate`: a stand-in for one run.
std::vector<double> curve_to(double floor, double speed, std::size_t n = 60) {
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) {
    v.push_back(floor + (0.69 - floor) * std::exp(-speed * static_cast<double>(i)));
  }
  return v;
}

std::vector<double> thrashing(double level, std::size_t n = 60) {
  std::vector<double> v = {0.69};
  for (std::size_t i = 1; i < n; ++i) v.push_back(level * (i % 2 ? 1.5 : 0.5));
  return v;
}

const std::vector<double> kRates = {1e-3, 1e-2, 1e-1, 3e-1, 1.0, 3.0, 10.0};

// The seed's table, shaped: no progress at 1e-3 and 1e-2, lowest at 0.3, 1.0 close behind.
std::vector<std::vector<double>> u_shaped_curves() {
  return {curve_to(0.68, 0.001), curve_to(0.67, 0.002), curve_to(0.62, 0.05), curve_to(0.51, 0.1),
          curve_to(0.54, 0.3),   thrashing(0.80),       thrashing(2.1)};
}

TEST(LearningRateSweep, HealthySweepFindsTheBandAndTheU) {
  const LearningRateSweep sweep = judge_learning_rate_sweep(kRates, u_shaped_curves());
  ASSERT_EQ(sweep.best_index, 3);
  EXPECT_EQ(sweep.best_band(), (std::vector<double>{0.3, 1.0}));
  EXPECT_TRUE(best_band_within(sweep, 0.3, 1.0));
  EXPECT_TRUE(u_shaped(sweep));
  EXPECT_EQ(sweep.points[0].progress.status, LossProgressStatus::Stalled);
  EXPECT_EQ(sweep.points[1].progress.status, LossProgressStatus::Stalled);
  EXPECT_EQ(sweep.points[3].progress.status, LossProgressStatus::Trains);
  EXPECT_EQ(sweep.points[6].progress.status, LossProgressStatus::Thrashing);
  EXPECT_EQ(sweep.warnings().size(), 4u);  // two too low, two too high
  const std::string table = sweep.table();
  EXPECT_THAT(table, ::testing::HasSubstr("best")) << table;
  EXPECT_THAT(table, ::testing::HasSubstr("thrashing")) << table;
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 8) << table;
}

TEST(LearningRateSweep, TailIsTheMeanOfTheLastK) {
  LearningRateSweepOptions options;
  options.progress.tail_steps = 2;
  const LearningRateSweep sweep =
      judge_learning_rate_sweep({0.1}, {{1.0, 0.9, 0.8, 0.5, 0.3}}, options);
  EXPECT_DOUBLE_EQ(sweep.points[0].progress.tail_loss, 0.4);
}

TEST(LearningRateSweep, NonFiniteRateIsWarnedAndNeverBest) {
  std::vector<std::vector<double>> curves = u_shaped_curves();
  curves[6] = curve_to(0.0, 1.0);
  curves[6][10] = std::nan("");  // would otherwise be the best, ending near 0
  const LearningRateSweep sweep = judge_learning_rate_sweep(kRates, curves);
  EXPECT_EQ(sweep.best_index, 3);
  EXPECT_EQ(sweep.points[6].progress.status, LossProgressStatus::NonFinite);
  EXPECT_FALSE(sweep.points[6].in_best_band);
  EXPECT_THAT(sweep.warnings().back(), ::testing::HasSubstr("non-finite from step 10"));
}

TEST(LearningRateSweep, PlantedMonotoneSweepIsNotAU) {
  // The rate range stops too early: the best is the largest rate tried.
  const std::vector<std::vector<double>> curves = {curve_to(0.68, 0.001), curve_to(0.62, 0.05),
                                                   curve_to(0.51, 0.1)};
  const LearningRateSweep sweep = judge_learning_rate_sweep({1e-3, 1e-1, 0.3}, curves);
  const auto u = u_shaped(sweep);
  EXPECT_FALSE(u);
  EXPECT_THAT(std::string(u.message()), ::testing::HasSubstr("not U-shaped")) << u.message();
}

TEST(LearningRateSweep, PlantedBandOutsideTheExpectedRangeFails) {
  // A regression moved the optimum: now 3.0 is best and 1.0 close behind.
  std::vector<std::vector<double>> curves = u_shaped_curves();
  curves[3] = curve_to(0.60, 0.1);
  curves[5] = curve_to(0.50, 0.3);
  const LearningRateSweep sweep = judge_learning_rate_sweep(kRates, curves);
  const auto band = best_band_within(sweep, 0.3, 1.0);
  EXPECT_FALSE(band);
  EXPECT_THAT(std::string(band.message()), ::testing::HasSubstr("best band {1, 3}"))
      << band.message();
}

TEST(LearningRateSweep, SameBudgetAtEveryRate) {
  std::vector<std::int64_t> budgets;
  LearningRateSweepOptions options;
  options.steps = 17;
  const LearningRateSweep sweep = sweep_learning_rates(
      {0.1, 1.0},
      [&](double lr, std::int64_t steps) {
        budgets.push_back(steps);
        return curve_to(0.5 / lr, 0.1, static_cast<std::size_t>(steps));
      },
      options);
  EXPECT_EQ(budgets, (std::vector<std::int64_t>{17, 17}));
  EXPECT_EQ(sweep.points[1].losses.size(), 17u);
  EXPECT_EQ(sweep.best_index, 1);
}

TEST(LearningRateSweep, NoFiniteCurveFailsBothAssertions) {
  const LearningRateSweep sweep = judge_learning_rate_sweep({1.0, 10.0}, {{0.7, NAN}, {0.7, NAN}});
  EXPECT_EQ(sweep.best_index, -1);
  EXPECT_FALSE(best_band_within(sweep, 0.0, 100.0));
  EXPECT_FALSE(u_shaped(sweep));
}

}  // namespace
}  // namespace mlregress::checks
