#include "mlregress/checks/learning_rate_schedule.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace mlregress::checks {
namespace {

using ::testing::HasSubstr;

constexpr double kPeak = 3e-3;
constexpr std::int64_t kWarmup = 20;
constexpr std::int64_t kTotal = 320;
constexpr double kFloor = 0.1 * kPeak;

// Linear warmup to the peak at step warmup - 1, then cosine to `floor_fraction` x peak at step
// `total` (one past the last update, as the example language model's schedule does).
double warmup_cosine(std::int64_t step, std::int64_t warmup = kWarmup,
                     double floor_fraction = 0.1) {
  if (step < warmup) return kPeak * static_cast<double>(step + 1) / static_cast<double>(warmup);
  const double progress =
      std::min(1.0, static_cast<double>(step - warmup) / static_cast<double>(kTotal - warmup));
  return kPeak *
         (floor_fraction + (1.0 - floor_fraction) * 0.5 * (1.0 + std::cos(M_PI * progress)));
}

std::vector<double> rates(std::int64_t warmup = kWarmup, double floor_fraction = 0.1) {
  std::vector<double> r;
  for (std::int64_t s = 0; s < kTotal; ++s) r.push_back(warmup_cosine(s, warmup, floor_fraction));
  return r;
}

ScheduleSpec declared() {
  return {.peak = kPeak, .warmup_steps = kWarmup, .total_steps = kTotal, .floor = kFloor};
}

TEST(LearningRateSchedule, WarmupThenCosineDoesWhatItSays) {
  const ScheduleCheck c = check_schedule(rates(), declared());
  EXPECT_TRUE(c.assertion()) << c.assertion().message();
  ASSERT_TRUE(c.peak_step.has_value());
  EXPECT_EQ(*c.peak_step, kWarmup - 1);
  ASSERT_TRUE(c.floor_step.has_value());
  EXPECT_GT(*c.floor_step, kTotal / 2);
  EXPECT_LE(*c.floor_step, kTotal - 1);
  EXPECT_DOUBLE_EQ(c.max_rate, kPeak);
}

// Planted: the warmup removed, the peak from the first step.
TEST(LearningRateSchedule, LostWarmupIsNamed) {
  const ScheduleCheck c = check_schedule(rates(/*warmup=*/0), declared());
  EXPECT_FALSE(c.passed);
  EXPECT_THAT(c.assertion().message(),
              HasSubstr("reaches the peak at step 0, declared at step 19 (warmup_steps 20)"));
}

// Planted: a scheduler stepped once per epoch of 50 updates: the rate is flat for 50 steps.
TEST(LearningRateSchedule, SchedulerSteppedPerEpochFails) {
  std::vector<double> r;
  for (std::int64_t s = 0; s < kTotal; ++s) r.push_back(warmup_cosine(s / 50));
  const ScheduleCheck c = check_schedule(r, declared());
  EXPECT_FALSE(c.passed);
  EXPECT_THAT(c.assertion().message(), HasSubstr("the warmup does not rise at step 1"));
}

// Planted: the scheduler advanced per example (16 per update): warmup over in two updates, the
// floor reached at update 20 and held there.
TEST(LearningRateSchedule, SchedulerAdvancedPerExampleFails) {
  std::vector<double> r;
  for (std::int64_t s = 0; s < kTotal; ++s) r.push_back(warmup_cosine(16 * s));
  const ScheduleCheck c = check_schedule(r, declared());
  EXPECT_FALSE(c.passed);
  EXPECT_FALSE(c.peak_step.has_value());
  EXPECT_THAT(c.assertion().message(), HasSubstr("never reaches the peak"));
  EXPECT_THAT(c.assertion().message(), HasSubstr("the rate stops falling at step 21"));
}

// Planted: a cosine to 0 where 0.1 x peak was declared.
TEST(LearningRateSchedule, FloorOfZeroAgainstADeclaredFloorFails) {
  const ScheduleCheck c = check_schedule(rates(kWarmup, /*floor_fraction=*/0.0), declared());
  EXPECT_FALSE(c.passed);
  EXPECT_THAT(c.assertion().message(), HasSubstr("declared floor 0.0003"));
}

// Planted: the peak one step late (warmup over warmup + 1 steps).
TEST(LearningRateSchedule, OffByOnePeakIsNamed) {
  std::vector<double> r = rates();
  for (std::int64_t s = 0; s <= kWarmup; ++s) {
    r[static_cast<std::size_t>(s)] = kPeak * static_cast<double>(s + 1) / (kWarmup + 1);
  }
  const ScheduleCheck c = check_schedule(r, declared());
  EXPECT_FALSE(c.passed);
  EXPECT_THAT(c.assertion().message(),
              HasSubstr("reaches the peak at step 20, declared at step 19"));
}

// Planted: a rate above the peak (a scale applied twice), and a decay that rises again.
TEST(LearningRateSchedule, RateAbovePeakAndRisingDecayFail) {
  std::vector<double> r = rates();
  r[100] = 1.5 * kPeak;
  const ScheduleCheck c = check_schedule(r, declared());
  EXPECT_FALSE(c.passed);
  EXPECT_THAT(c.assertion().message(), HasSubstr("exceeds the peak"));
  EXPECT_THAT(c.assertion().message(), HasSubstr("rises again at step 100"));
}

TEST(LearningRateSchedule, ConstantAndStepDecays) {
  const std::vector<double> constant(50, kPeak);
  EXPECT_TRUE(check_schedule(
      constant,
      {.peak = kPeak, .total_steps = 50, .floor = kPeak, .decay = ScheduleSpec::Decay::Constant}));
  std::vector<double> stepped(60, kPeak);
  for (std::size_t s = 20; s < 60; ++s) stepped[s] = s < 40 ? 0.5 * kPeak : 0.25 * kPeak;
  const ScheduleSpec step_spec{
      .peak = kPeak, .total_steps = 60, .floor = 0.25 * kPeak, .decay = ScheduleSpec::Decay::Step};
  EXPECT_TRUE(check_schedule(stepped, step_spec));
  // The same flat stretches fail a cosine, which must fall at every step.
  ScheduleSpec cosine = step_spec;
  cosine.decay = ScheduleSpec::Decay::Cosine;
  EXPECT_FALSE(check_schedule(stepped, cosine).passed);
}

TEST(LearningRateSchedule, WrongLengthOrSpecThrows) {
  EXPECT_THROW(check_schedule(std::vector<double>(10, kPeak), declared()), std::invalid_argument);
  ScheduleSpec bad = declared();
  bad.floor = 2 * kPeak;
  EXPECT_THROW(check_schedule(rates(), bad), std::invalid_argument);
  // A warmup longer than the run (--set warmup_steps=400 of 320): refused, never read past the
  // last rate.
  ScheduleSpec long_warmup = declared();
  long_warmup.warmup_steps = kTotal + 80;
  EXPECT_THROW(check_schedule(rates(kTotal + 80), long_warmup), std::invalid_argument);
}

// A warmup as long as the run peaks at its last step: judged without reading past the rates.
TEST(LearningRateSchedule, AWarmupAsLongAsTheRunIsJudgedWithinItsRates) {
  ScheduleSpec spec = declared();
  spec.warmup_steps = kTotal;
  spec.decay = ScheduleSpec::Decay::Constant;
  const ScheduleCheck c = check_schedule(rates(kTotal), spec);
  ASSERT_TRUE(c.peak_step.has_value()) << c.assertion().message();
  EXPECT_EQ(*c.peak_step, kTotal - 1);
}

// The rate the optimizer holds, not the one a formula computes: set through the options, read
// back through OptimizerOptions::get_lr, for SGD and for AdamW, and per param group.
TEST(LearningRateSchedule, LearningRateOfReadsTheOptimizer) {
  torch::nn::Linear a(2, 2);
  torch::nn::Linear b(2, 2);
  torch::optim::SGD sgd(a->parameters(), torch::optim::SGDOptions(0.1));
  EXPECT_DOUBLE_EQ(learning_rate_of(sgd), 0.1);
  static_cast<torch::optim::SGDOptions&>(sgd.param_groups()[0].options()).lr(0.05);
  EXPECT_DOUBLE_EQ(learning_rate_of(sgd), 0.05);

  torch::optim::AdamW adamw(a->parameters(), torch::optim::AdamWOptions(3e-3));
  adamw.add_param_group(torch::optim::OptimizerParamGroup(
      b->parameters(), std::make_unique<torch::optim::AdamWOptions>(1e-4)));
  EXPECT_DOUBLE_EQ(learning_rate_of(adamw), 3e-3);
  EXPECT_DOUBLE_EQ(learning_rate_of(adamw, 1), 1e-4);
  EXPECT_THROW(learning_rate_of(adamw, 2), std::out_of_range);
}

}  // namespace
}  // namespace mlregress::checks
