// record_held_out_evaluation: a held-out set is meant to be evaluated once. Planted: a test that
// evaluates it twice, two tests that each evaluate it once, a seeded test whose variants each
// evaluate it (and whose seeds must not count apart), an earlier run in the runs folder that
// evaluated it, and the same name with another fingerprint (another set: no warning). Each must
// show in the count and the warning, or must not.
#include "record/held_out.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "builders.h"
#include "execution/run_collector.h"
#include "execution/seed_runs.h"
#include "execution/test_events.h"
#include "mlregress/ml_test.h"
#include "renderers/experiment_result.h"
#include "storage/held_out_history.h"
#include "storage/results_json.h"
#include "support/atomic_file.h"
#include "tests/support/temp_dir.h"

namespace mlregress::internal {
namespace {

using test_support::TempDir;
using ::testing::HasSubstr;

const std::string kSha = "sha256:" + std::string(64, 'a');
const std::string kOtherSha = "sha256:" + std::string(64, 'b');

TEST(HeldOut, EvaluationsOfOneSetAddUpAndAnotherFingerprintIsAnotherSet) {
  std::vector<HeldOutEvaluation> list;
  add_held_out_evaluation(list, "test", kSha);
  add_held_out_evaluation(list, "test", kSha);
  add_held_out_evaluation(list, "test", kOtherSha);
  EXPECT_EQ(list, (std::vector<HeldOutEvaluation>{{"test", kSha, 2}, {"test", kOtherSha, 1}}));
}

TEST(HeldOut, TheEventTravelsTheWireAndTheCollectorCountsEachCall) {
  const DecodedEvent decoded = decode_event_line(event_line(HeldOutEvaluated{"test", kSha}));
  ASSERT_TRUE(decoded.event) << decoded.error;
  EXPECT_EQ(std::get<HeldOutEvaluated>(*decoded.event).sha256, kSha);

  const RegisteredTest t = registered_test(Tier::Fast, "Fast", "Eval", "eval_test.cc", 3, {});
  const RunPlan plan = make_run_plan({&t}, {}, {}, RunSettings{});
  RunResult run;
  RunCollector collector(plan, run, {});
  collector.start_run();
  collector.handle(TestStarted{"Fast.Eval", "2026-12-06T10:00:00.000Z"});
  collector.handle(HeldOutEvaluated{"test", kSha});
  collector.handle(HeldOutEvaluated{"test", kSha});  // planted: the set evaluated twice
  collector.handle(TestEnded{"Fast.Eval", true, false, 0.1});
  collector.finish_run();
  ASSERT_EQ(run.tests.size(), 1u);
  EXPECT_EQ(run.tests[0].held_out, (std::vector<HeldOutEvaluation>{{"test", kSha, 2}}));
}

// The seeds of one variant measure one configuration: one evaluation. Each variant (a random
// search's trial) is one more: choosing among them on the held-out set is tuning on it.
TEST(HeldOut, ASeededTestCountsOneEvaluationPerVariant) {
  TestResult test;
  test.seeded = true;
  for (std::size_t variant = 0; variant < 3; ++variant) {
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
      SeedRun run;
      run.variant_index = variant;
      run.seed = seed;
      add_held_out_evaluation(run.held_out, "test", kSha);
      test.seed_runs.push_back(std::move(run));
    }
  }
  summarize_seed_runs(test);
  EXPECT_EQ(test.held_out, (std::vector<HeldOutEvaluation>{{"test", kSha, 3}}));
}

TEST(HeldOut, OneEvaluationInTheRunAndNoneBeforeIsNoWarning) {
  RunResult run{.tests = {finished_test("A", "Fast.A", "a.cc", {})}};
  run.tests[0].held_out = {{"test", kSha, 1}};
  const std::vector<HeldOutTally> tallies = tally_this_run(run);
  ASSERT_EQ(tallies.size(), 1u);
  EXPECT_EQ(tallies[0].total(), 1);
  EXPECT_EQ(held_out_warning(tallies[0]), "");
}

TEST(HeldOut, TwoTestsOfOneRunEvaluatingTheSetAreWarnedAbout) {
  RunResult run{.tests = {finished_test("A", "Fast.A", "a.cc", {}),
                          finished_test("B", "Fast.B", "b.cc", {})}};
  run.tests[0].held_out = {{"test", kSha, 1}};
  run.tests[1].held_out = {{"test", kSha, 1}};
  const std::vector<HeldOutTally> tallies = tally_this_run(run);
  ASSERT_EQ(tallies.size(), 1u);
  EXPECT_EQ(held_out_warning(tallies[0]),
            "held-out set 'test' (sha256:aaaaaaaaaaaa…) evaluated 2 times: this run (2: A, B); "
            "past the first it no longer estimates generalisation");
}

// An earlier run folder under the same runs folder, holding a results.json whose one test
// evaluated `sha` `times` times.
void write_earlier_run(const std::string& runs, const std::string& id, const std::string& sha,
                       int times) {
  RunResult earlier{.tests = {finished_test("A", "Fast.A", "a.cc", {})}};
  earlier.info.run_id = id;
  earlier.tests[0].held_out = {{"test", sha, times}};
  std::filesystem::create_directories(runs + "/" + id);
  const nlohmann::json json = earlier;
  write_file_atomically(runs + "/" + id + "/results.json", json.dump());
  write_file_atomically(runs + "/" + id + "/environment.json", "{}");
}

TEST(HeldOut, EarlierRunsInTheRunsFolderCountAndTheirIdsAreNamed) {
  TempDir dir;
  const std::string runs = dir / "runs";
  write_earlier_run(runs, "20261206T090000Z-aaaaaaa", kSha, 1);
  write_earlier_run(runs, "20261206T091000Z-aaaaaaa", kOtherSha, 1);  // another set
  RunResult run{.tests = {finished_test("A", "Fast.A", "a.cc", {})}};
  run.info.run_id = "20261206T092000Z-aaaaaaa";
  run.info.run_folder = runs + "/" + run.info.run_id;
  run.tests[0].held_out = {{"test", kSha, 1}};
  write_earlier_run(runs, run.info.run_id, kSha, 1);  // the run's own folder: not counted again
  const std::vector<HeldOutTally> tallies = tally_held_out(run, runs);
  ASSERT_EQ(tallies.size(), 1u);
  EXPECT_EQ(tallies[0].total(), 2);
  EXPECT_EQ(tallies[0].earlier_runs,
            (std::vector<HeldOutEarlierRun>{{"20261206T090000Z-aaaaaaa", 1}}));
  EXPECT_THAT(held_out_warning(tallies[0]),
              HasSubstr("evaluated 2 times: 20261206T090000Z-aaaaaaa (1), this run (1: A)"));

  // results.json keeps the count, and notes.md's Result says it.
  run.held_out = tallies;
  const nlohmann::json json = run;
  EXPECT_EQ(json.at("held_out").at(0).at("evaluations"), 2);
  EXPECT_THAT(json.at("held_out").at(0).at("warning").get<std::string>(),
              HasSubstr("past the first"));
  const RunResult read = json.get<RunResult>();
  EXPECT_EQ(read.held_out, tallies);
  EXPECT_EQ(read.tests[0].held_out, run.tests[0].held_out);
  EXPECT_THAT(experiment_result(run), HasSubstr("- WARNING: held-out set 'test'"));
}

TEST(HeldOut, AnUnusableNameOrFingerprintIsRefusedBeforeAnythingIsRecorded) {
  EXPECT_THROW(MlTest::record_held_out_evaluation("", {kSha, 10}), std::invalid_argument);
  try {
    MlTest::record_held_out_evaluation("test", {"sha256:12", 10});
    FAIL() << "a fingerprint that is not sha256:<64 hex digits> must be refused";
  } catch (const std::invalid_argument& error) {
    EXPECT_THAT(error.what(), HasSubstr("'test' has the fingerprint 'sha256:12'"));
  }
}

}  // namespace
}  // namespace mlregress::internal
