#include "mlregress/checks/learning_rate_range_test.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace mlregress::checks {
namespace {

using ::testing::HasSubstr;

std::vector<double> geometric(double low, double high, std::size_t n) {
  std::vector<double> rates;
  for (std::size_t i = 0; i < n; ++i) {
    rates.push_back(low *
                    std::pow(high / low, static_cast<double>(i) / static_cast<double>(n - 1)));
  }
  return rates;
}

// Loss against log10(rate): flat at 1.0 below 1e-2, falling fastest at 10^-1.5 (0.0316) to a
// floor of 0.2, then blowing up above 10^-0.3 (0.5): the range test's classic shape.
std::vector<double> u_shaped(const std::vector<double>& rates) {
  std::vector<double> losses;
  for (const double rate : rates) {
    const double x = std::log10(rate);
    const double rise = std::max(0.0, x + 0.3);
    losses.push_back(0.2 + 0.8 / (1.0 + std::exp(4.0 * (x + 1.5))) + 5.0 * rise * rise);
  }
  return losses;
}

RangeTestOptions unsmoothed() {
  RangeTestOptions options;
  options.smoothing = 0.0;
  return options;
}

TEST(LearningRateRangeTest, UShapedCurveGivesTheBandAtTheValley) {
  const std::vector<double> rates = geometric(1e-4, 10.0, 100);
  const LearningRateRange range = judge_learning_rate_range(rates, u_shaped(rates), unsmoothed());
  ASSERT_TRUE(range.has_band) << range.table();
  EXPECT_GT(range.steepest_rate, 0.02) << range.table();  // the fall is steepest at 0.0316
  EXPECT_LT(range.steepest_rate, 0.05) << range.table();
  EXPECT_GT(range.min_loss_rate, 0.2) << range.table();  // the floor ends near 0.5
  EXPECT_LT(range.min_loss_rate, 0.8) << range.table();
  EXPECT_DOUBLE_EQ(range.suggested_high, range.min_loss_rate / 2.0);
  EXPECT_DOUBLE_EQ(range.suggested_low, range.steepest_rate);
  EXPECT_TRUE(range.diverged_at.has_value());  // the blow-up stopped it before 10
  EXPECT_TRUE(range.warnings().empty()) << range.warnings().front();
  EXPECT_THAT(range.table(), HasSubstr("suggested band")) << range.table();
  EXPECT_THAT(range.table(), HasSubstr("steepest")) << range.table();
  EXPECT_THAT(range.table(), HasSubstr("lowest")) << range.table();
}

TEST(LearningRateRangeTest, SmoothingLagsTheCurveButKeepsTheValley) {
  const std::vector<double> rates = geometric(1e-4, 10.0, 100);
  const LearningRateRange raw = judge_learning_rate_range(rates, u_shaped(rates), unsmoothed());
  const LearningRateRange smoothed = judge_learning_rate_range(rates, u_shaped(rates));
  ASSERT_TRUE(smoothed.has_band) << smoothed.table();
  // The EMA trails the raw curve by about 1 / (1 - 0.9) = 10 steps, half a decade here.
  EXPECT_GE(smoothed.min_loss_rate, raw.min_loss_rate);
  EXPECT_LT(smoothed.min_loss_rate, 4.0 * raw.min_loss_rate) << smoothed.table();
  EXPECT_LT(smoothed.suggested_high, 1.0) << smoothed.table();
  // Bias correction: the first smoothed value is the first loss, not (1 - 0.9) times it.
  EXPECT_DOUBLE_EQ(smoothed.smoothed.front(), smoothed.losses.front());
}

TEST(LearningRateRangeTest, BlowUpStopsAtDivergence) {
  // Falls from 1 to 0.5 over 30 steps, then grows by half every step.
  std::vector<double> losses;
  for (int i = 0; i < 30; ++i) losses.push_back(1.0 - 0.5 * i / 29.0);
  for (int i = 0; i < 70; ++i) losses.push_back(0.5 * std::pow(1.5, i + 1));
  const std::vector<double> rates = geometric(1e-4, 1.0, losses.size());
  const LearningRateRange range = judge_learning_rate_range(rates, losses, unsmoothed());
  ASSERT_TRUE(range.diverged_at.has_value());
  // 0.5 * 1.5^4 = 2.53 > 4 * 0.5: the fourth step of the blow-up (index 33) stops it.
  EXPECT_EQ(*range.diverged_at, 33);
  EXPECT_FALSE(range.non_finite);
  EXPECT_EQ(range.rates.size(), 34u);
  EXPECT_EQ(range.min_index, 29);
  EXPECT_THAT(range.table(), HasSubstr("diverged at step 33")) << range.table();
}

TEST(LearningRateRangeTest, RunStopsCallingTheStepAtDivergence) {
  // w <- w - lr * w on the loss 0.5 w^2 + 0.1: falls while lr < 2, explodes beyond.
  double w = 1.0;
  int calls = 0;
  RangeTestOptions options;
  options.min_rate = 1e-3;
  options.max_rate = 100.0;
  const LearningRateRange range = run_learning_rate_range_test(
      [&](double rate) {
        ++calls;
        const double loss = 0.5 * w * w + 0.1;
        w -= rate * w;
        return loss;
      },
      options);
  ASSERT_TRUE(range.diverged_at.has_value()) << range.table();
  EXPECT_EQ(calls, *range.diverged_at + 1);
  EXPECT_LT(calls, 100);
  EXPECT_GT(range.rates[static_cast<std::size_t>(*range.diverged_at)], 2.0);
  EXPECT_TRUE(range.has_band) << range.table();
  EXPECT_DOUBLE_EQ(range.rates.front(), 1e-3);
}

TEST(LearningRateRangeTest, FlatCurveWarnsAndGivesNoBand) {
  const std::vector<double> rates = geometric(1e-5, 10.0, 100);
  const LearningRateRange range =
      judge_learning_rate_range(rates, std::vector<double>(rates.size(), 0.69));
  EXPECT_FALSE(range.has_band);
  EXPECT_FALSE(range.diverged_at.has_value());
  ASSERT_EQ(range.warnings().size(), 1u);
  EXPECT_THAT(range.warnings().front(), HasSubstr("flat"));
  EXPECT_THAT(range.table(), HasSubstr("no band")) << range.table();
}

TEST(LearningRateRangeTest, NanEndsTheRun) {
  const std::vector<double> rates = geometric(1e-4, 1.0, 50);
  std::vector<double> losses(rates.size(), 0.5);
  for (std::size_t i = 0; i < 20; ++i) losses[i] = 1.0 - 0.02 * static_cast<double>(i);
  losses[20] = std::numeric_limits<double>::quiet_NaN();
  const LearningRateRange range = judge_learning_rate_range(rates, losses);
  ASSERT_TRUE(range.diverged_at.has_value());
  EXPECT_EQ(*range.diverged_at, 20);
  EXPECT_TRUE(range.non_finite);
  EXPECT_EQ(range.rates.size(), 21u);
  EXPECT_TRUE(std::isnan(range.smoothed.back()));
  EXPECT_LT(range.min_index, 20);
  EXPECT_THAT(range.table(), HasSubstr("non-finite at step 20")) << range.table();

  int calls = 0;
  const LearningRateRange run = run_learning_rate_range_test([&](double rate) {
    ++calls;
    return rate > 1e-2 ? std::numeric_limits<double>::infinity() : 1.0;
  });
  EXPECT_TRUE(run.non_finite);
  EXPECT_EQ(calls, static_cast<int>(run.rates.size()));
  EXPECT_LT(calls, 100);
}

TEST(LearningRateRangeTest, StepThatIgnoresItsRateIsFlat) {
  // The planted bug: the callback steps at a fixed 1e-4 whatever rate it is given (an optimizer
  // rebuilt from its config each step, or the rate written to a copy of the options).
  const auto quadratic_at = [](bool ignore_rate) {
    double w = 1.0;
    RangeTestOptions options;
    options.min_rate = 1e-3;
    options.max_rate = 100.0;
    return run_learning_rate_range_test(
        [&w, ignore_rate](double rate) {
          const double loss = 0.5 * w * w + 0.1;
          w -= (ignore_rate ? 1e-4 : rate) * w;
          return loss;
        },
        options);
  };
  EXPECT_TRUE(quadratic_at(false).has_band);
  const LearningRateRange planted = quadratic_at(true);
  EXPECT_FALSE(planted.has_band) << planted.table();
  EXPECT_FALSE(planted.diverged_at.has_value());  // up to lr 100 and nothing happened
  ASSERT_EQ(planted.warnings().size(), 1u);
  EXPECT_THAT(planted.warnings().front(), HasSubstr("does not apply the rate"));
}

TEST(LearningRateRangeTest, MinimumAtTheLargestRateWarns) {
  const std::vector<double> rates = geometric(1e-4, 1e-1, 60);
  std::vector<double> losses;
  for (std::size_t i = 0; i < rates.size(); ++i)
    losses.push_back(1.0 - 0.01 * static_cast<double>(i));
  const LearningRateRange range = judge_learning_rate_range(rates, losses, unsmoothed());
  EXPECT_TRUE(range.has_band);
  ASSERT_EQ(range.warnings().size(), 1u);
  EXPECT_THAT(range.warnings().front(), HasSubstr("raise max_rate"));
}

TEST(LearningRateRangeTest, DivergingBeforeFallingAsksForALowerStart) {
  const std::vector<double> rates = geometric(1.0, 100.0, 20);
  std::vector<double> losses;
  for (std::size_t i = 0; i < rates.size(); ++i) losses.push_back(std::pow(2.0, i));
  const LearningRateRange range = judge_learning_rate_range(rates, losses, unsmoothed());
  EXPECT_FALSE(range.has_band);
  ASSERT_EQ(range.warnings().size(), 1u);
  EXPECT_THAT(range.warnings().front(), HasSubstr("lower min_rate"));
}

// A sweep of 20-step curves from 0.69 whose last 10 losses are tails[i] at rates[i].
LearningRateSweep sweep_with_tails(const std::vector<double>& rates,
                                   const std::vector<double>& tails) {
  std::vector<std::vector<double>> curves;
  for (const double tail : tails) {
    curves.push_back(std::vector<double>(20, 0.69));
    for (std::size_t i = 10; i < 20; ++i) curves.back()[i] = tail;
  }
  return judge_learning_rate_sweep(rates, curves);
}

// A sweep whose best rate is `best`, every other rate far behind it (a best band of one rate).
LearningRateSweep sweep_best_at(const std::vector<double>& rates, double best) {
  std::vector<double> tails;
  for (const double rate : rates) tails.push_back(rate == best ? 0.3 : 0.6);
  return sweep_with_tails(rates, tails);
}

TEST(LearningRateRangeTest, AgreesWithASweepNearItsBandOnly) {
  const std::vector<double> rates = geometric(1e-4, 10.0, 100);
  const LearningRateRange range = judge_learning_rate_range(rates, u_shaped(rates), unsmoothed());
  ASSERT_TRUE(range.has_band) << range.table();
  // The band is [0.03, 0.24]: a sweep whose best is 0.1 agrees ...
  EXPECT_TRUE(agrees_with_sweep(range, sweep_best_at({1e-3, 1e-2, 1e-1, 1.0}, 1e-1)));
  // ... one two decades lower (1e-3, its own grid shifted) does not, and says why.
  const ::testing::AssertionResult off =
      agrees_with_sweep(range, sweep_best_at({1e-5, 1e-4, 1e-3, 1e-2}, 1e-3));
  EXPECT_FALSE(off);
  EXPECT_THAT(off.message(), HasSubstr("the sweep's best lr 0.001"));
  EXPECT_THAT(off.message(), HasSubstr("range test:"));
  EXPECT_THAT(off.message(), HasSubstr("sweep:"));
  // A wider factor takes it in: 0.0298 / 40 < 0.001.
  EXPECT_TRUE(agrees_with_sweep(range, sweep_best_at({1e-5, 1e-4, 1e-3, 1e-2}, 1e-3), 40.0));
}

TEST(LearningRateRangeTest, ASweepTieInsideTheBandAgrees) {
  const std::vector<double> rates = geometric(1e-4, 10.0, 100);
  const LearningRateRange range = judge_learning_rate_range(rates, u_shaped(rates), unsmoothed());
  ASSERT_TRUE(range.has_band) << range.table();
  // Best at 1e-3 (outside [0.0099, 0.73]), but 3e-2 is within 1.1x of its tail loss: a tie.
  const LearningRateSweep tie = sweep_with_tails({1e-4, 1e-3, 3e-2}, {0.6, 0.30, 0.32});
  ASSERT_EQ(tie.best_band(), (std::vector<double>{1e-3, 3e-2}));
  EXPECT_TRUE(agrees_with_sweep(range, tie));
  // The same sweep with 3e-2 well behind: its best band is 1e-3 alone, and it disagrees.
  EXPECT_FALSE(agrees_with_sweep(range, sweep_with_tails({1e-4, 1e-3, 3e-2}, {0.6, 0.30, 0.40})));
}

TEST(LearningRateRangeTest, NoBandNeverAgrees) {
  const std::vector<double> rates = geometric(1e-5, 10.0, 100);
  const LearningRateRange flat =
      judge_learning_rate_range(rates, std::vector<double>(rates.size(), 0.69));
  const ::testing::AssertionResult result =
      agrees_with_sweep(flat, sweep_best_at({1e-3, 1e-2, 1e-1}, 1e-2));
  EXPECT_FALSE(result);
  EXPECT_THAT(result.message(), HasSubstr("no band"));
}

}  // namespace
TEST(LearningRateRangeTest, OptionsThatCannotWorkAreRefusedBeforeAnyStep) {
  // A divergence factor of 1 would stop the run at its first step and blame the start rate.
  int steps_taken = 0;
  const auto counting_step = [&](double) {
    ++steps_taken;
    return 1.0;
  };
  RangeTestOptions at_one;
  at_one.divergence_factor = 1.0;
  EXPECT_THROW(run_learning_rate_range_test(counting_step, at_one), c10::Error);
  RangeTestOptions negative_drop;
  negative_drop.min_drop = -0.1;
  EXPECT_THROW(run_learning_rate_range_test(counting_step, negative_drop), c10::Error);
  EXPECT_EQ(steps_taken, 0);
  EXPECT_THROW(judge_learning_rate_range({1e-3, 1e-2}, {1.0, 0.5}, at_one), c10::Error);
}

}  // namespace mlregress::checks
