// Fair comparisons end to end, through tests/fixture/search_fixture.cc: random searches whose
// trials per method are shown by list, run and ablation, with the planted unequal budget named;
// a bad range refused when the binary starts; and a held-out set counted over the runs of one
// runs folder, with a planted second run, a planted second evaluation in one run and a planted
// second test each warned about, and never failing the run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "e2e_fixture.h"
#include "fixture_runner.h"

namespace mlregress::e2e {
namespace {

constexpr const char* kUnequal =
    "unequal tuning budgets: adam 4 trials, sgd 1 — the comparison favours the method tuned more";

class FairComparisonE2eTest : public FixtureBinaryTest {
 protected:
  FairComparisonE2eTest() : FixtureBinaryTest(MLREGRESS_SEARCH_FIXTURE_BINARY) {}
  ProcessResult run(const std::string& args) {
    return fixture("run --color never --out " + runs() + " " + args);
  }
  std::string runs() const { return temp_.path() + "/runs"; }
  std::string latest() const { return runs() + "/latest"; }
  json results() const { return json::parse(read_file(latest() + "/results.json")); }
};

TEST_F(FairComparisonE2eTest, ListShowsTheTrialsPerMethodAndNamesUnequalBudgets) {
  const ProcessResult text = fixture("list");
  ASSERT_EQ(text.exit_code, kPassed) << text.err;
  EXPECT_THAT(text.out, HasSubstr("trials per method: adam 3, sgd 3")) << text.out;
  EXPECT_THAT(text.out, HasSubstr("trials per method: adam 4, sgd 1")) << text.out;
  EXPECT_THAT(text.out, HasSubstr(std::string("WARNING: ") + kUnequal)) << text.out;
  EXPECT_EQ(count(text.out, "unequal tuning budgets"), 1u) << "only the planted test: " << text.out;

  const ProcessResult listed = fixture("list --format json");
  ASSERT_EQ(listed.exit_code, kPassed) << listed.err;
  const json document = json::parse(listed.out);
  json equal, unequal;
  for (const json& test : document.at("tests")) {
    if (test.at("name") == "EqualBudgets") equal = test;
    if (test.at("name") == "UnequalBudgets") unequal = test;
  }
  EXPECT_EQ(equal.at("trials_per_method"), json({{"adam", 3}, {"sgd", 3}}));
  EXPECT_EQ(equal.at("equal_budgets"), true);
  EXPECT_EQ(equal.at("variants"), json({"adam-0", "adam-1", "adam-2", "sgd-0", "sgd-1", "sgd-2"}));
  EXPECT_EQ(unequal.at("trials_per_method"), json({{"adam", 4}, {"sgd", 1}}));
  EXPECT_EQ(unequal.at("equal_budgets"), false);
}

TEST_F(FairComparisonE2eTest, EqualBudgetsRunWithoutAWarningAndRecordEachTrialsMethod) {
  const ProcessResult result = run("--filter EqualBudgets --jobs 2");
  ASSERT_EQ(result.exit_code, kPassed) << result.out << result.err;
  EXPECT_THAT(result.out, HasSubstr("trials per method: adam 3, sgd 3")) << result.out;
  EXPECT_THAT(result.out, ::testing::Not(HasSubstr("unequal tuning budgets"))) << result.out;
  const json test = test_named(results(), "EqualBudgets");
  ASSERT_EQ(test.at("seed_runs").size(), 12u);  // 6 trials × 2 seeds
  for (const json& seed_run : test.at("seed_runs")) {
    const std::string variant = seed_run.at("variant");
    EXPECT_EQ(variant, seed_run.at("method").get<std::string>() + "-" +
                           std::to_string(seed_run.at("trial").get<int>()));
  }
  // The seed ledger carries them too, and ablation reads them back.
  EXPECT_THAT(read_file(latest() + "/seeds.jsonl"), HasSubstr("\"method\":\"sgd\""));
  const ProcessResult table = fixture("ablation " + latest());
  ASSERT_EQ(table.exit_code, kPassed) << table.err;
  EXPECT_THAT(table.out, HasSubstr("  trials per method: adam 3, sgd 3\n")) << table.out;
  EXPECT_THAT(table.out, ::testing::Not(HasSubstr("WARNING"))) << table.out;
}

TEST_F(FairComparisonE2eTest, UnequalBudgetsAreNamedByTheRunAndTheAblationTableButPass) {
  const ProcessResult result = run("--filter UnequalBudgets");
  EXPECT_EQ(result.exit_code, kPassed) << "a warning, not a failure: " << result.out;
  EXPECT_THAT(result.out, HasSubstr(std::string("WARNING: Full.UnequalBudgets: ") + kUnequal))
      << result.out;
  const ProcessResult table = fixture("ablation " + latest());
  ASSERT_EQ(table.exit_code, kPassed) << table.err;
  EXPECT_THAT(table.out, HasSubstr("  trials per method: adam 4, sgd 1\n")) << table.out;
  EXPECT_THAT(table.out, HasSubstr(std::string("  WARNING: ") + kUnequal)) << table.out;
}

TEST(FairComparisonBadRangeE2eTest, ABadRangeStopsTheBinaryNamingTheTestAndTheRange) {
  TempDir temp;
  const ProcessResult listed =
      run_fixture_in(temp.path(), MLREGRESS_BAD_SEARCH_FIXTURE_BINARY, "list");
  EXPECT_EQ(listed.exit_code, kUsageError);
  EXPECT_THAT(listed.err, HasSubstr("random_search 'adam' of test 'BadRange' draws 'lr' from "
                                    "LogUniform(0, 0.1); a log-uniform range needs finite "
                                    "bounds with 0 < low < high"))
      << listed.err;
}

TEST_F(FairComparisonE2eTest, AHeldOutSetEvaluatedInASecondRunIsWarnedAboutWithItsCount) {
  const ProcessResult first = run("--filter EvaluatesHeldOut");
  ASSERT_EQ(first.exit_code, kPassed) << first.out << first.err;
  EXPECT_THAT(first.out, ::testing::Not(HasSubstr("held-out set"))) << first.out;
  const json first_results = results();
  const std::string first_id = first_results.at("run").at("id");
  EXPECT_EQ(first_results.at("held_out").at(0).at("evaluations"), 1);
  EXPECT_FALSE(first_results.at("held_out").at(0).contains("warning"));
  EXPECT_EQ(test_named(first_results, "EvaluatesHeldOut").at("held_out").at(0).at("evaluations"),
            1);

  // Planted: the same set evaluated again, by a second run into the same runs folder.
  const ProcessResult second = run("--filter EvaluatesHeldOut --hypothesis 'held-out once'");
  EXPECT_EQ(second.exit_code, kPassed) << "a warning never fails the run: " << second.out;
  EXPECT_THAT(second.out, HasSubstr("WARNING: held-out set 'test' (sha256:")) << second.out;
  EXPECT_THAT(second.out, HasSubstr("evaluated 2 times: " + first_id +
                                    " (1), this run (1: EvaluatesHeldOut); past the first it no "
                                    "longer estimates generalisation"))
      << second.out;
  const json held_out = results().at("held_out").at(0);
  EXPECT_EQ(held_out.at("evaluations"), 2);
  EXPECT_EQ(held_out.at("earlier_runs").at(0).at("run_id"), first_id);
  EXPECT_THAT(read_file(latest() + "/notes.md"), HasSubstr("- WARNING: held-out set 'test'"));

  // Another fingerprint under the same name is another set: evaluated once.
  const ProcessResult other = run("--filter EvaluatesHeldOut --set EvaluatesHeldOut.data=v2");
  ASSERT_EQ(other.exit_code, kPassed);
  EXPECT_THAT(other.out, ::testing::Not(HasSubstr("held-out set"))) << other.out;
  EXPECT_EQ(results().at("held_out").at(0).at("evaluations"), 1);
}

TEST_F(FairComparisonE2eTest, TwoEvaluationsInOneRunAreWarnedAbout) {
  // Planted: one test evaluates the set twice.
  const ProcessResult twice = run("--filter EvaluatesHeldOut --set EvaluatesHeldOut.evaluations=2");
  EXPECT_EQ(twice.exit_code, kPassed) << twice.out << twice.err;
  EXPECT_THAT(twice.out, HasSubstr("evaluated 2 times: this run (2: EvaluatesHeldOut)"))
      << twice.out;
  EXPECT_EQ(results().at("held_out").at(0).at("evaluations"), 2);

  // Planted: two tests of a run evaluate it (in a fresh runs folder: no earlier run counts).
  const ProcessResult both = fixture("run --color never --out " + temp_.path() +
                                     "/other-runs --filter "
                                     "EvaluatesHeldOut:AlsoEvaluatesHeldOut");
  EXPECT_EQ(both.exit_code, kPassed) << both.out << both.err;
  EXPECT_THAT(both.out,
              HasSubstr("evaluated 2 times: this run (2: EvaluatesHeldOut, AlsoEvaluatesHeldOut)"))
      << both.out;
}

}  // namespace
}  // namespace mlregress::e2e
