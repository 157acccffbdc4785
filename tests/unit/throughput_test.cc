// The glue between ML tests and Google Benchmark: structural checks only (no test here depends
// on how fast this machine is). Planted: repetitions not honoured or mixed up with a previous
// measurement left in Benchmark's registry, rates from CPU time instead of wall time, items/s
// not tied to steps/s, a step that throws swallowed or unwound through Benchmark, unusable
// options accepted, and rates recorded without their direction or spread.
#include "mlregress/throughput.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "execution/test_context.h"

namespace mlregress {
namespace {

// Short repetitions: these tests check bookkeeping, not speed.
ThroughputOptions quick(int repetitions = 3, double items_per_step = 1.0) {
  return {.items_per_step = items_per_step,
          .repetitions = repetitions,
          .min_time_s = 0.01,
          .warmup_s = 0.0};
}

void small_work() {
  volatile double sink = 0.0;
  for (int i = 0; i < 1000; ++i) sink = sink + std::sqrt(static_cast<double>(i));
}

TEST(Throughput, HonoursTheRepetitionCountAndTimesEveryStepItCounts) {
  std::int64_t calls = 0;
  const ThroughputResult result = measure_throughput(
      "count",
      [&] {
        ++calls;
        small_work();
      },
      quick(4));
  ASSERT_EQ(result.steps_per_s.size(), 4u);
  ASSERT_EQ(result.steps_timed.size(), 4u);
  const std::int64_t timed =
      std::accumulate(result.steps_timed.begin(), result.steps_timed.end(), std::int64_t{0});
  for (const std::int64_t steps : result.steps_timed) EXPECT_GT(steps, 0);
  // Benchmark also runs untimed steps (its first estimate of the iteration count).
  EXPECT_GE(calls, timed);
  EXPECT_EQ(result.name, "count");
}

TEST(Throughput, ItemsPerSecondIsStepsPerSecondTimesItemsPerStep) {
  const ThroughputResult result = measure_throughput("items", small_work, quick(3, 32.0));
  EXPECT_EQ(result.median_items_per_s, result.median_steps_per_s * 32.0);
  EXPECT_GT(result.median_steps_per_s, 0.0);
}

TEST(Throughput, AggregatesAreThoseOfTheRepetitions) {
  const ThroughputResult result = measure_throughput("aggregates", small_work, quick(5));
  std::vector<double> sorted = result.steps_per_s;
  std::sort(sorted.begin(), sorted.end());
  // Benchmark's median of its rate counter equals the median of iterations / wall time.
  EXPECT_NEAR(result.median_steps_per_s, sorted[2], 1e-9 * sorted[2]);
  const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / 5.0;
  EXPECT_NEAR(result.mean_steps_per_s, mean, 1e-9 * mean);
  double squares = 0.0;
  for (const double v : sorted) squares += (v - mean) * (v - mean);
  const double sd = std::sqrt(squares / 4.0);
  EXPECT_NEAR(result.stddev_steps_per_s, sd, 1e-9 * mean);
  EXPECT_NEAR(result.cv, sd / mean, 1e-9);
  // The interval for the median is made of repetitions and holds the median.
  EXPECT_EQ(result.ci_low_steps_per_s, sorted.front());  // 5 repetitions: [min, max]
  EXPECT_EQ(result.ci_high_steps_per_s, sorted.back());
  EXPECT_LE(result.ci_low_steps_per_s, result.median_steps_per_s);
  EXPECT_GE(result.ci_high_steps_per_s, result.median_steps_per_s);
  EXPECT_DOUBLE_EQ(result.ci_coverage, 0.9375);
}

TEST(Throughput, RatesAndRepetitionLengthsComeFromWallTimeNotCpuTime) {
  // Sleeping costs no CPU time; a step that sleeps 2 ms cannot exceed 500 steps/s of wall time.
  const auto sleep = [] { std::this_thread::sleep_for(std::chrono::milliseconds(2)); };
  const ThroughputResult result = measure_throughput("sleep", sleep, quick(2));
  for (const double rate : result.steps_per_s) EXPECT_LE(rate, 500.0);
  EXPECT_LE(result.median_steps_per_s, 500.0);
  // A 10 ms repetition of 2 ms steps needs about 7 of them. Measured in CPU time (of which a
  // sleep has next to none) Benchmark keeps multiplying the count by 10 until its fallback, 5x
  // min_time of wall time, stops it: 100 steps.
  for (const std::int64_t steps : result.steps_timed) EXPECT_LE(steps, 30);
}

// A GPU step returns once its kernels are queued; the synchronisation after it is what makes the
// rate count the work. Planted: a synchronize callback not called, or called outside the timed
// loop (then the 2 ms wait would not slow the rate).
TEST(Throughput, TheSynchronizeCallbackRunsAfterEveryStepInsideTheTimedLoop) {
  std::int64_t steps = 0, syncs = 0;
  ThroughputOptions options = quick(2);
  options.synchronize = [&] {
    ++syncs;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // the queued work finishing
  };
  const ThroughputResult result = measure_throughput(
      "queued", [&] { ++steps; }, options);
  EXPECT_EQ(syncs, steps);
  for (const double rate : result.steps_per_s) EXPECT_LE(rate, 500.0);
}

TEST(Throughput, AStepThatThrowsStopsTheMeasurementWithItsMessage) {
  int calls = 0;
  const auto step = [&] {
    if (++calls == 3) throw std::runtime_error("planted failure in the step");
  };
  try {
    measure_throughput("throws", step, quick(3));
    FAIL() << "no ThroughputError";
  } catch (const ThroughputError& error) {
    const std::string message = error.what();
    EXPECT_THAT(message, ::testing::HasSubstr("throughput 'throws'")) << message;
    EXPECT_THAT(message, ::testing::HasSubstr("planted failure in the step")) << message;
  }
  EXPECT_EQ(calls, 3) << "the step ran again after it threw";
  // Nothing of the failed measurement is left registered to run with the next one.
  const ThroughputResult next = measure_throughput("after", small_work, quick(2));
  EXPECT_EQ(next.steps_per_s.size(), 2u);
}

TEST(Throughput, ConsecutiveMeasurementsDoNotRunEachOther) {
  int first_calls = 0;
  measure_throughput(
      "first", [&] { ++first_calls; }, quick(2));
  const int after_first = first_calls;
  const ThroughputResult second = measure_throughput("second", small_work, quick(3));
  EXPECT_EQ(first_calls, after_first) << "the first step ran during the second measurement";
  EXPECT_EQ(second.steps_per_s.size(), 3u);
}

TEST(Throughput, RejectsUnusableOptionsByName) {
  const auto message_for = [](ThroughputOptions options) -> std::string {
    try {
      measure_throughput("bad", small_work, options);
    } catch (const ThroughputError& error) {
      return error.what();
    }
    return "";
  };
  ThroughputOptions one = quick();
  one.repetitions = 1;
  EXPECT_THAT(message_for(one), ::testing::HasSubstr("repetitions must be >= 2"));
  ThroughputOptions no_items = quick();
  no_items.items_per_step = 0.0;
  EXPECT_THAT(message_for(no_items), ::testing::HasSubstr("items_per_step"));
  ThroughputOptions nan_time = quick();
  nan_time.min_time_s = std::nan("");
  EXPECT_THAT(message_for(nan_time), ::testing::HasSubstr("min_time_s"));
  ThroughputOptions negative_warmup = quick();
  negative_warmup.warmup_s = -1.0;
  EXPECT_THAT(message_for(negative_warmup), ::testing::HasSubstr("warmup_s"));
}

class CapturingSink final : public internal::EventSink {
 public:
  void emit(const internal::TestEvent& event) override { events.push_back(nlohmann::json(event)); }
  std::vector<nlohmann::json> events;
};

TEST(Throughput, RecordsBothRatesAsHigherIsBetterTimingsWithTheMeasuredCv) {
  ThroughputResult result;
  result.options.item_name = "tokens";
  result.median_steps_per_s = 10.0;
  result.median_items_per_s = 640.0;
  result.cv = 0.03;
  CapturingSink sink;
  internal::TestContext context{.sink = &sink};
  internal::set_current_test_context(&context);
  record_throughput("train_step", result);
  internal::set_current_test_context(nullptr);

  ASSERT_EQ(sink.events.size(), 2u);
  EXPECT_EQ(sink.events[0].at("name"), "train_step.steps_per_s");
  EXPECT_EQ(sink.events[0].at("value"), 10.0);
  EXPECT_EQ(sink.events[1].at("name"), "train_step.tokens_per_s");
  EXPECT_EQ(sink.events[1].at("value"), 640.0);
  for (const nlohmann::json& event : sink.events) {
    EXPECT_EQ(event.at("direction"), "higher_is_better");
    EXPECT_EQ(event.at("policy").at("kind"), "timing");
    EXPECT_EQ(event.at("policy").at("cv"), 0.03);
  }
}

}  // namespace
}  // namespace mlregress
