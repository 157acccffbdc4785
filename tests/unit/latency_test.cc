// Latency distributions with an injected clock, so every figure is exact: 19 calls of 1 ms and
// every 20th of 10 ms give p50 1 ms, p95 1.45 ms (type 7: 5% of the way from x_(190) to x_(191)),
// p99 10 ms and a 10%-trimmed mean of 1 ms. Planted: a tail-only slowdown that the trimmed mean
// (like a mean or a rate) does not show and p99 does; too few calls for a p99; a call that
// throws; the figures recorded without their direction or spread.
#include "mlregress/latency.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "execution/test_context.h"

namespace mlregress {
namespace {

// A fake clock that only the call moves: call number k (from 1, warm-up included) takes 10 ms
// when k is a multiple of `slow_every`, else 1 ms.
struct FakeCalls {
  int slow_every = 20;
  double slow_s = 0.010;
  double now = 0.0;
  long calls = 0;
  int synchronized = 0;
  LatencyOptions options() {
    LatencyOptions o;
    o.clock = [this] { return now; };
    o.synchronize = [this] { ++synchronized; };
    return o;
  }
  void operator()() {
    ++calls;
    now += calls % slow_every == 0 ? slow_s : 0.001;
  }
};

TEST(Latency, ExactQuantilesAndTrimmedMeanFromAnInjectedClock) {
  FakeCalls fake;
  const LatencyResult result = measure_latency(
      "infer", [&] { fake(); }, fake.options());
  EXPECT_EQ(fake.calls, 20 + 5 * 200);
  EXPECT_EQ(fake.synchronized, 20 + 5 * 200);  // inside every call's timed interval
  ASSERT_EQ(result.call_s.size(), 5u);
  ASSERT_EQ(result.per_repetition.size(), 5u);
  EXPECT_EQ(result.call_s[0].size(), 200u);
  EXPECT_NEAR(result.call_s[0][19], 0.010, 1e-12);  // call 40 overall: the 20th timed
  for (const LatencyFigures& r : result.per_repetition) {
    EXPECT_NEAR(r.p50_s, 0.001, 1e-12);
    EXPECT_NEAR(r.p95_s, 0.001 + 0.05 * 0.009, 1e-12);
    EXPECT_NEAR(r.p99_s, 0.010, 1e-12);
    EXPECT_NEAR(r.trimmed_mean_s, 0.001, 1e-12);  // the 20 cut from the top hold all 10 slow
  }
  EXPECT_NEAR(result.median.p99_s, 0.010, 1e-12);
  EXPECT_NEAR(result.cv.p99_s, 0.0, 1e-9);  // identical repetitions
  EXPECT_EQ(result.describe(),
            "infer: p50 1 ms, p95 1.45 ms, p99 10 ms, trimmed mean 1 ms (cv 0.0%, 0.0%, 0.0%, "
            "0.0%), 5 × 200 calls");
}

TEST(Latency, ATailOnlySlowdownMovesP99AndLeavesTheMedianAndTrimmedMean) {
  FakeCalls quiet;
  quiet.slow_s = 0.001;  // no tail at all
  FakeCalls tail;        // every 20th call 10 ms
  const LatencyResult a = measure_latency(
      "a", [&] { quiet(); }, quiet.options());
  const LatencyResult b = measure_latency(
      "b", [&] { tail(); }, tail.options());
  EXPECT_NEAR(a.median.p50_s, b.median.p50_s, 1e-12);
  EXPECT_NEAR(a.median.trimmed_mean_s, b.median.trimmed_mean_s, 1e-12);
  EXPECT_GT(b.median.p99_s, 5.0 * a.median.p99_s);
}

TEST(Latency, TheSpreadIsTheCvAcrossRepetitions) {
  // Repetition r's calls all take (r + 1) ms: figures 1..5 ms, median 3 ms, sd √2.5 ms.
  double now = 0.0;
  long calls = 0;
  LatencyOptions options;
  options.warmup_calls = 0;
  options.clock = [&] { return now; };
  const LatencyResult result = measure_latency(
      "steps", [&] { now += 0.001 * static_cast<double>(1 + calls++ / 200); }, options);
  EXPECT_NEAR(result.median.p50_s, 0.003, 1e-12);
  EXPECT_NEAR(result.cv.p50_s, std::sqrt(2.5) / 3.0, 1e-9);
  EXPECT_NEAR(result.cv.trimmed_mean_s, std::sqrt(2.5) / 3.0, 1e-9);
}

std::string message_for(const LatencyOptions& options, const std::function<void()>& call) {
  try {
    measure_latency("planted", call, options);
  } catch (const LatencyError& error) {
    return error.what();
  }
  return "no LatencyError";
}

TEST(Latency, TooFewCallsForAP99AThrowingCallAndBadOptionsAreErrors) {
  LatencyOptions few;
  few.calls_per_repetition = 99;
  EXPECT_THAT(message_for(few, [] {}),
              ::testing::AllOf(::testing::HasSubstr("latency 'planted'"),
                               ::testing::HasSubstr("p99 rests on n/100 tail calls")));
  EXPECT_THAT(message_for({}, [] { throw std::runtime_error("out of memory"); }),
              ::testing::AllOf(::testing::HasSubstr("latency 'planted': the call threw"),
                               ::testing::HasSubstr("out of memory")));
  LatencyOptions one;
  one.repetitions = 1;
  EXPECT_THAT(message_for(one, [] {}), ::testing::HasSubstr("repetitions must be >= 2"));
  LatencyOptions half;
  half.trim = 0.5;
  EXPECT_THAT(message_for(half, [] {}), ::testing::HasSubstr("trim"));
  LatencyOptions broken_clock;
  broken_clock.clock = [] { return std::numeric_limits<double>::quiet_NaN(); };
  EXPECT_THAT(message_for(broken_clock, [] {}), ::testing::HasSubstr("non-finite"));
}

class CapturingSink final : public internal::EventSink {
 public:
  void emit(const internal::TestEvent& event) override { events.push_back(nlohmann::json(event)); }
  std::vector<nlohmann::json> events;
};

TEST(Latency, RecordsFourLowerIsBetterTimingsInMillisecondsWithTheirCv) {
  LatencyResult result;
  result.median = {0.001, 0.002, 0.004, 0.0011};
  result.cv = {0.01, 0.02, 0.04, 0.011};
  CapturingSink sink;
  internal::TestContext context{.sink = &sink};
  internal::set_current_test_context(&context);
  record_latency("infer", result);
  internal::set_current_test_context(nullptr);

  ASSERT_EQ(sink.events.size(), 4u);
  const std::vector<std::string> names = {"infer.p50_ms", "infer.p95_ms", "infer.p99_ms",
                                          "infer.trimmed_mean_ms"};
  const std::vector<double> values = {1.0, 2.0, 4.0, 1.1};
  const std::vector<double> cvs = {0.01, 0.02, 0.04, 0.011};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(sink.events[i].at("name"), names[i]);
    EXPECT_NEAR(sink.events[i].at("value").get<double>(), values[i], 1e-12);
    EXPECT_EQ(sink.events[i].at("direction"), "lower_is_better");
    EXPECT_EQ(sink.events[i].at("policy").at("kind"), "timing");
    EXPECT_EQ(sink.events[i].at("policy").at("cv"), cvs[i]);
  }
}

}  // namespace
}  // namespace mlregress
