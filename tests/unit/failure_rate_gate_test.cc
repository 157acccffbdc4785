// The failure-rate gate below the runner: the looks and their decision (a run of failures is a
// REGRESSION at the first look that shows it, clean attempts PASS, an undecided gate is
// INCONCLUSIVE at its cap), the comparison's verdicts (NEW, NOT_COMPARABLE, HigherIsBetter
// outcomes), the baseline file's failures, trials and interval (written, read back, bad input
// refused with its line), a flaky-aware test's attempts summarised without failing it, JUnit
// that keeps every failed attempt, and record() refusing a FailureRate that cannot gate.
#include "analysis/failure_rate_gate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <pugixml.hpp>
#include <string>
#include <vector>

#include "baseline_edits.h"
#include "baselines/baseline_toml.h"
#include "comparison/comparator.h"
#include "execution/event_sink.h"
#include "execution/seed_runs.h"
#include "execution/test_context.h"
#include "mlregress/ml_test.h"
#include "observers/junit_reporter.h"
#include "record/run_result.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;

std::vector<double> outcomes(int failures, int passes, bool failures_first = true) {
  std::vector<double> out;
  for (int i = 0; i < failures + passes; ++i) {
    out.push_back(failures_first ? (i < failures ? 1.0 : 0.0) : (i < passes ? 0.0 : 1.0));
  }
  return out;
}

TEST(FailureRateGate, ARunOfFailuresIsARegressionAtTheFirstLookThatShowsIt) {
  const FailureRateAnalysis a =
      analyse_failure_rate(outcomes(4, 56), 2, 100, 0.2, /*block=*/4, /*cap=*/60, 0.01);
  EXPECT_EQ(a.decision, stats::RateDecision::kRegression);
  EXPECT_EQ(a.looks.size(), 1u);
  EXPECT_EQ(a.trials, 4);
  EXPECT_EQ(a.failures, 4);
  EXPECT_LE(a.size, 0.01);
  EXPECT_GE(a.power, 0.9);
  EXPECT_THAT(describe_failure_rate(a, "attempts"), HasSubstr("4 of 4 attempts failed"));
  EXPECT_THAT(describe_failure_rate(a, "attempts"), HasSubstr("significantly higher at look 1"));
}

TEST(FailureRateGate, CleanAttemptsPassOnceARiseIsRuledOut) {
  const FailureRateAnalysis a = analyse_failure_rate(outcomes(0, 60), 2, 100, 0.2, 4, 60, 0.01);
  EXPECT_EQ(a.decision, stats::RateDecision::kPass);
  EXPECT_LT(a.trials, 60) << "a pass needs no more attempts than the design asks for";
  EXPECT_GT(a.trials, 4) << "four clean attempts cannot rule out a 20% rate";
  EXPECT_THAT(describe_failure_rate(a, "attempts"), HasSubstr("a rise to 20.0% ruled out"));
}

TEST(FailureRateGate, OnlyTheOutcomesUpToTheDecidingLookCount) {
  // Failures after the pass was decided are attempts the gate never needed.
  std::vector<double> late = outcomes(0, 60);
  for (std::size_t i = 40; i < 60; ++i) late[i] = 1.0;
  const FailureRateAnalysis a = analyse_failure_rate(late, 2, 100, 0.2, 4, 60, 0.01);
  EXPECT_EQ(a.decision, stats::RateDecision::kPass);
  EXPECT_EQ(a.failures, 0);
}

TEST(FailureRateGate, FewerOutcomesThanTheNextLookLeaveItUndecided) {
  const FailureRateAnalysis a = analyse_failure_rate(outcomes(0, 3), 2, 100, 0.2, 4, 60, 0.01);
  EXPECT_EQ(a.decision, stats::RateDecision::kContinue);
  EXPECT_TRUE(a.looks.empty());
  EXPECT_EQ(a.trials, 3);
}

TEST(FailureRateGate, AnUndecidedGateAtItsCapIsInconclusive) {
  // 1 failure in 8: between 2% and 20%, and a cap of 8 cannot tell.
  const FailureRateAnalysis a =
      analyse_failure_rate(outcomes(1, 7, false), 2, 100, 0.2, 4, 8, 0.01);
  EXPECT_EQ(a.decision, stats::RateDecision::kInconclusive);
  EXPECT_EQ(a.looks.size(), 2u);
}

TEST(FailureRateGate, ABaselineNearTheRateToDetectLooksForADoubling) {
  EXPECT_DOUBLE_EQ(rate_to_detect(0.02, 0.2), 0.2);
  EXPECT_DOUBLE_EQ(rate_to_detect(0.15, 0.2), 0.3);
  const FailureRateAnalysis a = analyse_failure_rate(outcomes(0, 10), 15, 100, 0.2, 4, 60, 0.01);
  EXPECT_NEAR(a.detect_rate, 2.0 * baseline_reference_rate(15, 100), 1e-12);
  EXPECT_GT(baseline_reference_rate(15, 100), 0.15) << "an upper estimate of the baseline's rate";
}

TEST(FailureRateGate, ABaselineThatFailsMostOfTheTimeCannotBeGated) {
  const FailureRateAnalysis a = analyse_failure_rate(outcomes(1, 3), 60, 100, 0.2, 4, 60, 0.01);
  EXPECT_EQ(a.decision, stats::RateDecision::kInconclusive);
  EXPECT_THAT(a.problem, HasSubstr("too high for a rise to be detected"));
}

TEST(FailureRateGate, ACapTooSmallToRuleOutARiseNeverPasses) {
  // Eight attempts cannot tell 3% from 30% with 90% power: clean ones are INCONCLUSIVE.
  const FailureRateAnalysis a = analyse_failure_rate(outcomes(0, 8), 0, 8, 0.3, 4, 8, 0.01);
  EXPECT_FALSE(a.pass_allowed);
  EXPECT_EQ(a.decision, stats::RateDecision::kInconclusive);
  EXPECT_THAT(describe_failure_rate(a, "attempts"), HasSubstr("too few to rule out a rise"));
  // With enough attempts the same clean outcomes pass.
  EXPECT_EQ(analyse_failure_rate(outcomes(0, 60), 0, 60, 0.3, 4, 60, 0.01).decision,
            stats::RateDecision::kPass);
}

TEST(FailureRateGate, AnAlphaOfOneHalfOrMoreIsAProblemNotACrash) {
  const FailureRateAnalysis a = analyse_failure_rate(outcomes(0, 8), 2, 100, 0.2, 4, 60, 0.5);
  EXPECT_EQ(a.decision, stats::RateDecision::kInconclusive);
  EXPECT_THAT(a.problem, HasSubstr("alpha < 0.5"));
}

TEST(FailureRateGate, NoBaselineTrialsIsRefused) {
  EXPECT_THROW(analyse_failure_rate(outcomes(0, 4), 0, 0, 0.2, 4, 60, 0.01), std::invalid_argument);
}

MetricRecord rate_metric(std::vector<double> samples, Direction direction = LowerIsBetter) {
  MetricRecord m{"diverged", 0.0, direction, FailureRate{}, std::move(samples), {}};
  for (std::size_t i = 0; i < m.samples.size(); ++i) m.sample_seeds.push_back(i);
  return m;
}

BaselineMetric rate_baseline(int failures, int trials) {
  BaselineMetric b;
  b.policy = FailureRate{};
  b.failure_count = FailureCount{failures, trials};
  b.value = static_cast<double>(failures) / trials;
  return b;
}

TEST(CompareFailureRate, WithoutABaselineItIsNewAndCountsTheFailures) {
  const MetricComparison c =
      compare_failure_rate(rate_metric(outcomes(3, 9)), nullptr, 4, 60, 0.01, "seeds");
  EXPECT_EQ(c.verdict, Verdict::kNew);
  EXPECT_EQ(c.kind, MetricKind::kRate);
  EXPECT_DOUBLE_EQ(c.observed, 0.25);
  EXPECT_THAT(c.note, HasSubstr("3 of 12 failed"));
}

TEST(CompareFailureRate, AnotherKindOfBaselineIsNotComparable) {
  BaselineMetric margin;
  margin.policy = Margin{};
  margin.samples = {0.5, 0.6};
  margin.seeds = {0, 1};
  EXPECT_EQ(
      compare_failure_rate(rate_metric(outcomes(0, 8)), &margin, 4, 60, 0.01, "seeds").verdict,
      Verdict::kNotComparable);
}

TEST(CompareFailureRate, RegressionPassAndInconclusiveComeFromTheLooks) {
  const BaselineMetric base = rate_baseline(2, 100);
  EXPECT_EQ(compare_failure_rate(rate_metric(outcomes(4, 56)), &base, 4, 60, 0.01, "seeds").verdict,
            Verdict::kRegression);
  EXPECT_EQ(compare_failure_rate(rate_metric(outcomes(0, 60)), &base, 4, 60, 0.01, "seeds").verdict,
            Verdict::kPass);
  const MetricComparison undecided =
      compare_failure_rate(rate_metric(outcomes(0, 3)), &base, 4, 60, 0.01, "seeds");
  EXPECT_EQ(undecided.verdict, Verdict::kInconclusive);
  EXPECT_EQ(undecided.rate->decision, stats::RateDecision::kContinue);
}

TEST(CompareFailureRate, HigherIsBetterOutcomesFailOnZero) {
  const BaselineMetric base = rate_baseline(2, 100);
  // reached_target: four misses (0) in a row.
  const MetricComparison c = compare_failure_rate(
      rate_metric({0, 0, 0, 0, 1, 1, 1, 1}, HigherIsBetter), &base, 4, 60, 0.01, "seeds");
  EXPECT_EQ(c.verdict, Verdict::kRegression);
  EXPECT_DOUBLE_EQ(c.observed, 0.5);
}

BaselineFile file_with(const BaselineMetric& metric) {
  BaselineFile file = file_of_one_environment();
  file.tests["Flaky"].metrics["failure_rate"] = metric;
  return file;
}

TEST(FailureRateBaseline, FailuresTrialsAndTheirIntervalAreWrittenAndReadBack) {
  const BaselineFile file = file_with(rate_baseline(2, 100));
  const std::string text = render_baseline(file);
  EXPECT_THAT(text, HasSubstr("policy = \"failure_rate\"\ndetect = 0.2\n"));
  EXPECT_THAT(text, HasSubstr("failures = 2\ntrials = 100\ninterval = [0.00243"));
  EXPECT_EQ(parse_baseline(text, "flaky.toml"), file);
}

TEST(FailureRateBaseline, BadCountsAreRefusedWithTheirLine) {
  const std::string good = render_baseline(file_with(rate_baseline(2, 100)));
  const auto refusal = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    return error_of(text, "flaky.toml");
  };
  EXPECT_THAT(refusal("failures = 2", "failures = 101"),
              HasSubstr("failures must be between 0 and 100"));
  EXPECT_THAT(refusal("trials = 100", "trials = 0"), HasSubstr("trials must be between 1"));
  EXPECT_THAT(refusal("trials = 100\n", ""), HasSubstr("is missing 'trials'"));
  EXPECT_THAT(refusal("detect = 0.2", "detect = 1.5"), HasSubstr("detect must be a rate"));
  EXPECT_THAT(refusal("failures = 2", "value = 0.02\nfailures = 2"),
              HasSubstr("'value' does not apply to policy \"failure_rate\""));
  EXPECT_THAT(refusal("failures = 2", "failures = 2.5"), HasSubstr("flaky.toml:"));
}

SeedRun attempt(std::uint64_t seed, TestStatus status, double steps) {
  SeedRun run;
  run.seed = seed;
  run.status = status;
  run.metrics.push_back({"steps", steps, LowerIsBetter, Exact{}});
  if (status == TestStatus::kFailed) run.failures.push_back({"flaky.cc", 7, "planted", false});
  if (status == TestStatus::kCrashed) run.crash_message = "killed by signal 6";
  return run;
}

TestResult flaky_test() {
  TestResult test;
  test.name = "SometimesFails";
  test.full_name = "Fast.SometimesFails";
  test.seeded = true;
  test.seed = 10;
  test.seed_block = 4;
  test.seed_cap = 60;
  test.attempts = FailureRate{};
  test.finished = true;
  test.seed_runs = {attempt(10, TestStatus::kFailed, 100), attempt(11, TestStatus::kPassed, 200),
                    attempt(12, TestStatus::kCrashed, 300), attempt(13, TestStatus::kPassed, 400)};
  return test;
}

TEST(Attempts, FailedAttemptsAreOutcomesNotFailuresOfTheTest) {
  TestResult test = flaky_test();
  EXPECT_EQ(summarize_seed_runs(test), TestStatus::kPassed);
  EXPECT_TRUE(test.failures.empty());
  ASSERT_EQ(test.metrics.size(), 2u);
  EXPECT_EQ(test.metrics[0].name, "steps");
  EXPECT_DOUBLE_EQ(test.metrics[0].value, 100) << "the first attempt's value, not a mean";
  EXPECT_EQ(test.metrics[1].name, kFailureRateMetric);
  EXPECT_EQ(test.metrics[1].samples, (std::vector<double>{1, 0, 1, 0}));
  EXPECT_EQ(attempt_label(test, test.seed_runs[2]), "attempt 3 (seed 12)");
}

TEST(Attempts, TheSameRunsWithoutAttemptsFailTheSeededTest) {
  TestResult test = flaky_test();
  test.attempts.reset();
  EXPECT_EQ(summarize_seed_runs(test), TestStatus::kCrashed);
}

pugi::xml_node testcase_of(const pugi::xml_document& doc) {
  return doc.select_node("//testcase[@name='SometimesFails']").node();
}

std::size_t children(pugi::xml_node node, const char* name) {
  std::size_t n = 0;
  for (pugi::xml_node child : node.children(name)) n += !child.empty();
  return n;
}

RunResult run_with(const TestResult& test) {
  RunResult run;
  run.info.binary = "flaky";
  run.tests.push_back(test);
  return run;
}

TEST(AttemptsJunit, APassingFlakyTestKeepsEachFailedAttemptAsFlakyFailureOrFlakyError) {
  TestResult test = flaky_test();
  test.status = summarize_seed_runs(test);
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(render_junit(run_with(test)).c_str()));
  const pugi::xml_node testcase = testcase_of(doc);
  EXPECT_TRUE(testcase.child("failure").empty());
  EXPECT_EQ(children(testcase, "flakyFailure"), 1u);
  EXPECT_EQ(children(testcase, "flakyError"), 1u);
  EXPECT_EQ(children(testcase, "rerunFailure") + children(testcase, "rerunError"), 0u);
  const pugi::xml_node failed = testcase.child("flakyFailure");
  EXPECT_EQ(std::string(failed.attribute("message").value()), "attempt 1 (seed 10): planted");
  EXPECT_EQ(std::string(failed.attribute("type").value()), "assertion");
  EXPECT_THAT(failed.child("stackTrace").text().get(), HasSubstr("flaky.cc:7"));
  EXPECT_EQ(std::string(testcase.child("flakyError").attribute("type").value()), "crash");
}

TEST(AttemptsJunit, ARegressedFlakyTestKeepsEachFailedAttemptAsRerunFailureOrRerunError) {
  TestResult test = flaky_test();
  test.status = summarize_seed_runs(test);
  test.status = TestStatus::kRegressed;
  MetricComparison c;
  c.metric = kFailureRateMetric;
  c.kind = MetricKind::kRate;
  c.verdict = Verdict::kRegression;
  MetricComparison steps;  // another value that regressed does not make the attempts reruns
  steps.metric = "steps";
  steps.verdict = Verdict::kRegression;
  c.observed = 0.5;
  c.baseline = 0.02;
  test.comparisons = {steps};
  {
    pugi::xml_document doc;
    ASSERT_TRUE(doc.load_string(render_junit(run_with(test)).c_str()));
    EXPECT_EQ(children(testcase_of(doc), "flakyFailure"), 1u);
    EXPECT_EQ(children(testcase_of(doc), "rerunFailure"), 0u);
  }
  test.comparisons = {steps, c};
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(render_junit(run_with(test)).c_str()));
  const pugi::xml_node testcase = testcase_of(doc);
  EXPECT_EQ(std::string(testcase.child("failure").attribute("type").value()), "regression");
  EXPECT_EQ(children(testcase, "rerunFailure"), 1u);
  EXPECT_EQ(children(testcase, "rerunError"), 1u);
  EXPECT_EQ(children(testcase, "flakyFailure") + children(testcase, "flakyError"), 0u);
}

TEST(AttemptsJunit, APlainSeededTestHasNoRerunElements) {
  TestResult test = flaky_test();
  test.attempts.reset();
  test.status = summarize_seed_runs(test);
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(render_junit(run_with(test)).c_str()));
  const pugi::xml_node testcase = testcase_of(doc);
  EXPECT_EQ(children(testcase, "flakyFailure") + children(testcase, "rerunFailure") +
                children(testcase, "flakyError") + children(testcase, "rerunError"),
            0u);
}

class CapturingSink final : public EventSink {
 public:
  void emit(const TestEvent& event) override { events.push_back(event); }
  std::vector<TestEvent> events;
};

class RecordFailureRateTest : public ::testing::Test {
 protected:
  void SetUp() override { set_current_test_context(&context_); }
  void TearDown() override { set_current_test_context(nullptr); }
  std::string refusal(double value, Direction direction, FailureRate policy = {}) {
    context_.recorded.clear();
    try {
      MlTest::record("diverged", value, direction, policy);
    } catch (const std::invalid_argument& error) {
      return error.what();
    }
    return "";
  }
  CapturingSink sink_;
  TestContext context_{.sink = &sink_};
};

TEST_F(RecordFailureRateTest, AnOutcomePerSeedIsRecorded) {
  context_.seeded = true;
  EXPECT_EQ(refusal(1.0, LowerIsBetter), "");
  EXPECT_EQ(refusal(0.0, HigherIsBetter), "");
  EXPECT_EQ(sink_.events.size(), 2u);
}

TEST_F(RecordFailureRateTest, AFlakyTestCannotRecordTheNameOfItsOwnRate) {
  context_.attempt = true;
  context_.recorded.clear();
  EXPECT_THROW(MlTest::record(kFailureRateMetric, 0.5, LowerIsBetter, Band{}),
               std::invalid_argument);
  EXPECT_NO_THROW(MlTest::record("failures_seen", 0.5, LowerIsBetter, Band{}));
}

TEST_F(RecordFailureRateTest, WhatCannotBeGatedAsARateIsRefused) {
  EXPECT_THAT(refusal(1.0, LowerIsBetter), HasSubstr("FailureRate gates one outcome per seed"));
  context_.seeded = true;
  EXPECT_THAT(refusal(0.5, LowerIsBetter), HasSubstr("a FailureRate outcome is 0 or 1"));
  EXPECT_THAT(refusal(1.0, MustEqual), HasSubstr("needs LowerIsBetter"));
  EXPECT_THAT(refusal(1.0, LowerIsBetter, FailureRate{.detect = 0.0}),
              HasSubstr("detect must be a rate between 0 and 1"));
  EXPECT_TRUE(sink_.events.empty());
}

}  // namespace
}  // namespace mlregress::internal
