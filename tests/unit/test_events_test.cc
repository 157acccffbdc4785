// The events a test process sends the runner: one wire format, written by the worker and read by
// the supervisor. Every kind must survive the trip (NaN and Inf included), hostile text must
// still get out, and a damaged line must be refused with the reason, never crash the runner.
#include "execution/test_events.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TestEvent round_trip(const TestEvent& event) {
  const DecodedEvent decoded = decode_event_line(event_line(event));
  EXPECT_TRUE(decoded.event.has_value()) << decoded.error;
  return decoded.event.value_or(TestSkipped{"<lost>"});
}

TEST(TestEvents, EveryKindSurvivesTheWire) {
  const auto start =
      std::get<TestStarted>(round_trip(TestStarted{"Fast.Cnn", "2026-12-02T13:45:12.345Z"}));
  EXPECT_EQ(start.test, "Fast.Cnn");
  EXPECT_EQ(start.started_at, "2026-12-02T13:45:12.345Z");

  const auto failed =
      std::get<AssertionFailed>(round_trip(AssertionFailed{{"cnn_test.cc", 12, "a\nb", true}}));
  EXPECT_EQ(failed.failure.file, "cnn_test.cc");
  EXPECT_EQ(failed.failure.line, 12);
  EXPECT_EQ(failed.failure.message, "a\nb");
  EXPECT_TRUE(failed.failure.fatal);

  EXPECT_EQ(std::get<TestSkipped>(round_trip(TestSkipped{"no GPU"})).message, "no GPU");

  MetricRecord metric{"loss", kNaN, HigherIsBetter, Band{.rtol = 0.5, .atol = 1e-3}, {}, {}};
  const auto recorded = std::get<MetricRecorded>(round_trip(MetricRecorded{metric})).metric;
  EXPECT_EQ(recorded.name, "loss");
  EXPECT_TRUE(std::isnan(recorded.value));
  EXPECT_EQ(recorded.direction, HigherIsBetter);
  EXPECT_EQ(recorded.policy, (TolerancePolicy{Band{.rtol = 0.5, .atol = 1e-3}}));
  for (const TolerancePolicy& policy :
       {TolerancePolicy{}, TolerancePolicy{Exact{}}, TolerancePolicy{Margin{.delta = 0.01}},
        TolerancePolicy{Timing{.cv = 0.02}}}) {
    metric.policy = policy;
    EXPECT_EQ(std::get<MetricRecorded>(round_trip(MetricRecorded{metric})).metric.policy, policy);
  }

  const auto curve =
      std::get<CurveRecorded>(round_trip(CurveRecorded{{"loss", {0, 10, 20}, {1.5, kInf, -kInf}}}))
          .curve;
  EXPECT_EQ(curve.steps, (std::vector<std::int64_t>{0, 10, 20}));
  EXPECT_EQ(curve.values, (std::vector<double>{1.5, kInf, -kInf}));

  const auto end = std::get<TestEnded>(round_trip(TestEnded{"Fast.Cnn", false, true, 0.25}));
  EXPECT_EQ(end.test, "Fast.Cnn");
  EXPECT_FALSE(end.passed);
  EXPECT_TRUE(end.skipped);
  EXPECT_EQ(end.duration_s, 0.25);
}

TEST(TestEvents, OneLinePerEventWhateverTheTextHolds) {
  const std::string line =
      event_line(AssertionFailed{{"f.cc", 1, "line\nbreak, invalid UTF-8 \xff\xfe", false}});
  EXPECT_EQ(line.find('\n'), std::string::npos);
  const auto failed =
      std::get<AssertionFailed>(round_trip(AssertionFailed{{"f.cc", 1, "bad \xff", false}}));
  EXPECT_EQ(failed.failure.message, "bad \xEF\xBF\xBD");  // replaced, not thrown on
}

TEST(TestEvents, ADamagedLineIsRefusedWithTheReason) {
  EXPECT_THAT(decode_event_line("{not json").error, HasSubstr("unreadable event"));
  EXPECT_THAT(decode_event_line(R"({"event": "teleport"})").error,
              HasSubstr("unknown event 'teleport'"));
  EXPECT_THAT(decode_event_line(R"({"event": "metric", "name": "x", "value": "abc", "direction":
      "lower_is_better", "policy": {"kind": "default"}})")
                  .error,
              HasSubstr("'value' is not a number"));
  EXPECT_THAT(decode_event_line(R"({"event": "metric", "name": "x", "value": 1, "direction": "up",
      "policy": {"kind": "default"}})")
                  .error,
              HasSubstr("unknown direction 'up'"));
  EXPECT_THAT(decode_event_line(R"({"event": "end", "test": "Fast.X"})").error,
              HasSubstr("malformed event"));
  EXPECT_FALSE(decode_event_line(R"({"event": "end", "test": "Fast.X"})").event.has_value());
}

}  // namespace
}  // namespace mlregress::internal
