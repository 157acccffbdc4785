// run --baseline-history DIR --window K end to end: the baseline is the last K finished runs
// under DIR on the same binary and environment profile (the median of a plain metric, the
// pooled samples of a seeded one), and every verdict is the one a promoted baseline holding
// the same values gives.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixture_runner.h"

namespace mlregress::e2e {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

class RollingBaselineE2eTest : public FixtureRunnerTest {
 protected:
  std::string history() const { return temp_.path() + "/history"; }
  ProcessResult binary(const char* path, const std::string& args) {
    return run_fixture_in(temp_.path(), path, args);
  }
  // A run of `path` into the history folder (in a folder of its own below it, as CI artifacts
  // of several jobs unpacked into one folder).
  void record_history(const char* path, const std::string& args, const std::string& job = "job") {
    const ProcessResult r =
        binary(path, "run --color never --out " + history() + "/" + job + " " + args);
    ASSERT_EQ(r.exit_code, kPassed) << r.out << r.err;
  }
  // A candidate run judged against `reference` ("--baselines DIR" or "--baseline-history ..."),
  // written to its own folder; returns its results.json.
  json candidate(const char* path, const std::string& args, const std::string& reference,
                 const std::string& out, int expected_exit) {
    const ProcessResult r = binary(
        path, "run --color never --out " + temp_.path() + "/" + out + " " + args + " " + reference);
    EXPECT_EQ(r.exit_code, expected_exit) << r.out << r.err;
    return json::parse(test_support::read_file(temp_.path() + "/" + out + "/latest/results.json"));
  }
  static json metric(const json& results, const std::string& test, const std::string& name) {
    return metric_named(test_named(results, test), name);
  }
};

TEST_F(RollingBaselineE2eTest, SameVerdictsAsAPromotedBaselineMadeFromTheSameRuns) {
  // Three unchanged runs of each binary (the same seeds each time), in one history folder.
  for (int i = 0; i < 3; ++i) {
    record_history(MLREGRESS_FIXTURE_BINARY, "--filter Passes --set Passes.value=1", "plain");
    record_history(MLREGRESS_SEED_FIXTURE_BINARY, "--filter NoisyAccuracy", "seeded");
  }
  // The promoted baseline made from the same runs (they are identical: any one of them).
  for (const auto& [path, job] : {std::pair{MLREGRESS_FIXTURE_BINARY, "plain"},
                                  std::pair{MLREGRESS_SEED_FIXTURE_BINARY, "seeded"}}) {
    const ProcessResult promoted = binary(
        path, "promote " + history() + "/" + job + "/latest --baselines baselines --reason r");
    ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
  }
  const std::string rolling = "--baseline-history " + history() + " --window 3";
  struct Case {
    const char* binary;
    std::string args;
    std::string test, metric;
    int exit;
    const char* verdict;
  };
  const std::vector<Case> cases = {
      {MLREGRESS_FIXTURE_BINARY, "--filter Passes --set Passes.value=1", "Passes", "value", kPassed,
       "PASS"},
      {MLREGRESS_FIXTURE_BINARY, "--filter Passes --set Passes.value=1.5", "Passes", "value",
       kRegression, "REGRESSION"},
      {MLREGRESS_SEED_FIXTURE_BINARY, "--filter NoisyAccuracy", "NoisyAccuracy", "accuracy",
       kPassed, "PASS"},
      {MLREGRESS_SEED_FIXTURE_BINARY, "--filter NoisyAccuracy --set NoisyAccuracy.shift=-0.03",
       "NoisyAccuracy", "accuracy", kRegression, "REGRESSION"},
  };
  int i = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const std::string n = std::to_string(i++);
    const json by_promotion = candidate(c.binary, c.args, "--baselines baselines", "p" + n, c.exit);
    const json by_history = candidate(c.binary, c.args, rolling, "h" + n, c.exit);
    const json promoted = metric(by_promotion, c.test, c.metric);
    const json from_history = metric(by_history, c.test, c.metric);
    EXPECT_EQ(promoted.at("verdict"), c.verdict);
    EXPECT_EQ(from_history.at("verdict"), promoted.at("verdict"));
    EXPECT_EQ(from_history.at("baseline"), promoted.at("baseline"));
    EXPECT_EQ(from_history.value("note", ""), promoted.value("note", ""));
    EXPECT_EQ(from_history.at("tolerance"), promoted.at("tolerance"));
    if (promoted.contains("distribution")) {
      // Pooled once per seed: the same 8 baseline samples, not 3 x 8.
      EXPECT_EQ(from_history.at("distribution"), promoted.at("distribution"));
      EXPECT_EQ(from_history.at("distribution").at("n_baseline"), 8);
    }
    // The run says what it was compared with: the last 3 runs of its own binary.
    EXPECT_EQ(by_history.at("run").at("baseline_history").at("runs").size(), 3u);
    EXPECT_FALSE(by_promotion.at("run").contains("baseline_history"));
  }
}

TEST_F(RollingBaselineE2eTest, MedianOfTheLastKRuns) {
  // Values 5, 5, 0.1 (one odd run), 5, 1: the window decides what the baseline is.
  for (const char* value : {"5", "5", "0.1", "5", "1"}) {
    record_history(MLREGRESS_FIXTURE_BINARY,
                   std::string("--filter Passes --set Passes.value=") + value);
  }
  const auto judged = [&](const char* value, int window, int expected_exit) {
    return candidate(MLREGRESS_FIXTURE_BINARY,
                     std::string("--filter Passes --set Passes.value=") + value,
                     "--baseline-history " + history() + " --window " + std::to_string(window),
                     "w" + std::to_string(window), expected_exit);
  };
  // Window 1: the last run (1); 5 is far worse (lower is better).
  EXPECT_EQ(metric(judged("5", 1, kRegression), "Passes", "value").at("baseline"), 1.0);
  // Window 4 (5, 0.1, 5, 1): the median 3. 3.2 is inside its 10% band; against the mean (2.775)
  // it would be a regression.
  EXPECT_EQ(metric(judged("3.2", 4, kPassed), "Passes", "value").at("baseline"), 3.0);
  // Window 5 (5, 5, 0.1, 5, 1): the median 5; all five runs are named.
  const json all = judged("5", 5, kPassed);
  EXPECT_EQ(metric(all, "Passes", "value").at("baseline"), 5.0);
  EXPECT_EQ(all.at("run").at("baseline_history").at("runs").size(), 5u);
  // The run's page shows the history it was compared with: a chart of Fast.Passes value.
  const std::string page = test_support::read_file(temp_.path() + "/w5/latest/report.html");
  EXPECT_THAT(page, HasSubstr("<section id=\"history\">"));
  EXPECT_THAT(page, HasSubstr("Fast.Passes value"));
}

TEST_F(RollingBaselineE2eTest, SeedsFromDifferentRunsArePooled) {
  record_history(MLREGRESS_SEED_FIXTURE_BINARY, "--filter NoisyAccuracy --seed 0");
  record_history(MLREGRESS_SEED_FIXTURE_BINARY, "--filter NoisyAccuracy --seed 100");
  const json pooled = candidate(MLREGRESS_SEED_FIXTURE_BINARY, "--filter NoisyAccuracy --seed 200",
                                "--baseline-history " + history(), "c", kPassed);
  EXPECT_EQ(metric(pooled, "NoisyAccuracy", "accuracy").at("distribution").at("n_baseline"), 16);
}

TEST_F(RollingBaselineE2eTest, EmptyHistoryMakesEveryMetricNewAndBadInputIsNamed) {
  std::filesystem::create_directories(history());
  const ProcessResult empty =
      binary(MLREGRESS_FIXTURE_BINARY,
             "run --filter Passes --out " + runs() + " --baseline-history " + history());
  EXPECT_EQ(empty.exit_code, kPassed) << empty.out << empty.err;
  EXPECT_THAT(empty.out, HasSubstr("rolling baseline: 0 runs"));
  EXPECT_EQ(metric(results(), "Passes", "value").at("verdict"), "NEW");

  const ProcessResult missing = binary(
      MLREGRESS_FIXTURE_BINARY, "run --filter Passes --out " + runs() + " --baseline-history nope");
  EXPECT_EQ(missing.exit_code, kRunFolderError);
  EXPECT_THAT(missing.err, HasSubstr("'nope' does not exist"));
  const ProcessResult both =
      binary(MLREGRESS_FIXTURE_BINARY,
             "run --filter Passes --baselines b --baseline-history " + history());
  EXPECT_EQ(both.exit_code, kUsageError);
  const ProcessResult window_alone =
      binary(MLREGRESS_FIXTURE_BINARY, "run --filter Passes --window 3");
  EXPECT_EQ(window_alone.exit_code, kUsageError);
}

}  // namespace
}  // namespace mlregress::e2e
