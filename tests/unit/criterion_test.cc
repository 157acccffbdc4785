// Success criteria that a machine checks: `METRIC OP VALUE` parsed into a ratio to the baseline,
// a relative change or an absolute number, evaluated on the run's values, and written into
// notes.md's Result and results.json. Planted: a sentence taken for a criterion, a threshold on
// the wrong side of the baseline, a criterion on a metric nobody recorded reported as met, a value
// without a baseline judged against nothing, criteria lost on the way through results.json.
#include "comparison/criterion.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "builders.h"
#include "comparison/run_criteria.h"
#include "record/json_fields.h"
#include "renderers/experiment_result.h"
#include "storage/results_json.h"

namespace mlregress::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

Criterion parsed(const std::string& text) {
  const std::optional<Criterion> criterion = parse_criterion(text);
  EXPECT_TRUE(criterion.has_value()) << text;
  return criterion.value_or(Criterion{});
}

TEST(Criterion, ParsesRatiosRelativeChangesAndNumbers) {
  const Criterion ratio = parsed("val_loss <= 0.98x baseline");
  EXPECT_EQ(ratio.metric, "val_loss");
  EXPECT_EQ(ratio.op, CriterionOp::kLessOrEqual);
  EXPECT_EQ(ratio.kind, CriterionKind::kRatio);
  EXPECT_DOUBLE_EQ(ratio.value, 0.98);
  EXPECT_EQ(ratio.text, "val_loss <= 0.98x baseline");

  const Criterion speed = parsed("tokens_per_s >= 1.15x");
  EXPECT_EQ(speed.op, CriterionOp::kGreaterOrEqual);
  EXPECT_EQ(speed.kind, CriterionKind::kRatio);
  EXPECT_DOUBLE_EQ(speed.value, 1.15);

  const Criterion relative = parsed("accuracy>+0.5%");
  EXPECT_EQ(relative.op, CriterionOp::kGreater);
  EXPECT_EQ(relative.kind, CriterionKind::kRelative);
  EXPECT_DOUBLE_EQ(relative.value, 0.5);
  EXPECT_DOUBLE_EQ(parsed("accuracy >= -2% baseline").value, -2.0);

  const Criterion absolute = parsed("  Fast.Passes.value < 1e-3 ");
  EXPECT_EQ(absolute.metric, "Fast.Passes.value");
  EXPECT_EQ(absolute.op, CriterionOp::kLess);
  EXPECT_EQ(absolute.kind, CriterionKind::kAbsolute);
  EXPECT_DOUBLE_EQ(absolute.value, 1e-3);
  EXPECT_EQ(parsed("accuracy[half_width] >= 0.9").metric, "accuracy[half_width]");
}

TEST(Criterion, ASentenceOrAHalfCriterionStaysText) {
  for (const char* text :
       {"no REGRESSION", "XorSeedStudy accuracy not INCONCLUSIVE", "loss falls, speed holds",
        "val_loss <= 0.98 baseline", "val_loss <= +0.5", "val_loss <=", "<= 0.98x",
        "val_loss == 0.98x", "val_loss <= 0.98x of the baseline", "val_loss <= fast", "1loss <= 2",
        ""}) {
    EXPECT_FALSE(parse_criterion(text).has_value()) << "'" << text << "' is not a criterion";
  }
}

TEST(Criterion, ARatioIsMeasuredAgainstTheBaseline) {
  const Criterion criterion = parsed("val_loss <= 0.98x baseline");
  const std::optional<CriterionCheck> better = evaluate_criterion(criterion, 1.5, 1.4);
  ASSERT_TRUE(better);
  EXPECT_TRUE(better->held);
  EXPECT_DOUBLE_EQ(better->threshold, 1.47);
  EXPECT_EQ(better->change, "0.9333x");

  const std::optional<CriterionCheck> worse = evaluate_criterion(criterion, 1.5, 1.48);
  ASSERT_TRUE(worse);
  EXPECT_FALSE(worse->held) << "1.48 is better than 1.5 but not by the 2% the criterion asks";
  EXPECT_FALSE(evaluate_criterion(criterion, std::nullopt, 1.4))
      << "a ratio without a baseline says nothing";
}

TEST(Criterion, ARelativeChangeCountsFromTheBaselinesMagnitude) {
  const Criterion criterion = parsed("tokens_per_s >= +15%");
  EXPECT_TRUE(evaluate_criterion(criterion, 100.0, 115.0)->held);
  EXPECT_FALSE(evaluate_criterion(criterion, 100.0, 114.9)->held);
  EXPECT_EQ(evaluate_criterion(criterion, 100.0, 120.0)->change, "+20%");
  // A negative baseline: +15% moves it up by 15% of its size, not towards zero by 15%.
  EXPECT_DOUBLE_EQ(evaluate_criterion(criterion, -10.0, 0.0)->threshold, -8.5);
}

TEST(Criterion, AnAbsoluteBoundNeedsNoBaselineAndNaNNeverHolds) {
  const Criterion criterion = parsed("final_loss < 0.01");
  const std::optional<CriterionCheck> alone = evaluate_criterion(criterion, std::nullopt, 0.005);
  ASSERT_TRUE(alone);
  EXPECT_TRUE(alone->held);
  EXPECT_EQ(alone->change, "");
  EXPECT_FALSE(evaluate_criterion(criterion, 0.02, 0.01)->held) << "< is strict";
  EXPECT_FALSE(evaluate_criterion(criterion, 0.02, std::numeric_limits<double>::quiet_NaN())->held);
  EXPECT_FALSE(evaluate_criterion(parsed("acc >= 0.5"), std::nullopt,
                                  std::numeric_limits<double>::quiet_NaN())
                   ->held);
}

TEST(RunCriteria, ItemsAreSplitBySemicolonsAndLinesNotCommas) {
  EXPECT_THAT(criteria_items("a <= 1x; b > 2\n- loss falls, speed holds\n\n* c < 3;"),
              ElementsAre("a <= 1x", "b > 2", "loss falls, speed holds", "c < 3"));
}

// Test T with `value` compared against the baseline 1.5, and test U with `value` 2.0 and no
// baseline.
RunResult run_with_value(double value) {
  RunResult run;
  TestResult t = finished_test("T", "Fast.T", "t.cc", {{"value", value, LowerIsBetter, {}}});
  MetricComparison c;
  c.metric = "value";
  c.observed = value;
  c.baseline = 1.5;
  t.comparisons.push_back(c);
  run.tests.push_back(t);
  run.tests.push_back(finished_test("U", "Fast.U", "u.cc", {{"other", 2.0, LowerIsBetter, {}}}));
  return run;
}

TEST(RunCriteria, EachCriterionIsMetNotMetNotEvaluatedOrText) {
  const std::vector<CheckedCriterion> checked = check_criteria(
      "value <= 0.98x baseline; val_loss <= 0.98x; no REGRESSION; other < 3", run_with_value(1.6));
  ASSERT_EQ(checked.size(), 4u);
  EXPECT_EQ(checked[0].status, CriterionStatus::kNotMet);
  ASSERT_EQ(checked[0].checks.size(), 1u);
  EXPECT_EQ(checked[0].checks[0].test, "Fast.T");
  EXPECT_EQ(checked[0].checks[0].baseline, 1.5);
  EXPECT_DOUBLE_EQ(checked[0].checks[0].observed, 1.6);
  EXPECT_EQ(checked[1].status, CriterionStatus::kNotEvaluated)
      << "a metric nobody recorded is never met";
  EXPECT_EQ(checked[1].note, "no test recorded val_loss");
  EXPECT_EQ(checked[2].status, CriterionStatus::kText);
  EXPECT_EQ(checked[3].status, CriterionStatus::kMet) << "an absolute bound needs no baseline";
  EXPECT_EQ(criteria_outcome(checked), "not met");

  EXPECT_EQ(check_criteria("value <= 0.98x", run_with_value(1.4)).at(0).status,
            CriterionStatus::kMet);
  EXPECT_EQ(criteria_outcome(check_criteria("value <= 0.98x; no REGRESSION", run_with_value(1.4))),
            "met");
  EXPECT_EQ(criteria_outcome(check_criteria("no REGRESSION", run_with_value(1.4))), "");
}

TEST(RunCriteria, ARatioOnATestWithoutABaselineIsNotEvaluated) {
  const CheckedCriterion checked = check_criteria("other <= 0.98x", run_with_value(1.4)).at(0);
  EXPECT_EQ(checked.status, CriterionStatus::kNotEvaluated);
  EXPECT_EQ(checked.note, "no baseline value for Fast.U");
  EXPECT_EQ(criteria_outcome({checked}), "not evaluated");
}

TEST(RunCriteria, TestDotMetricNamesOneTest) {
  RunResult run = run_with_value(1.4);
  run.tests[1].metrics.push_back({"value", 9.0, LowerIsBetter, {}});
  EXPECT_EQ(check_criteria("value < 2", run).at(0).status, CriterionStatus::kNotMet)
      << "U's value 9 fails it";
  const CheckedCriterion t_only = check_criteria("Fast.T.value < 2", run).at(0);
  EXPECT_EQ(t_only.status, CriterionStatus::kMet);
  ASSERT_EQ(t_only.checks.size(), 1u);
  EXPECT_EQ(t_only.checks[0].test, "Fast.T");
  EXPECT_EQ(check_criteria("T.value < 2", run).at(0).status, CriterionStatus::kMet);
}

TEST(RunCriteria, TheResultSaysMetOrNotWithTheNumbers) {
  RunResult run = run_with_value(1.6);
  run.criteria = check_criteria("value <= 0.98x baseline; val_loss < 1; loss falls", run);
  const std::string result = criteria_result(run.criteria);
  EXPECT_THAT(result, HasSubstr("criteria: not met (1 of 2)\n"));
  EXPECT_THAT(result, HasSubstr("- NOT met: value <= 0.98x baseline — Fast.T value 1.6 vs "
                                "baseline 1.5 (1.067x; allowed <= 1.47)\n"));
  EXPECT_THAT(result, HasSubstr("- not evaluated: val_loss < 1 — no test recorded val_loss\n"));
  EXPECT_THAT(result, HasSubstr("- not machine-checkable: loss falls\n"));
  EXPECT_THAT(experiment_result(run), HasSubstr("criteria: not met (1 of 2)"));

  run.criteria = check_criteria("value <= 2x", run);
  EXPECT_THAT(criteria_result(run.criteria), HasSubstr("criteria: met\n"));
  EXPECT_THAT(criteria_result(run.criteria), Not(HasSubstr("NOT")));
}

TEST(RunCriteria, ResultsJsonKeepsThemAndAnOlderFileHasNone) {
  RunResult run = run_with_value(1.6);
  run.info.run_id = "r";
  run.info.finished_at = "2026-12-04T00:00:00Z";
  run.criteria = check_criteria("value <= 0.98x baseline; val_loss < 1; loss falls", run);
  nlohmann::json json = run;
  EXPECT_EQ(json.at("criteria").at(0).at("status"), "not_met");
  EXPECT_EQ(json.get<RunResult>().criteria, run.criteria);
  json.erase("criteria");
  EXPECT_TRUE(json.get<RunResult>().criteria.empty());
  json["criteria"] = nlohmann::json::array({{{"text", "x < 1"}, {"status", "maybe"}}});
  EXPECT_THROW((void)json.get<RunResult>(), JsonFieldError);
}

}  // namespace
}  // namespace mlregress::internal
