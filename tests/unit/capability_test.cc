// Capabilities and graduation, unit by unit: the Wilson interval behind every success rate, the
// strict target, the graduation rule (k of the last n runs, the lower bound against the
// threshold, how many more met runs are needed), its refusal text, the target's JSON, the
// graduation and demotion records in a baseline file, and promote leaving a capability alone.
//
// Planted, and caught here: a Wald interval (0 width at 10 of 10: the 0.7225 bound asserted), a
// target met at equality, graduating on a window that is not full (3 of 3 against 10 asserted
// refused), a count of the runs still needed that ignores the miss leaving the window, a
// threshold no full window can reach reported as reachable, a demotion record lost on rewrite
// (round trip), a capability promoted as a guard.
#include "analysis/capability.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "baselines/baseline_toml.h"
#include "builders.h"
#include "execution/event_sink.h"
#include "execution/test_context.h"
#include "execution/test_events.h"
#include "mlregress/ml_test.h"
#include "statistics/wilson.h"
#include "storage/policy_json.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;

std::vector<bool> repeated(int met, int missed) {
  std::vector<bool> outcomes(static_cast<std::size_t>(missed), false);
  outcomes.insert(outcomes.end(), static_cast<std::size_t>(met), true);
  return outcomes;
}

TEST(WilsonInterval, MatchesTheScoreFormulaAtTheEdgesAndInside) {
  // (p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n), z = 1.959964; at k = n the lower bound
  // is n / (n + z²).
  EXPECT_NEAR(stats::wilson_interval(10, 10).lower, 0.7224672, 1e-6);
  EXPECT_EQ(stats::wilson_interval(10, 10).upper, 1.0);
  EXPECT_NEAR(stats::wilson_interval(9, 10).lower, 0.5958500, 1e-6);
  EXPECT_NEAR(stats::wilson_interval(9, 10).upper, 0.9821238, 1e-6);
  EXPECT_NEAR(stats::wilson_interval(2, 3).lower, 0.2076596, 1e-6);
  EXPECT_NEAR(stats::wilson_interval(2, 3).upper, 0.9385081, 1e-6);
  EXPECT_EQ(stats::wilson_interval(0, 1).lower, 0.0);
  EXPECT_NEAR(stats::wilson_interval(0, 1).upper, 0.7934507, 1e-6);
  EXPECT_EQ(stats::wilson_interval(0, 0).lower, 0.0);
  EXPECT_EQ(stats::wilson_interval(0, 0).upper, 1.0);
  EXPECT_THROW(stats::wilson_interval(4, 3), std::invalid_argument);
  EXPECT_THROW(stats::wilson_interval(-1, 3), std::invalid_argument);
}

TEST(CapabilityTarget, IsStrictAsWrittenAndNaNNeverMeetsIt) {
  const Target below{Direction::LowerIsBetter, 2.5};
  const Target above{Direction::HigherIsBetter, 0.9};
  EXPECT_TRUE(target_met(below, 2.49));
  EXPECT_FALSE(target_met(below, 2.5));
  EXPECT_TRUE(target_met(above, 0.91));
  EXPECT_FALSE(target_met(above, 0.9));
  EXPECT_FALSE(target_met(above, std::nan("")));
  EXPECT_FALSE(target_met(below, std::nan("")));
  EXPECT_EQ(target_text(below), "< 2.5");
  EXPECT_EQ(target_text(above), "> 0.9");
}

TEST(CapabilityTarget, DescribesTheOutcomeAndTheRate) {
  MetricRecord metric{.name = "val_loss", .value = 2.71};
  metric.target = Target{Direction::LowerIsBetter, 2.5};
  EXPECT_EQ(describe_capability(metric, std::nullopt), "NOT MET: 2.71 (target < 2.5)");
  EXPECT_EQ(describe_capability(metric, capability_rate(3, 10)),
            "NOT MET: 2.71 (target < 2.5); met 3 of 10 runs (95% CI 11%–60%)");
  metric.value = 2.0;
  EXPECT_EQ(describe_capability(metric, capability_rate(1, 1)),
            "MET: 2 (target < 2.5); met 1 of 1 run (95% CI 21%–100%)");
}

TEST(CapabilityTarget, TravelsAsJsonAndRefusesWhatIsNotOne) {
  const Target above{Direction::HigherIsBetter, 0.9};
  EXPECT_EQ(target_to_json(above), nlohmann::json({{"above", 0.9}}));
  EXPECT_EQ(target_from_json(target_to_json(above)), above);
  const Target below{Direction::LowerIsBetter, -1.5};
  EXPECT_EQ(target_from_json(target_to_json(below)), below);
  EXPECT_THROW(target_from_json(nlohmann::json({{"above", 1}, {"below", 2}})),
               std::invalid_argument);
  EXPECT_THROW(target_from_json(nlohmann::json::object()), std::invalid_argument);
  EXPECT_THROW(target_from_json(nlohmann::json({{"below", "Infinity"}})), std::invalid_argument);
}

TEST(GraduationRule, TenOfTheLastTenGraduateAtTheDefaultThreshold) {
  const GraduationEvidence e =
      judge_graduation(repeated(10, 0), kGraduationDefaultRuns, kGraduationDefaultLowerBound);
  EXPECT_TRUE(e.graduates);
  EXPECT_EQ(e.met, 10);
  EXPECT_EQ(e.runs, 10);
  EXPECT_NEAR(e.lower, 0.7224672, 1e-6);
  // Only the last ten count: an old miss has left the window.
  EXPECT_TRUE(judge_graduation(repeated(10, 3), 10, 0.7).graduates);
}

TEST(GraduationRule, AWindowThatIsNotFullIsRefusedWithTheRunsStillNeeded) {
  // 9 of 9 reach 0.7008 >= 0.7, yet the window of 10 is not full.
  const GraduationEvidence nine = judge_graduation(repeated(9, 0), 10, 0.7);
  EXPECT_FALSE(nine.graduates);
  EXPECT_EQ(nine.more_met_runs_needed, 1);
  const GraduationEvidence three = judge_graduation(repeated(3, 0), 10, 0.7);
  EXPECT_FALSE(three.graduates);
  EXPECT_EQ(three.more_met_runs_needed, 7);
  EXPECT_EQ(graduation_refusal(three),
            "met 3 of the last 3 runs (a window of 10); the lower 95% Wilson bound of its success "
            "rate is 0.439, and the window needs 10 recorded runs; 7 more runs meeting the target "
            "in a row are needed");
  const GraduationEvidence none = judge_graduation({}, 10, 0.7);
  EXPECT_EQ(none.runs, 0);
  EXPECT_EQ(none.more_met_runs_needed, 10);
}

TEST(GraduationRule, AMissCountsUntilItLeavesTheWindow) {
  // A miss, then nine met: one more met run pushes the miss out.
  const GraduationEvidence e = judge_graduation(repeated(9, 1), 10, 0.7);
  EXPECT_FALSE(e.graduates);
  EXPECT_EQ(e.met, 9);
  EXPECT_NEAR(e.lower, 0.5958500, 1e-6);
  EXPECT_EQ(e.more_met_runs_needed, 1);
  // Nine met, then a miss: the miss stays for nine more runs, so ten are needed.
  std::vector<bool> late_miss = repeated(9, 0);
  late_miss.push_back(false);
  EXPECT_EQ(judge_graduation(late_miss, 10, 0.7).more_met_runs_needed, 10);
  EXPECT_THAT(graduation_refusal(e), HasSubstr("below the threshold 0.7; 1 more run meeting the "
                                               "target in a row is needed"));
}

TEST(GraduationRule, ALongerWindowToleratesAMiss) {
  std::vector<bool> one_miss = repeated(19, 0);
  one_miss.insert(one_miss.begin() + 5, false);
  EXPECT_TRUE(judge_graduation(one_miss, 20, 0.7).graduates);  // 19 of 20: 0.764
  std::vector<bool> two_misses = one_miss;
  two_misses[10] = false;
  EXPECT_FALSE(judge_graduation(two_misses, 20, 0.7).graduates);  // 18 of 20: 0.699
}

TEST(GraduationRule, AThresholdNoFullWindowReachesIsSaidToBeUnreachable) {
  // 10 of 10 reach 0.722 only: 0.8 needs a window of 16.
  const GraduationEvidence e = judge_graduation(repeated(10, 0), 10, 0.8);
  EXPECT_FALSE(e.graduates);
  EXPECT_FALSE(e.more_met_runs_needed.has_value());
  EXPECT_THAT(graduation_refusal(e),
              HasSubstr("even 10 of 10 would not reach 0.8: give a longer --last or a lower "
                        "--min-lower-bound"));
  EXPECT_TRUE(judge_graduation(repeated(16, 0), 16, 0.8).graduates);
  EXPECT_FALSE(judge_graduation(repeated(15, 0), 15, 0.8).graduates);
}

TEST(GraduationRule, RefusesAWindowOrThresholdThatCannotDecide) {
  EXPECT_THROW(judge_graduation(repeated(5, 0), 1, 0.7), std::invalid_argument);
  EXPECT_THROW(judge_graduation(repeated(5, 0), 5, 0.0), std::invalid_argument);
  EXPECT_THROW(judge_graduation(repeated(5, 0), 5, 1.0), std::invalid_argument);
}

BaselineFile file_with_demotion() {
  BaselineFile file;
  file.provenance.version = 3;
  file.tests["Capable"].config_hash = "abc";
  file.tests["Capable"].demotions.push_back({.metric = "accuracy",
                                             .demoted_at = "2026-12-05T00:00:00Z",
                                             .reason = "target raised",
                                             .graduated_at = "2026-12-01T00:00:00Z"});
  return file;
}

TEST(GraduationRecords, ADemotionReadsBackTheSame) {
  const BaselineFile file = file_with_demotion();
  const std::string text = render_baseline(file);
  EXPECT_THAT(text, HasSubstr("[[tests.Capable.demotions]]\nmetric = \"accuracy\"\n"
                              "demoted_at = \"2026-12-05T00:00:00Z\"\nreason = \"target raised\"\n"
                              "graduated_at = \"2026-12-01T00:00:00Z\"\n"));
  EXPECT_EQ(parse_baseline(text, "capable.toml"), file);
}

TEST(GraduationRecords, ADemotionWithoutAReasonIsRefused) {
  std::string text = render_baseline(file_with_demotion());
  text.replace(text.find("reason = \"target raised\"\n"), 25, "");
  try {
    parse_baseline(text, "capable.toml");
    ADD_FAILURE() << "accepted:\n" << text;
  } catch (const BaselineError& error) {
    EXPECT_THAT(error.what(), HasSubstr("demotions is missing 'reason'"));
  }
}

TEST(GraduationRecords, PromoteLeavesACapabilityToGraduate) {
  MetricRecord accuracy{.name = "accuracy", .value = 0.95, .direction = Direction::HigherIsBetter};
  accuracy.target = Target{Direction::HigherIsBetter, 0.9};
  MetricRecord steps{.name = "steps", .value = 100.0, .direction = Direction::MustEqual};
  const RunRecord run =
      run_record("runs/r1", "r1", "cpu-aaaa", "num-aaaa",
                 finished_test("Capable", "Fast.Capable", "capable_test.cc", {accuracy, steps}));
  PromotionRequest request = promotion_request("first", "2026-12-04T00:00:00Z");
  request.force = true;
  const std::vector<PlannedFile> promoted = plan_promotion(run, BaselineSet{}, request);
  ASSERT_EQ(promoted.size(), 1u);
  const BaselineTest& test = promoted[0].after.tests.at("Capable");
  EXPECT_TRUE(test.metrics.contains("steps"));
  EXPECT_FALSE(test.metrics.contains("accuracy"));
  EXPECT_THAT(promoted[0].skipped_values,
              ::testing::Contains(HasSubstr("Capable.accuracy: a capability (record_target)")));

  request.graduating = true;
  EXPECT_TRUE(
      plan_promotion(run, BaselineSet{}, request)[0].after.tests.at("Capable").metrics.contains(
          "accuracy"));
}

class CapturingSink final : public EventSink {
 public:
  void emit(const TestEvent& event) override { events.push_back(event); }
  std::vector<TestEvent> events;
};

class RecordTargetTest : public ::testing::Test {
 protected:
  void SetUp() override { set_current_test_context(&context_); }
  void TearDown() override { set_current_test_context(nullptr); }
  // The metric the test body sent, read back from the wire.
  MetricRecord sent(std::size_t i) const {
    const DecodedEvent decoded = decode_event_line(event_line(sink_.events.at(i)));
    EXPECT_TRUE(decoded.event.has_value()) << decoded.error;
    return std::get<MetricRecorded>(*decoded.event).metric;
  }

  CapturingSink sink_;
  TestContext context_{.sink = &sink_};
};

TEST_F(RecordTargetTest, ATargetTravelsWithItsMetricOverTheWire) {
  MlTest::record_target("val_loss", 2.71, Below{2.5});
  MlTest::record_target("accuracy", 0.8, Above{0.9});
  ASSERT_EQ(sink_.events.size(), 2u);
  const MetricRecord loss = sent(0);
  EXPECT_EQ(loss.value, 2.71);
  EXPECT_EQ(loss.direction, Direction::LowerIsBetter);
  EXPECT_EQ(loss.target, (Target{Direction::LowerIsBetter, 2.5}));
  EXPECT_EQ(sent(1).target, (Target{Direction::HigherIsBetter, 0.9}));
  EXPECT_EQ(sent(1).direction, Direction::HigherIsBetter);
}

TEST_F(RecordTargetTest, RefusesAThresholdThatIsNotFiniteATwiceRecordedNameAndASeededTest) {
  EXPECT_THROW(MlTest::record_target("a", 1.0, Below{std::numeric_limits<double>::infinity()}),
               std::invalid_argument);
  MlTest::record_target("a", 1.0, Below{2.0});
  try {
    MlTest::record_target("a", 1.5, Below{2.0}, "capable_test.cc", 12);
    ADD_FAILURE() << "recorded twice";
  } catch (const std::invalid_argument& error) {
    EXPECT_THAT(error.what(), HasSubstr("capable_test.cc:12: target 'a': recorded twice"));
  }
  context_.seeded = true;
  EXPECT_THROW(MlTest::record_target("b", 1.0, Above{0.5}), std::invalid_argument);
  EXPECT_EQ(sink_.events.size(), 1u);
}

}  // namespace
}  // namespace mlregress::internal
