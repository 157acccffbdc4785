// record() refuses a policy that cannot gate, at the line that records it: a NaN, negative or
// infinite tolerance would silently widen or disable the comparison, and an infinite one that
// got promoted could never be read back (every later `run --baselines` would stop with exit 6).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "execution/event_sink.h"
#include "execution/test_context.h"
#include "mlregress/ml_test.h"

namespace mlregress {
namespace {

using ::testing::HasSubstr;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

class CapturingSink final : public internal::EventSink {
 public:
  void emit(const internal::TestEvent& event) override { events.push_back(event); }
  std::vector<internal::TestEvent> events;
};

class RecordPolicyTest : public ::testing::Test {
 protected:
  void SetUp() override { internal::set_current_test_context(&context_); }
  void TearDown() override { internal::set_current_test_context(nullptr); }

  // The message record() threw for `policy`, or "" when it recorded the metric.
  std::string refusal(TolerancePolicy policy, Direction direction = LowerIsBetter) {
    context_.recorded.clear();  // each call stands for a test of its own
    try {
      MlTest::record("loss", 0.5, direction, policy);
    } catch (const std::invalid_argument& error) {
      return error.what();
    }
    return "";
  }

  CapturingSink sink_;
  internal::TestContext context_{.sink = &sink_};
};

// Recorded twice, one value would be dropped without a word: the second record() is an error
// naming the metric and both values, and nothing more is emitted.
TEST_F(RecordPolicyTest, AMetricRecordedTwiceInOneTestIsAnErrorWithBothValues) {
  MlTest::record("accuracy", 0.5, HigherIsBetter);
  std::string message;
  try {
    MlTest::record("accuracy", 0.7, HigherIsBetter);
  } catch (const std::invalid_argument& error) {
    message = error.what();
  }
  EXPECT_THAT(message, HasSubstr("metric 'accuracy' is recorded twice in this test (first 0.5, "
                                 "then 0.7)"));
  EXPECT_THAT(message, HasSubstr("record_policy_test.cc:"));
  EXPECT_EQ(sink_.events.size(), 1u);
  MlTest::record("loss", 0.1, LowerIsBetter);  // another name is fine
  EXPECT_EQ(sink_.events.size(), 2u);
}

TEST_F(RecordPolicyTest, AFiniteBandIsRecorded) {
  EXPECT_EQ(refusal(Band{.rtol = 0.5, .atol = 1e-3}), "");
  EXPECT_EQ(sink_.events.size(), 1u);
}

TEST_F(RecordPolicyTest, AnInfiniteBandIsRefusedAtTheLineThatRecordsIt) {
  std::string message;
  const int line = __LINE__ + 2;  // the line of the record() call below
  try {
    MlTest::record("loss", 0.5, LowerIsBetter, Band{.rtol = kInf});
  } catch (const std::invalid_argument& error) {
    message = error.what();
  }
  EXPECT_THAT(message,
              HasSubstr(std::string(__FILE__) + ":" + std::to_string(line) + ": metric 'loss'"));
  EXPECT_THAT(message, HasSubstr("band tolerances must be finite and >= 0"));
  EXPECT_TRUE(sink_.events.empty()) << "an unusable policy must not reach the run (or promote)";
}

TEST_F(RecordPolicyTest, EveryNonFiniteOrNegativeToleranceIsRefused) {
  for (const TolerancePolicy& policy : std::vector<TolerancePolicy>{
           Band{.rtol = kInf}, Band{.atol = kInf}, Band{.rtol = -kInf}, Band{.rtol = kNaN},
           Band{.atol = -0.1}, Timing{.cv = kInf}, Timing{.cv = kNaN}, Timing{.cv = -0.01}}) {
    EXPECT_THAT(refusal(policy), HasSubstr("must be finite and >= 0")) << policy.index();
  }
  EXPECT_TRUE(sink_.events.empty());
}

TEST_F(RecordPolicyTest, AMarginMustBeFiniteInASeededTest) {
  context_.seeded = true;
  EXPECT_EQ(refusal(Margin{.delta = 0.01}, HigherIsBetter), "");
  EXPECT_THAT(refusal(Margin{.delta = kInf}, HigherIsBetter),
              HasSubstr("the margin must be finite and >= 0"));
  EXPECT_THAT(refusal(Margin{.delta = kNaN}, HigherIsBetter),
              HasSubstr("the margin must be finite and >= 0"));
  EXPECT_THAT(refusal(Margin{.delta = -0.01}, HigherIsBetter),
              HasSubstr("the margin must be finite and >= 0"));
  EXPECT_EQ(sink_.events.size(), 1u);
}

TEST_F(RecordPolicyTest, PoliciesThatDoNotFitTheKindOfTestAreRefused) {
  EXPECT_THAT(refusal(Margin{.delta = 0.01}), HasSubstr("Margin applies to seeded tests"));
  context_.seeded = true;
  EXPECT_THAT(refusal(Band{.rtol = 0.1}),
              HasSubstr("a seeded test compares per-seed distributions"));
  EXPECT_THAT(refusal({}, MustEqual), HasSubstr("must_equal has no worse side"));
}

// A gated curve's policy: a NaN or negative tolerance would disable the gate, a smoothing or
// `consecutive` of 0 would compare nothing; each is refused naming the curve, nothing emitted.
TEST_F(RecordPolicyTest, ACurvePolicyThatCannotGateIsRefused) {
  const auto curve_refusal = [this](const CurvePolicy& policy) -> std::string {
    try {
      MlTest::record_curve("loss", std::vector<double>{1.0, 0.5}, policy);
    } catch (const std::invalid_argument& error) {
      return error.what();
    }
    return "";
  };
  EXPECT_EQ(curve_refusal(CurvePolicy{.rtol = 0.1, .atol = 0.01, .smoothing = 5}), "");
  EXPECT_EQ(sink_.events.size(), 1u);
  for (const CurvePolicy& policy :
       {CurvePolicy{.rtol = kNaN}, CurvePolicy{.rtol = -0.1}, CurvePolicy{.rtol = kInf},
        CurvePolicy{.atol = -kInf}, CurvePolicy{.smoothing = 0}, CurvePolicy{.consecutive = 0}}) {
    EXPECT_THAT(curve_refusal(policy), HasSubstr("curve 'loss': the policy cannot gate"));
  }
  EXPECT_EQ(sink_.events.size(), 1u);
  // One curve per seed has no single reference: a policy in a seeded test is refused.
  context_.seeded = true;
  EXPECT_THAT(curve_refusal(CurvePolicy{}), HasSubstr("a CurvePolicy applies to ML_TEST only"));
  EXPECT_EQ(sink_.events.size(), 1u);
}

}  // namespace
}  // namespace mlregress
