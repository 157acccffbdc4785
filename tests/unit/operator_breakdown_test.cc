// The operators behind a cost counter's change: ranked by their share of the change, carried from
// the test's event to results.json and the baseline, and named in the verdict. Planted: a ranking
// by name (or by the operator's count instead of its change), a breakdown lost on the way to the
// baseline or kept for a value it no longer explains, a baseline that reads a misspelt or negative
// count, and a verdict that names no operator or claims one when the baseline has none.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/operator_diff.h"
#include "baselines/baseline_toml.h"
#include "baselines/promotion.h"
#include "builders.h"
#include "comparison/comparator.h"
#include "execution/event_sink.h"
#include "execution/test_context.h"
#include "execution/test_events.h"
#include "mlregress/ml_test.h"
#include "observers/regression_report.h"
#include "record/json_fields.h"
#include "storage/breakdown_json.h"

namespace mlregress::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Breakdown calls(std::map<std::string, std::int64_t> by_operator) {
  return {BreakdownUnit::Calls, std::move(by_operator)};
}

std::vector<std::string> names(const OperatorDiff& diff) {
  std::vector<std::string> out;
  for (const OperatorChange& c : diff.listed) out.push_back(c.name);
  return out;
}

// By name the order would be add, empty, mul, relu; by count in the run mul, add, relu, empty.
// Only the change ranks mul (+6), relu (+3, new), add (+1), empty (-1, gone... by 1): shares of 11.
TEST(OperatorDiff, RanksTheOperatorsByTheirShareOfTheChangeNotByNameOrCount) {
  const OperatorDiff diff =
      diff_operators(calls({{"aten::add", 10}, {"aten::empty", 1}, {"aten::mul", 20}}),
                     calls({{"aten::add", 11}, {"aten::mul", 26}, {"aten::relu", 3}}));
  EXPECT_THAT(names(diff), ElementsAre("aten::mul", "aten::relu", "aten::add", "aten::empty"));
  ASSERT_EQ(diff.listed.size(), 4u);
  EXPECT_EQ(diff.listed[0].delta(), 6);
  EXPECT_DOUBLE_EQ(diff.listed[0].share, 6.0 / 11.0);
  EXPECT_EQ(diff.listed[1].baseline, 0);  // new in this run
  EXPECT_EQ(diff.listed[3].observed, 0);  // no longer run
  EXPECT_EQ(diff.listed[3].delta(), -1);
  EXPECT_EQ(diff.more, 0u);
  EXPECT_EQ(describe_operator_diff(diff),
            "aten::mul +6 calls (55%), aten::relu +3 calls (27%), aten::add +1 calls (9%), "
            "aten::empty -1 calls (9%)");
}

TEST(OperatorDiff, AnOperatorThatFellCountsByItsSizeAndEqualSharesGoByName) {
  const OperatorDiff diff = diff_operators(calls({{"a", 5}, {"b", 50}, {"c", 5}}),
                                           calls({{"a", 7}, {"b", 10}, {"c", 3}}));
  EXPECT_THAT(names(diff), ElementsAre("b", "a", "c"));
}

TEST(OperatorDiff, ListsTheFirstFewAndCountsTheRest) {
  Breakdown before = calls({});
  Breakdown after = calls({});
  for (int i = 0; i < 8; ++i) after.by_operator["op" + std::to_string(i)] = 10 + i;
  const OperatorDiff diff = diff_operators(before, after, 3);
  EXPECT_THAT(names(diff), ElementsAre("op7", "op6", "op5"));
  EXPECT_EQ(diff.more, 5u);
  EXPECT_THAT(describe_operator_diff(diff), HasSubstr(", and 5 more"));
}

TEST(OperatorDiff, UnchangedOperatorsAreNotListed) {
  const OperatorDiff diff =
      diff_operators(calls({{"aten::add", 3}, {"aten::mul", 2}}), calls({{"aten::add", 3}}));
  EXPECT_THAT(names(diff), ElementsAre("aten::mul"));
  EXPECT_EQ(describe_operator_diff(diff_operators(calls({{"x", 1}}), calls({{"x", 1}}))),
            "no operator's calls changed");
}

TEST(OperatorDiff, BytesReadInBinaryUnitsAndBreakdownsOfAnotherUnitAreNotCompared) {
  const Breakdown before{BreakdownUnit::Bytes, {{"aten::empty", 1024}}};
  const Breakdown after{BreakdownUnit::Bytes, {{"aten::empty", 1024 + 262144}, {"aten::mul", 512}}};
  EXPECT_EQ(describe_operator_diff(diff_operators(before, after)),
            "aten::empty +256.0 KiB (100%), aten::mul +512 B (0%)");
  EXPECT_EQ(format_operator_delta(-3 * 1024 * 1024 - 100000, BreakdownUnit::Bytes), "-3.1 MiB");
  EXPECT_EQ(format_operator_delta(4, BreakdownUnit::Allocations), "+4 allocations");
  const OperatorDiff mixed = diff_operators(before, calls({{"aten::empty", 2}}));
  EXPECT_TRUE(mixed.listed.empty());
  EXPECT_THAT(mixed.missing, HasSubstr("the baseline's breakdown counts bytes, this run's calls"));
}

// ---------------------------------------------------------------- the gate

EnvironmentProfile profile(const std::string& numerics_id) {
  EnvironmentProfile p;
  p.id = "cpu-machine";
  p.numerics_id = numerics_id;
  return p;
}

BaselineMetric exact_ops(double value, std::map<std::string, Breakdown> breakdowns) {
  BaselineMetric m;
  m.direction = LowerIsBetter;
  m.policy = Exact{Scope::Numerics};
  m.by_environment["cpu-avx2-aaaa"] = value;
  m.breakdowns = std::move(breakdowns);
  return m;
}

MetricRecord ops_metric(double value, std::optional<Breakdown> breakdown) {
  MetricRecord m{"ops_per_step", value, LowerIsBetter, Exact{Scope::Numerics}};
  m.breakdown = std::move(breakdown);
  return m;
}

MetricComparison judged(const MetricRecord& metric, const BaselineMetric& baseline,
                        const EnvironmentProfile& where) {
  MetricComparison c =
      compare_metric(metric.name, metric.value, metric.direction, &baseline, where);
  c.operators = compare_operators(metric, c, &baseline, where);
  return c;
}

TEST(OperatorGate, ARegressionNamesTheOperatorsItComesFrom) {
  const BaselineMetric baseline =
      exact_ops(12, {{"cpu-avx2-aaaa", calls({{"aten::addmm", 4}, {"aten::relu", 8}})}});
  const MetricComparison c =
      judged(ops_metric(14, calls({{"aten::addmm", 4}, {"aten::mul", 2}, {"aten::relu", 8}})),
             baseline, profile("cpu-avx2-aaaa"));
  EXPECT_EQ(c.verdict, Verdict::kRegression);
  ASSERT_TRUE(c.operators.has_value());
  EXPECT_THAT(names(*c.operators), ElementsAre("aten::mul"));
  EXPECT_THAT(comparison_note(c), HasSubstr("operators: aten::mul +2 calls (100%)"));
  EXPECT_THAT(format_comparison_summary(c), HasSubstr("aten::mul +2 calls"));
  TestResult test;
  test.baseline_file = "baselines/suite/cost_test.toml";
  test.comparisons = {c};
  EXPECT_THAT(format_regression_report("r1", test), HasSubstr("operators: aten::mul +2 calls"));
}

TEST(OperatorGate, ABaselineWithoutABreakdownForThisProfileSaysSoInsteadOfFailing) {
  const MetricRecord run = ops_metric(14, calls({{"aten::mul", 2}}));
  const MetricComparison none = judged(run, exact_ops(12, {}), profile("cpu-avx2-aaaa"));
  EXPECT_EQ(none.verdict, Verdict::kRegression);
  ASSERT_TRUE(none.operators.has_value());
  EXPECT_TRUE(none.operators->listed.empty());
  EXPECT_THAT(comparison_note(none),
              HasSubstr("no per-operator breakdown in the baseline (promote to store one)"));
  // Another profile's breakdown explains other kernels: not this run's change.
  BaselineMetric other = exact_ops(12, {{"cpu-avx512-bbbb", calls({{"aten::mul", 0}})}});
  other.by_environment["cpu-avx512-bbbb"] = 12;
  EXPECT_TRUE(judged(run, other, profile("cpu-avx2-aaaa")).operators->missing ==
              kNoBaselineBreakdown);
}

TEST(OperatorGate, APassOrARunWithoutABreakdownNamesNoOperator) {
  const BaselineMetric baseline = exact_ops(12, {{"cpu-avx2-aaaa", calls({{"aten::mul", 12}})}});
  EXPECT_FALSE(
      judged(ops_metric(12, calls({{"aten::mul", 12}})), baseline, profile("cpu-avx2-aaaa"))
          .operators.has_value());
  EXPECT_FALSE(judged(ops_metric(14, std::nullopt), baseline, profile("cpu-avx2-aaaa")).operators);
  const MetricComparison improved =
      judged(ops_metric(10, calls({{"aten::mul", 10}})), baseline, profile("cpu-avx2-aaaa"));
  EXPECT_EQ(improved.verdict, Verdict::kImproved);
  EXPECT_EQ(describe_operator_diff(*improved.operators), "aten::mul -2 calls (100%)");
}

// ---------------------------------------------------------------- the baseline file

const char* kFileHead = R"(schema_version = 1
[provenance]
version = 1
[environments.cpu-avx2-aaaa]
framework = "libtorch 2.13.0"
machine = "x86_64"
)";

BaselineFile parsed(const std::string& metric_body) {
  return parse_baseline(std::string(kFileHead) + "[tests.Cost.metrics.ops_per_step]\n" +
                            "direction = \"lower_is_better\"\n" + metric_body,
                        "cost.toml");
}

std::string parse_error(const std::string& metric_body) {
  try {
    parsed(metric_body);
  } catch (const BaselineError& error) {
    return error.what();
  }
  return "";
}

TEST(BreakdownToml, ABreakdownSurvivesAWriteAndARead) {
  BaselineFile file =
      parsed("policy = \"exact\"\nscope = \"numerics\"\nvalues = { cpu-avx2-aaaa = 14.0 }\n");
  file.tests["Cost"].metrics["ops_per_step"].breakdowns["cpu-avx2-aaaa"] =
      calls({{"aten::addmm", 4}, {"aten::mul", 2}, {"<no operator>", 1}});
  const std::string text = render_baseline(file);
  EXPECT_THAT(text, HasSubstr("breakdown_unit = \"calls\""));
  EXPECT_THAT(text, HasSubstr("[tests.Cost.metrics.ops_per_step.breakdown.cpu-avx2-aaaa]\n"
                              "\"<no operator>\" = 1\n\"aten::addmm\" = 4\n"));
  EXPECT_EQ(parse_baseline(text, "again.toml"), file);
}

TEST(BreakdownToml, AMistakeInABreakdownIsAnErrorNamingTheLine) {
  const std::string value =
      "policy = \"exact\"\nscope = \"numerics\"\nvalues = { cpu-avx2-aaaa = 14.0 }\n";
  EXPECT_THAT(parse_error(value + "breakdown_unit = \"cals\"\n"
                                  "[tests.Cost.metrics.ops_per_step.breakdown.cpu-avx2-aaaa]\n"
                                  "\"aten::mul\" = 2\n"),
              HasSubstr("cost.toml:12:18: unknown breakdown_unit 'cals'"));
  EXPECT_THAT(parse_error(value + "breakdown_unit = \"calls\"\n"
                                  "[tests.Cost.metrics.ops_per_step.breakdown.cpu-avx2-aaaa]\n"
                                  "\"aten::mul\" = -2\n"),
              HasSubstr("must be an integer >= 0"));
  EXPECT_THAT(parse_error(value + "breakdown_unit = \"calls\"\n"
                                  "[tests.Cost.metrics.ops_per_step.breakdown.cpu-avx2-aaaa]\n"
                                  "\"aten::mul\" = 2.5\n"),
              HasSubstr("must be an integer >= 0"));
  EXPECT_THAT(parse_error(value + "breakdown_unit = \"calls\"\n"
                                  "[tests.Cost.metrics.ops_per_step.breakdown.cpu-other]\n"
                                  "\"aten::mul\" = 2\n"),
              HasSubstr("names environment 'cpu-other', which [environments] does not define"));
  EXPECT_THAT(parse_error(value + "[tests.Cost.metrics.ops_per_step.breakdown.cpu-avx2-aaaa]\n"
                                  "\"aten::mul\" = 2\n"),
              HasSubstr("is missing 'breakdown_unit'"));
  EXPECT_THAT(parse_error("policy = \"margin\"\nmargin = 0.1\nseeds = [1]\nsamples = [1.0]\n"
                          "breakdown_unit = \"calls\"\n"
                          "[tests.Cost.metrics.ops_per_step.breakdown.cpu-avx2-aaaa]\n"
                          "\"aten::mul\" = 2\n"),
              HasSubstr("a breakdown by operator applies to a single value"));
}

// ---------------------------------------------------------------- promotion

RunRecord run_with(const MetricRecord& metric) {
  RunRecord record =
      run_record("runs/r1", "r1", "cpu-machine", "cpu-avx2-aaaa",
                 finished_test("Cost", "Medium.Cost", "suites/medium/cost_test.cc", {metric}));
  record.profile.capability = "AVX2";
  return record;
}

BaselineFile promote(const MetricRecord& metric, const BaselineSet& existing) {
  return promoted_alone(run_with(metric), existing);
}

TEST(BreakdownPromotion, PromoteStoresTheBreakdownUnderTheValuesProfileAndReadsItBack) {
  const BaselineFile file = promote(ops_metric(14, calls({{"aten::mul", 2}, {"aten::addmm", 12}})),
                                    BaselineSet::from_files({}));
  const BaselineMetric& m = file.tests.at("Cost").metrics.at("ops_per_step");
  ASSERT_TRUE(m.breakdowns.contains("cpu-avx2-aaaa"));
  EXPECT_EQ(m.breakdowns.at("cpu-avx2-aaaa").by_operator.at("aten::mul"), 2);
  EXPECT_TRUE(file.environments.contains("cpu-avx2-aaaa"));
  EXPECT_EQ(parse_baseline(render_baseline(file), "promoted.toml"), file);
}

TEST(BreakdownPromotion, AValuePromotedWithoutABreakdownDropsThisProfilesOldOneAndKeepsOthers) {
  BaselineFile old =
      promote(ops_metric(14, calls({{"aten::mul", 2}})), BaselineSet::from_files({}));
  BaselineMetric& stored = old.tests.at("Cost").metrics.at("ops_per_step");
  stored.by_environment["cpu-avx512-bbbb"] = 20;
  stored.breakdowns["cpu-avx512-bbbb"] = calls({{"aten::mul", 20}});
  old.environments["cpu-avx512-bbbb"].id = "cpu-avx512-bbbb";
  const BaselineSet existing = BaselineSet::from_files({{"baselines/suite/cost_test.toml", old}});
  const BaselineFile after = promote(ops_metric(16, std::nullopt), existing);
  const BaselineMetric& m = after.tests.at("Cost").metrics.at("ops_per_step");
  EXPECT_FALSE(m.breakdowns.contains("cpu-avx2-aaaa"));  // it would explain 14, not 16
  EXPECT_TRUE(m.breakdowns.contains("cpu-avx512-bbbb"));
  // A breakdown of another unit replaces the others: a metric's breakdowns share one unit.
  const BaselineFile bytes =
      promote(ops_metric(16, Breakdown{BreakdownUnit::Bytes, {{"aten::empty", 64}}}), existing);
  EXPECT_THAT(bytes.tests.at("Cost").metrics.at("ops_per_step").breakdowns, ::testing::SizeIs(1));
}

// ---------------------------------------------------------------- JSON and the test API

TEST(BreakdownJson, TheEventAndTheOperatorsOfAVerdictReadBackAndBadCountsAreRefused) {
  const BreakdownRecorded event{"ops_per_step", calls({{"aten::mul", 2}, {"aten::add_", 7}})};
  const DecodedEvent decoded = decode_event_line(event_line(TestEvent{event}));
  ASSERT_TRUE(decoded.event.has_value()) << decoded.error;
  const auto& back = std::get<BreakdownRecorded>(*decoded.event);
  EXPECT_EQ(back.metric, "ops_per_step");
  EXPECT_EQ(back.breakdown, event.breakdown);

  OperatorDiff diff = diff_operators(calls({{"a", 1}}), calls({{"a", 3}, {"b", 1}}), 1);
  EXPECT_EQ(operator_diff_from_json(operator_diff_to_json(diff)), diff);
  const OperatorDiff missing = missing_operator_diff(BreakdownUnit::Bytes);
  EXPECT_EQ(operator_diff_from_json(operator_diff_to_json(missing)), missing);

  EXPECT_THROW(breakdown_from_json(
                   nlohmann::json::parse(R"({"unit": "calls", "operators": {"aten::mul": -1}})")),
               JsonFieldError);
  EXPECT_THROW(breakdown_from_json(nlohmann::json::parse(R"({"unit": "cycles", "operators": {}})")),
               JsonFieldError);
}

TEST(BreakdownJson, TheCollectorGivesTheBreakdownToItsMetric) {
  std::vector<MetricRecord> metrics = {ops_metric(1, std::nullopt), ops_metric(2, std::nullopt)};
  metrics[0].name = "peak_bytes_per_step";
  attach_breakdown(metrics, {"ops_per_step", calls({{"aten::mul", 2}})});
  EXPECT_FALSE(metrics[0].breakdown.has_value());
  ASSERT_TRUE(metrics[1].breakdown.has_value());
  EXPECT_EQ(metrics[1].breakdown->by_operator.at("aten::mul"), 2);
}

class CapturingSink final : public EventSink {
 public:
  void emit(const TestEvent& event) override { events.push_back(event); }
  std::vector<TestEvent> events;
};

class RecordBreakdownTest : public ::testing::Test {
 protected:
  void SetUp() override { set_current_test_context(&context_); }
  void TearDown() override { set_current_test_context(nullptr); }

  std::string refusal(std::string_view metric, const Breakdown& breakdown) {
    try {
      MlTest::record_breakdown(metric, breakdown);
    } catch (const std::invalid_argument& error) {
      return error.what();
    }
    return "";
  }

  CapturingSink sink_;
  TestContext context_{.sink = &sink_};
};

TEST_F(RecordBreakdownTest, ABreakdownNeedsItsMetricFirstOnceAndCountsOfZeroOrMore) {
  EXPECT_THAT(refusal("ops_per_step", calls({{"aten::mul", 2}})),
              HasSubstr("record the metric first"));
  MlTest::record("ops_per_step", 2, LowerIsBetter, Exact{});
  EXPECT_THAT(refusal("ops_per_step", calls({{"aten::mul", -2}})),
              HasSubstr("operator 'aten::mul' counts -2"));
  EXPECT_THAT(refusal("ops_per_step", calls({{"", 2}})), HasSubstr("an operator without a name"));
  EXPECT_EQ(refusal("ops_per_step", calls({{"aten::mul", 2}})), "");
  EXPECT_THAT(refusal("ops_per_step", calls({{"aten::mul", 2}})), HasSubstr("recorded twice"));
  EXPECT_THAT(refusal("ops_per_step", calls({})), HasSubstr("operator_breakdown_test.cc:"));
  ASSERT_EQ(sink_.events.size(), 2u);  // the metric and one breakdown
  EXPECT_TRUE(std::holds_alternative<BreakdownRecorded>(sink_.events[1]));
  context_.seeded = true;
  context_.recorded["accuracy"] = 0.5;
  EXPECT_THAT(refusal("accuracy", calls({})), HasSubstr("applies to ML_TEST only"));
}

}  // namespace
}  // namespace mlregress::internal
