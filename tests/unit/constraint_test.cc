// Constraints (`compare --constraint`, MlTest::constrain) and the scorecard: a text that does not
// say what it means is refused with what was expected, a bound is computed the way the docs say
// (a ratio to A, a change relative to |A|, a number), a metric nobody recorded never holds a
// constraint silently, and the scorecard names what improved, what got worse and what broke.
#include "comparison/constraint.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "builders.h"
#include "comparison/scorecard.h"
#include "execution/event_sink.h"
#include "execution/run_collector.h"
#include "execution/run_plan.h"
#include "execution/seed_runs.h"
#include "execution/test_context.h"
#include "execution/test_events.h"
#include "mlregress/ml_test.h"
#include "renderers/scorecard_report.h"
#include "storage/results_json.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

Constraint parsed(const std::string& text) {
  const ParsedConstraint p = parse_constraint(text);
  EXPECT_TRUE(p.constraint.has_value()) << p.error;
  return p.constraint.value_or(Constraint{});
}

TEST(ConstraintParse, ReadsARatioARelativeChangeAndANumber) {
  const Constraint ratio = parsed("peak_bytes_per_step <= 1.10x");
  EXPECT_EQ(ratio.metric, "peak_bytes_per_step");
  EXPECT_EQ(ratio.op, ConstraintOp::kLessEqual);
  EXPECT_EQ(ratio.bound, ConstraintBound::kRatio);
  EXPECT_DOUBLE_EQ(ratio.value, 1.10);

  const Constraint relative = parsed("  val_loss<=+0.5% ");
  EXPECT_EQ(relative.text, "val_loss<=+0.5%");  // as written, the blanks around it removed
  EXPECT_EQ(relative.metric, "val_loss");
  EXPECT_EQ(relative.bound, ConstraintBound::kRelative);
  EXPECT_DOUBLE_EQ(relative.value, 0.005);

  const Constraint down = parsed("accuracy > -2%");
  EXPECT_EQ(down.op, ConstraintOp::kGreater);
  EXPECT_DOUBLE_EQ(down.value, -0.02);

  const Constraint absolute = parsed("nonfinite_count < 1");
  EXPECT_EQ(absolute.op, ConstraintOp::kLess);
  EXPECT_EQ(absolute.bound, ConstraintBound::kAbsolute);
  EXPECT_DOUBLE_EQ(absolute.value, 1.0);

  EXPECT_EQ(parsed("tokens_per_s >= 1.15x").op, ConstraintOp::kGreaterEqual);
  EXPECT_EQ(parsed("accuracy[half_width] >= 0.9").metric, "accuracy[half_width]");
}

TEST(ConstraintParse, RefusesWhatIsNoConstraintNamingTheTextAndWhatWasExpected) {
  for (const std::string text :
       {"val_loss", "<= 2", "val_loss == 2", "val_loss != 2", "val loss <= 2",
        "val_loss <=", "val_loss <= abc", "val_loss <= 1.1y", "val_loss <= <= 2", "val_loss <= nan",
        "val_loss <= inf", "val_loss <= %", "val_loss <= x", "val_loss => 2", "val_loss <= ++1%"}) {
    const ParsedConstraint p = parse_constraint(text);
    EXPECT_FALSE(p.constraint.has_value()) << text;
    EXPECT_THAT(p.error, HasSubstr("constraint '" + text + "'")) << text;
    EXPECT_THAT(p.error, HasSubstr("expected METRIC OP VALUE")) << text;
  }
}

TEST(ConstraintParse, TheCommandLinesBadTextIsAUsageError) {
  EXPECT_EQ(parse_constraints({"a <= 1x", "b >= 2"}).size(), 2u);
  try {
    parse_constraints({"a <= 1x", "b >> 2"});
    FAIL() << "a bad constraint was accepted";
  } catch (const ConfigError& error) {
    EXPECT_EQ(error.exit_code(), ExitCode::kUsageError);
    EXPECT_THAT(error.what(), HasSubstr("--constraint: constraint 'b >> 2'"));
  }
}

TEST(ConstraintCheck, ARatioBoundIsThatMultipleOfA) {
  const Constraint c = parsed("peak_bytes <= 1.10x");
  const ConstraintCheck held = check_constraint(c, 1000.0, 1090.0);
  EXPECT_EQ(held.status, ConstraintStatus::kHeld);
  EXPECT_DOUBLE_EQ(*held.limit, 1100.0);
  const ConstraintCheck broken = check_constraint(c, 1000.0, 1250.0);
  EXPECT_EQ(broken.status, ConstraintStatus::kViolated);
  EXPECT_TRUE(is_violation(broken));
  EXPECT_EQ(describe_check(broken),
            "peak_bytes <= 1.10x: B 1250 > limit 1100 (1.1 × A 1000) VIOLATED");
  EXPECT_EQ(describe_check(held), "peak_bytes <= 1.10x: B 1090 <= limit 1100 (1.1 × A 1000) held");
}

TEST(ConstraintCheck, ARelativeBoundMovesByAFractionOfTheSizeOfA) {
  const Constraint c = parsed("val_loss <= +0.5%");
  EXPECT_EQ(check_constraint(c, 2.0, 2.009).status, ConstraintStatus::kHeld);
  const ConstraintCheck broken = check_constraint(c, 2.0, 2.02);
  EXPECT_EQ(broken.status, ConstraintStatus::kViolated);
  EXPECT_DOUBLE_EQ(*broken.limit, 2.01);
  EXPECT_EQ(describe_check(broken), "val_loss <= +0.5%: B 2.02 > limit 2.01 (A 2 +0.5%) VIOLATED");
  // A negative A: +0.5% still allows a rise of 0.5% of its size, never a fall.
  const ConstraintCheck negative = check_constraint(c, -2.0, -1.995);
  EXPECT_DOUBLE_EQ(*negative.limit, -1.99);
  EXPECT_EQ(negative.status, ConstraintStatus::kHeld);
  EXPECT_EQ(check_constraint(c, -2.0, -1.98).status, ConstraintStatus::kViolated);
}

TEST(ConstraintCheck, AnAbsoluteBoundNeedsNoA) {
  const Constraint c = parsed("nonfinite_count <= 0");
  EXPECT_EQ(check_constraint(c, std::nullopt, 0.0).status, ConstraintStatus::kHeld);
  EXPECT_EQ(check_constraint(c, std::nullopt, 3.0).status, ConstraintStatus::kViolated);
  // Strict: equality breaks "<".
  EXPECT_EQ(check_constraint(parsed("n < 3"), std::nullopt, 3.0).status,
            ConstraintStatus::kViolated);
}

TEST(ConstraintCheck, ANanOrAMissingValueNeverHoldsAConstraint) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Constraint c = parsed("val_loss <= +0.5%");
  EXPECT_EQ(check_constraint(c, 2.0, nan).status, ConstraintStatus::kViolated);
  EXPECT_EQ(check_constraint(c, nan, 2.0).status, ConstraintStatus::kViolated);
  const ConstraintCheck missing = check_constraint(c, 2.0, std::nullopt);
  EXPECT_EQ(missing.status, ConstraintStatus::kNotRecorded);
  EXPECT_TRUE(is_violation(missing));
  EXPECT_EQ(describe_check(missing), "val_loss <= +0.5%: NOT RECORDED (B did not record val_loss)");
  // A bound relative to A with no A is not evaluated, and says so; it does not fail.
  const ConstraintCheck open = check_constraint(c, std::nullopt, 2.0);
  EXPECT_EQ(open.status, ConstraintStatus::kNoBaseline);
  EXPECT_FALSE(is_violation(open));
  EXPECT_THAT(describe_check(open), HasSubstr("not evaluated, A holds no value of val_loss"));
}

// Planted: a ratio to a negative or zero A. 1.10x of A = -2 is -2.2, below A, so B = A would
// "violate" a bound meant to allow 10% more; of A = 0 every positive B would. Not evaluated.
TEST(ConstraintCheck, ARatioToANonPositiveAIsNotEvaluated) {
  const Constraint c = parsed("score <= 1.10x");
  for (const double a : {-2.0, 0.0}) {
    const ConstraintCheck check = check_constraint(c, a, a);
    EXPECT_EQ(check.status, ConstraintStatus::kNoBaseline) << a;
    EXPECT_FALSE(is_violation(check)) << a;
    EXPECT_THAT(describe_check(check), HasSubstr("a ratio to A needs A > 0")) << a;
  }
  EXPECT_EQ(check_constraint(c, 2.0, 2.0).status, ConstraintStatus::kHeld);
  EXPECT_EQ(check_constraint(c, 2.0, 2.3).status, ConstraintStatus::kViolated);
}

MetricComparison compared(const std::string& metric, double a, double b, Verdict verdict) {
  MetricComparison c;
  c.metric = metric;
  c.baseline = a;
  c.observed = b;
  c.verdict = verdict;
  return c;
}

TestResult experiment_b() {
  TestResult b = finished_test("Exp", "Fast.Exp", "exp.cc",
                               {{"val_loss", 2.02, Direction::LowerIsBetter, {}, {}, {}, {}},
                                {"tokens_per_s", 1300.0, Direction::HigherIsBetter, {}, {}, {}, {}},
                                {"peak_bytes", 1250.0, Direction::LowerIsBetter, {}, {}, {}, {}}});
  b.comparisons = {compared("val_loss", 2.0, 2.02, Verdict::kPass),
                   compared("tokens_per_s", 1000.0, 1300.0, Verdict::kImproved),
                   compared("peak_bytes", 1000.0, 1250.0, Verdict::kRegression)};
  return b;
}

TEST(ConstraintCheck, TheCommandLineAppliesToTestsThatRecordedTheMetricAndDeclaredOnesAlways) {
  TestResult b = experiment_b();
  const std::vector<Constraint> cli = {parsed("tokens_per_s >= 1.15x"), parsed("other <= 1x")};
  std::vector<ConstraintCheck> checks = check_test_constraints(b, nullptr, cli);
  ASSERT_EQ(checks.size(), 1u);  // "other" is no metric of this test
  EXPECT_EQ(checks[0].status, ConstraintStatus::kHeld);

  b.constraints = {"val_loss <= +0.5%", "grad_norm <= 10"};
  checks = check_test_constraints(b, nullptr, cli);
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_TRUE(checks[0].constraint.declared);
  EXPECT_EQ(checks[0].status, ConstraintStatus::kViolated);     // 2.02 > 2.01
  EXPECT_EQ(checks[1].status, ConstraintStatus::kNotRecorded);  // declared, never recorded
  EXPECT_FALSE(checks[2].constraint.declared);
  EXPECT_THAT(violated_declared_constraints(b),
              ElementsAre(HasSubstr("val_loss <= +0.5%: B 2.02 > limit 2.01"),
                          HasSubstr("grad_norm <= 10: NOT RECORDED")));

  b.constraints = {"val_loss <= 2x2"};  // a results.json edited by hand
  EXPECT_THROW(check_test_constraints(b, nullptr, cli), ConfigError);
}

TEST(Scorecard, ListsEveryMetricWithItsChangeDirectionVerdictAndConstraint) {
  TestResult b = experiment_b();
  TestResult a = finished_test("Exp", "Fast.Exp", "exp.cc",
                               {{"val_loss", 2.0, Direction::LowerIsBetter, {}, {}, {}, {}},
                                {"compile_s", 3.0, Direction::LowerIsBetter, {}, {}, {}, {}}});
  const std::vector<Constraint> cli = {parsed("peak_bytes <= 1.10x")};
  const TestScorecard card = build_scorecard(b, &a, cli);
  ASSERT_EQ(card.rows.size(), 4u);
  EXPECT_EQ(card.rows[2].metric, "peak_bytes");
  EXPECT_DOUBLE_EQ(*card.rows[2].ratio(), 1.25);
  EXPECT_DOUBLE_EQ(*card.rows[2].relative(), 0.25);
  EXPECT_EQ(card.rows[3].metric, "compile_s");  // only in A
  EXPECT_FALSE(card.rows[3].b.has_value());
  EXPECT_THAT(card.improved(), ElementsAre("tokens_per_s"));
  EXPECT_THAT(card.worse(), ElementsAre("peak_bytes"));
  EXPECT_THAT(card.only_in_a(), ElementsAre("compile_s"));
  ASSERT_EQ(card.violated().size(), 1u);
  EXPECT_EQ(card.violated()[0].constraint.text, "peak_bytes <= 1.10x");

  const std::string text = format_scorecard(card);
  EXPECT_THAT(text, HasSubstr("SCORECARD Fast.Exp (A -> B)"));
  EXPECT_THAT(text, HasSubstr("direction"));
  EXPECT_THAT(text, HasSubstr("higher_is_better"));
  EXPECT_THAT(text, HasSubstr("IMPROVED"));
  EXPECT_THAT(text, HasSubstr("1.25x"));
  EXPECT_THAT(text, HasSubstr("+25%"));
  EXPECT_THAT(text, HasSubstr("peak_bytes <= 1.10x: B 1250 > limit 1100 (1.1 × A 1000) VIOLATED"));
  EXPECT_THAT(text, HasSubstr("improved: tokens_per_s; worse: peak_bytes; constraints violated: "
                              "peak_bytes <= 1.10x; not in B: compile_s"));
  EXPECT_THAT(text, Not(HasSubstr(" \n")));  // no blanks at the end of a line
}

TEST(Scorecard, SaysNoneWhenNothingMovedAndEscapesItsHtml) {
  TestResult b = finished_test("T", "Fast.T", "t.cc",
                               {{"<b>loss</b>", 1.0, Direction::MustEqual, {}, {}, {}, {}}});
  b.comparisons = {compared("<b>loss</b>", 1.0, 1.0, Verdict::kPass)};
  const TestScorecard card = build_scorecard(b, nullptr, {});
  EXPECT_EQ(scorecard_summary(card), "improved: none; worse: none; constraints violated: none");
  const std::string html = scorecard_html(card);
  EXPECT_THAT(html, HasSubstr("&lt;b&gt;loss&lt;/b&gt;"));
  EXPECT_THAT(html, Not(HasSubstr("<b>loss")));
  EXPECT_THAT(html, HasSubstr("must_equal"));
  EXPECT_THAT(html, HasSubstr("<table class=\"scorecard\">"));
}

TEST(ConstraintExitCode, ADeclaredConstraintBrokenFailsTheRunAfterARegression) {
  RunResult run;
  run.info.finished_at = "2026-12-06T00:00:00Z";
  run.tests.push_back(ended_test("A", Tier::Fast, TestStatus::kPassed, 0.1, "h"));
  EXPECT_EQ(run_exit_code(run, {}), ExitCode::kPassed);
  run.tests[0].constraints_violated = {
      "val_loss <= +0.5%: B 2.02 > limit 2.01 (A 2 +0.5%) VIOLATED"};
  EXPECT_EQ(run_exit_code(run, {}), ExitCode::kConstraintViolated);
  EXPECT_STREQ(exit_code_name(ExitCode::kConstraintViolated), "constraint_violated");
  EXPECT_EQ(static_cast<int>(ExitCode::kConstraintViolated), 12);
  run.tests.push_back(ended_test("B", Tier::Fast, TestStatus::kRegressed, 0.1, "h"));
  EXPECT_EQ(run_exit_code(run, {}), ExitCode::kRegression);
}

TEST(ConstraintResultsJson, TheDeclaredAndBrokenConstraintsReadBackAndOldFilesHaveNone) {
  RunResult run;
  run.info.run_id = "r";
  run.info.finished_at = "2026-12-06T00:00:01Z";
  TestResult test = ended_test("A", Tier::Fast, TestStatus::kPassed, 0.1, "h");
  test.constraints = {"val_loss <= +0.5%", "peak_bytes <= 1.10x"};
  test.constraints_violated = {"peak_bytes <= 1.10x: B 1250 > limit 1100 (1.1 × A 1000) VIOLATED"};
  run.tests.push_back(test);
  nlohmann::json written = run;
  const RunResult back = written.get<RunResult>();
  EXPECT_EQ(back.tests.at(0).constraints, test.constraints);
  EXPECT_EQ(back.tests.at(0).constraints_violated, test.constraints_violated);

  written["tests"][0].erase("constraints");
  written["tests"][0].erase("constraints_violated");
  EXPECT_TRUE(written.get<RunResult>().tests.at(0).constraints.empty());
  run.tests[0].constraints.clear();
  run.tests[0].constraints_violated.clear();
  EXPECT_FALSE(nlohmann::json(run)["tests"][0].contains("constraints"));  // nothing new written
}

class CapturingSink final : public EventSink {
 public:
  void emit(const TestEvent& event) override { events.push_back(event); }
  std::vector<TestEvent> events;
};

class ConstrainTest : public ::testing::Test {
 protected:
  void SetUp() override { set_current_test_context(&context_); }
  void TearDown() override { set_current_test_context(nullptr); }

  CapturingSink sink_;
  TestContext context_{.sink = &sink_};
};

TEST_F(ConstrainTest, ATestDeclaresAConstraintAsAnEventAndABadOneThrowsAtItsLine) {
  MlTest::constrain("  val_loss <= +0.5% ");
  ASSERT_EQ(sink_.events.size(), 1u);
  EXPECT_EQ(std::get<ConstraintDeclared>(sink_.events[0]).text, "val_loss <= +0.5%");
  try {
    MlTest::constrain("val_loss ~ 2", "model_test.cc", 12);
    ADD_FAILURE() << "a bad constraint was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_THAT(error.what(), HasSubstr("model_test.cc:12: constrain: constraint 'val_loss ~ 2'"));
  }
  EXPECT_EQ(sink_.events.size(), 1u);  // nothing sent for it
}

TEST(Constrain, TheWireTheCollectorAndTheSeedsKeepEachTextOnce) {
  const DecodedEvent decoded = decode_event_line(event_line(ConstraintDeclared{"a <= 1.1x"}));
  ASSERT_TRUE(decoded.event.has_value()) << decoded.error;
  EXPECT_EQ(std::get<ConstraintDeclared>(*decoded.event).text, "a <= 1.1x");

  const RegisteredTest lm = registered_test(Tier::Fast, "Fast", "Lm", "lm_test.cc", 3, {});
  const RunPlan plan = make_run_plan({&lm}, {}, {}, RunSettings{});
  RunResult run;
  RunCollector collector(plan, run, {});
  collector.start_run();
  collector.handle(TestStarted{"Fast.Lm", "2026-12-06T09:00:00.000Z"});
  collector.handle(ConstraintDeclared{"a <= 1.1x"});
  collector.handle(ConstraintDeclared{"b >= 2"});
  collector.handle(ConstraintDeclared{"a <= 1.1x"});
  collector.handle(TestEnded{"Fast.Lm", true, false, 0.25});
  collector.finish_run();
  ASSERT_EQ(run.tests.size(), 1u);
  EXPECT_THAT(run.tests[0].constraints, ElementsAre("a <= 1.1x", "b >= 2"));

  TestResult seeded;
  seeded.seeded = true;
  seeded.seed_runs.resize(2);
  seeded.seed_runs[0].constraints = {"a <= 1.1x"};
  seeded.seed_runs[1].seed = 1;
  seeded.seed_runs[1].constraints = {"a <= 1.1x", "c < 3"};
  summarize_seed_runs(seeded);
  EXPECT_THAT(seeded.constraints, ElementsAre("a <= 1.1x", "c < 3"));
}

}  // namespace
}  // namespace mlregress::internal
