// "config changed" names what changed: the values a config hash covers are kept beside it in
// results.json and, by promote, in the baseline, and a run (or `compare` B) whose hash differs
// from its baseline's is told each parameter with both values. Planted: a changed parameter the
// note does not name, values lost on the way through results.json or the baseline file, a
// baseline promoted before values were kept that makes the note claim a change it cannot see.
#include "comparison/config_diff.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "baselines/baseline_toml.h"
#include "builders.h"
#include "comparison/baseline_gate.h"
#include "registry/config_hash.h"
#include "storage/results_json.h"

namespace mlregress::internal {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;

using Values = std::map<std::string, std::string>;

TEST(ConfigDiff, NamesEachChangedValueWithBothSides) {
  const Values before = {{"lr", "0.02"}, {"precision", "fp32"}, {"steps", "100"}};
  EXPECT_EQ(config_changes(before, {{"lr", "0.05"}, {"precision", "bf16"}, {"steps", "100"}}),
            "lr 0.02 → 0.05, precision fp32 → bf16");
  EXPECT_EQ(config_changes(before, {{"lr", "0.02"}, {"precision", "fp32"}, {"warmup", "10"}}),
            "steps 100 → (none), warmup (none) → 10");
  EXPECT_EQ(config_changes(before, before), "");
  EXPECT_EQ(config_changes({}, before), "") << "a side without values cannot say what changed";
  EXPECT_EQ(config_changes(before, {}), "");
}

TEST(ConfigDiff, TheNoteSaysSameChangedOrWhatChanged) {
  const Values before = {{"lr", "0.02"}}, after = {{"lr", "0.05"}};
  EXPECT_EQ(config_note("aaa", "aaa", before, before), " · config same");
  EXPECT_EQ(config_note("aaa", "bbb", before, after), " · config changed: lr 0.02 → 0.05");
  EXPECT_EQ(config_note("aaa", "bbb", {}, after), " · config changed")
      << "a baseline promoted before values were kept";
  EXPECT_EQ(config_note("aaa", "bbb", after, after), " · config changed")
      << "the values agree but the hash does not: say no more than is known";
}

TEST(ConfigDiff, ValuesAreTheParametersAsText) {
  const ResolvedParams params = {{"lr", ParamValue{0.02}},
                                 {"steps", ParamValue{std::int64_t{500}}},
                                 {"verbose", ParamValue{false}},
                                 {"precision", ParamValue{std::string("bf16")}}};
  Values values = config_values(params);
  EXPECT_EQ(
      values,
      (Values{{"lr", "0.02"}, {"precision", "bf16"}, {"steps", "500"}, {"verbose", "false"}}));
  add_run_settings(values, 7, 2);
  EXPECT_EQ(values.at("seed"), "7");
  EXPECT_EQ(values.at("threads"), "2");
  Values own = {{"seed", "param"}};
  add_run_settings(own, 7, 2);
  EXPECT_EQ(own.at("seed"), "param") << "a parameter named seed keeps its value";
}

TEST(ConfigDiff, ResultsJsonKeepsTheValuesAndAnOlderFileHasNone) {
  RunResult run;
  run.info.run_id = "r";
  run.info.finished_at = "2026-12-04T00:00:00Z";
  run.tests.push_back(ended_test("T", Tier::Fast, TestStatus::kPassed, 0.1, "aaa"));
  run.tests[0].config = {{"lr", "0.02"}, {"seed", "42"}};
  nlohmann::json json = run;
  EXPECT_EQ(json.at("tests").at(0).at("config").at("lr"), "0.02");
  EXPECT_EQ(json.get<RunResult>().tests.at(0).config, run.tests[0].config);
  json.at("tests").at(0).erase("config");
  EXPECT_TRUE(json.get<RunResult>().tests.at(0).config.empty());
}

// Test T, accuracy 0.9, run with `now` under the hash `now_hash`, judged against the baseline
// promote made of an earlier run with `then` under `then_hash`; `then` is dropped from the file
// when `old_file` (a baseline promoted before values were kept).
std::string judged_note(const Values& now, const std::string& now_hash, const Values& then,
                        const std::string& then_hash, bool old_file = false) {
  const MetricRecord accuracy{"accuracy", 0.9, HigherIsBetter, {}, {}, {}};
  TestResult earlier_test = finished_test("T", "Medium.T", "t_test.cc", {accuracy});
  earlier_test.config_hash = then_hash;
  earlier_test.config = then;
  const RunRecord earlier = run_record("runs/r1", "r1", "cpu-m1", "cpu-n1", earlier_test);
  std::vector<LoadedBaselineFile> files(1);
  files[0].path = "baselines/suite/t.toml";
  const std::string text = render_baseline(promoted_alone(earlier, BaselineSet::from_files({})));
  EXPECT_THAT(text, HasSubstr("config = { lr = \"0.02\""));
  files[0].file = parse_baseline(text, "t.toml");
  EXPECT_EQ(files[0].file.tests.at("T").config, then) << "the file reads back what promote wrote";
  if (old_file) files[0].file.tests.at("T").config.clear();
  const BaselineSet set = BaselineSet::from_files(std::move(files));

  RunResult run;
  run.tests.push_back(finished_test("T", "Medium.T", "t_test.cc", {accuracy}));
  run.tests[0].config_hash = now_hash;
  run.tests[0].config = now;
  BaselineGate(set, earlier.profile, 0.05).judge_run(run);
  return run.tests[0].environment_note;
}

TEST(ConfigDiff, TheRunIsToldWhichParameterChangedSinceItsBaseline) {
  const Values then = {{"lr", "0.02"}, {"precision", "fp32"}, {"seed", "0"}};
  const Values now = {{"lr", "0.05"}, {"precision", "bf16"}, {"seed", "0"}};
  EXPECT_THAT(judged_note(now, "bbb", then, "aaa"),
              EndsWith("config changed: lr 0.02 → 0.05, precision fp32 → bf16"));
  EXPECT_THAT(judged_note(then, "aaa", then, "aaa"), EndsWith("config same"));
  const std::string old = judged_note(now, "bbb", then, "aaa", /*old_file=*/true);
  EXPECT_THAT(old, EndsWith("config changed"));
  EXPECT_THAT(old, Not(HasSubstr("lr")));
}

}  // namespace
}  // namespace mlregress::internal
