// The failure-rate gate end to end, through tests/fixture/flaky_fixture.cc, whose attempts fail
// at a planted rate (MLREGRESS_FIXTURE_FAILURE_RATE, 2% unless planted): a run without a baseline
// takes every attempt and passes whatever failed; promote stores failures, trials and their
// interval; at the baseline's rate the test passes with every failed attempt in JUnit as
// <flakyFailure>; a rise to 20% is REGRESSION with each failed attempt as <rerunFailure>;
// `--quarantine` turns a plain test's failures into a gated rate (crashes included); a seeded
// test's true-or-false outcomes are gated the same way; and shards merged decide as one machine.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "e2e_fixture.h"
#include "fixture_runner.h"

namespace mlregress::e2e {
namespace {

class FailureRateE2eTest : public FixtureBinaryTest {
 protected:
  FailureRateE2eTest() : FixtureBinaryTest(MLREGRESS_FLAKY_FIXTURE_BINARY) {}
  ProcessResult run(const std::string& args, const std::string& environment = "",
                    const std::string& out = "runs") {
    return fixture("run --color never --jobs 2 --out " + temp_.path() + "/" + out + " --junit " +
                       junit() + " " + args,
                   environment);
  }
  std::string junit() const { return temp_.path() + "/junit.xml"; }
  std::string latest(const std::string& out = "runs") const {
    return std::filesystem::canonical(temp_.path() + "/" + out + "/latest").string();
  }
  json test_result(const std::string& name, const std::string& folder = "") const {
    return test_named(
        json::parse(read_file((folder.empty() ? latest() : folder) + "/results.json")), name);
  }
  json metric(const std::string& test, const std::string& name,
              const std::string& folder = "") const {
    return metric_named(test_result(test, folder), name);
  }
  static int failed_attempts(const json& test) {
    int failed = 0;
    for (const json& run : test.at("seed_runs")) failed += run.at("status") != "passed";
    return failed;
  }
  ::testing::AssertionResult junit_validates() const { return e2e::junit_validates(junit()); }
  // A baseline of every attempt at the planted 2%: a run without one takes all of them.
  void promote_baseline(const std::string& filter, const std::string& extra = "") {
    const ProcessResult first = run("--filter " + filter + " " + extra);
    ASSERT_EQ(first.exit_code, kPassed) << first.out << first.err;
    const ProcessResult promoted =
        fixture("promote " + latest() + " --baselines " + baselines() + " --reason e2e");
    ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
    promote_output_ = promoted.out;
  }

  std::string promote_output_;
};

TEST_F(FailureRateE2eTest, WithoutABaselineEveryAttemptRunsAndFailedAttemptsDoNotFailTheRun) {
  std::filesystem::create_directories(baselines());  // empty: every metric is NEW
  const ProcessResult result = run("--filter SometimesFails --baselines " + baselines(),
                                   "MLREGRESS_FIXTURE_FAILURE_RATE=0.2");
  ASSERT_EQ(result.exit_code, kPassed) << result.out << result.err;
  const json test = test_result("SometimesFails");
  EXPECT_EQ(test.at("status"), "passed");
  EXPECT_EQ(test.at("seed_runs").size(), 200u);
  EXPECT_GT(failed_attempts(test), 5);
  const json rate = metric("SometimesFails", "failure_rate");
  EXPECT_EQ(rate.at("verdict"), "NEW");
  EXPECT_EQ(rate.at("kind"), "RATE");
  EXPECT_NEAR(rate.at("value").get<double>(), failed_attempts(test) / 200.0, 1e-12);
  // The first attempt's metric is the test's, as a plain value.
  EXPECT_EQ(metric("SometimesFails", "steps").at("value"), 100);
  EXPECT_THAT(result.out, HasSubstr("[  ATTEMPT ] SometimesFails"));
  const std::string xml = read_file(junit());
  EXPECT_EQ(count(xml, "<flakyFailure"), static_cast<std::size_t>(failed_attempts(test)));
  EXPECT_TRUE(junit_validates());
}

TEST_F(FailureRateE2eTest, PromoteStoresFailuresTrialsAndTheirInterval) {
  promote_baseline("SometimesFails");
  const std::string toml = read_file(baselines() + "/mlregress_flaky_fixture/flaky_fixture.toml");
  for (const char* stored :
       {"policy = \"failure_rate\"", "trials = 200", "failures = ", "interval = ["}) {
    EXPECT_THAT(toml, HasSubstr(stored));
  }
  EXPECT_THAT(promote_output_, HasSubstr("SometimesFails.failure_rate: "));
  EXPECT_THAT(promote_output_, HasSubstr("power"));
}

TEST_F(FailureRateE2eTest, AtTheBaselinesRateFreshAttemptsPassAndKeepEveryFailureInJunit) {
  promote_baseline("SometimesFails");
  const ProcessResult result =
      run("--filter SometimesFails --seed 1000 --baselines " + baselines());
  ASSERT_EQ(result.exit_code, kPassed) << result.out << result.err;
  const json test = test_result("SometimesFails");
  const json rate = metric("SometimesFails", "failure_rate");
  EXPECT_EQ(rate.at("verdict"), "PASS") << rate.dump(1);
  EXPECT_LT(test.at("seed_runs").size(), 200u) << "the gate stops once it has decided";
  const std::string xml = read_file(junit());
  EXPECT_EQ(count(xml, "<flakyFailure"), static_cast<std::size_t>(failed_attempts(test)));
  EXPECT_EQ(count(xml, "<rerunFailure"), 0u);
  EXPECT_TRUE(junit_validates());
}

TEST_F(FailureRateE2eTest, APlantedRiseToTwentyPercentIsARegressionWithEveryFailedAttempt) {
  promote_baseline("SometimesFails");
  const ProcessResult result = run("--filter SometimesFails --seed 1000 --baselines " + baselines(),
                                   "MLREGRESS_FIXTURE_FAILURE_RATE=0.2");
  ASSERT_EQ(result.exit_code, kRegression) << result.out << result.err;
  const json test = test_result("SometimesFails");
  EXPECT_EQ(test.at("status"), "regressed");
  const json rate = metric("SometimesFails", "failure_rate");
  EXPECT_EQ(rate.at("verdict"), "REGRESSION") << rate.dump(1);
  EXPECT_EQ(rate.at("failure_rate").at("decision"), "regression");
  EXPECT_THAT(rate.at("note").get<std::string>(), HasSubstr("significantly higher"));
  EXPECT_THAT(result.out, HasSubstr("failure_rate"));
  const std::string xml = read_file(junit());
  EXPECT_THAT(xml, HasSubstr("type=\"regression\""));
  EXPECT_EQ(count(xml, "<rerunFailure"), static_cast<std::size_t>(failed_attempts(test)));
  EXPECT_EQ(count(xml, "<flakyFailure"), 0u);
  EXPECT_THAT(xml, HasSubstr("planted failure of seed"));
  EXPECT_TRUE(junit_validates());
}

TEST_F(FailureRateE2eTest, AQuarantinedPlainTestPassesItsFailuresButNotARiseOfItsRate) {
  // Unquarantined, the plain test fails on its first failing seed.
  int failing_seed = -1;
  for (int seed = 0; seed < 200 && failing_seed < 0; ++seed) {
    const ProcessResult once = run("--filter SometimesCrashes --seed " + std::to_string(seed),
                                   "MLREGRESS_FIXTURE_FAILURE_RATE=0.2");
    if (once.exit_code == kTestFailed) failing_seed = seed;
  }
  ASSERT_GE(failing_seed, 0);
  const std::string seed = " --seed " + std::to_string(failing_seed);
  promote_baseline("SometimesCrashes", "--quarantine SometimesCrashes");
  const json baseline_run = test_result("SometimesCrashes");
  EXPECT_EQ(baseline_run.at("seed_runs").size(), 200u);
  // Quarantined at the baseline's rate: that same failing seed starts the attempts, and passes.
  const ProcessResult calm = run(
      "--filter SometimesCrashes --quarantine SometimesCrashes --baselines " + baselines() + seed,
      "MLREGRESS_FIXTURE_FAILURE_RATE=0.02 MLREGRESS_FIXTURE_CRASH=1");
  EXPECT_EQ(calm.exit_code, kPassed) << calm.out << calm.err;
  // A rise to 20% (crashes this time) still fails the run, and says why.
  const ProcessResult risen = run(
      "--filter SometimesCrashes --quarantine SometimesCrashes --baselines " + baselines() + seed,
      "MLREGRESS_FIXTURE_FAILURE_RATE=0.2 MLREGRESS_FIXTURE_CRASH=1");
  ASSERT_EQ(risen.exit_code, kRegression) << risen.out << risen.err;
  const json rate = metric("SometimesCrashes", "failure_rate");
  EXPECT_EQ(rate.at("verdict"), "REGRESSION");
  EXPECT_THAT(rate.at("note").get<std::string>(),
              HasSubstr("quarantined, but its failure rate rose significantly"));
  const std::string xml = read_file(junit());
  EXPECT_EQ(count(xml, "<rerunError"),
            static_cast<std::size_t>(failed_attempts(test_result("SometimesCrashes"))));
  EXPECT_TRUE(junit_validates());
}

TEST_F(FailureRateE2eTest, QuarantineRefusesASeededTest) {
  const ProcessResult result = run("--quarantine TrainingSometimesDiverges");
  EXPECT_EQ(result.exit_code, kUsageError) << result.out << result.err;
  EXPECT_THAT(result.err, HasSubstr("quarantine applies to ML_TEST and ML_FLAKY_TEST"));
}

TEST_F(FailureRateE2eTest, ASeededTestsTrueOrFalseOutcomesAreGatedAsRates) {
  promote_baseline("TrainingSometimesDiverges");
  const ProcessResult calm =
      run("--filter TrainingSometimesDiverges --seed 1000 --baselines " + baselines());
  EXPECT_EQ(calm.exit_code, kPassed) << calm.out << calm.err;
  EXPECT_EQ(metric("TrainingSometimesDiverges", "diverged").at("verdict"), "PASS");
  EXPECT_EQ(metric("TrainingSometimesDiverges", "reached_target").at("verdict"), "PASS");
  const ProcessResult risen =
      run("--filter TrainingSometimesDiverges --seed 1000 --baselines " + baselines(),
          "MLREGRESS_FIXTURE_FAILURE_RATE=0.2");
  ASSERT_EQ(risen.exit_code, kRegression) << risen.out << risen.err;
  EXPECT_EQ(metric("TrainingSometimesDiverges", "diverged").at("verdict"), "REGRESSION");
  // HigherIsBetter: a missed target (0) is the failure.
  EXPECT_EQ(metric("TrainingSometimesDiverges", "reached_target").at("verdict"), "REGRESSION");
}

TEST_F(FailureRateE2eTest, ShardsMergedDecideAsOneMachine) {
  promote_baseline("SometimesFails");
  const std::string common = "--filter SometimesFails --seed 1000 --baselines " + baselines();
  const std::string planted = "MLREGRESS_FIXTURE_FAILURE_RATE=0.2";
  ASSERT_EQ(run(common, planted, "whole").exit_code, kRegression);
  const json whole = metric("SometimesFails", "failure_rate", latest("whole"));
  for (const char* shard : {"0/2", "1/2"}) {
    const ProcessResult part = run(common + " --shard " + shard, planted,
                                   std::string("shard") + shard[0]);  // shard0, shard1
    // A shard holds every other attempt, not the first ones: it leaves the rate to merge.
    ASSERT_EQ(part.exit_code, kPassed) << part.out << part.err;
    EXPECT_THAT(metric("SometimesFails", "failure_rate", latest(std::string("shard") + shard[0]))
                    .at("note")
                    .get<std::string>(),
                HasSubstr("decided at merge"));
  }
  const ProcessResult merged =
      fixture("merge " + latest("shard0") + " " + latest("shard1") + " --out " + temp_.path() +
              "/merged --baselines " + baselines() + " --color never");
  ASSERT_EQ(merged.exit_code, kRegression) << merged.out << merged.err;
  const json one = metric("SometimesFails", "failure_rate", latest("merged"));
  EXPECT_EQ(one.at("verdict"), "REGRESSION");
  EXPECT_EQ(one.at("failure_rate").at("looks").size(), whole.at("failure_rate").at("looks").size());
  EXPECT_EQ(one.at("failure_rate").at("failures"), whole.at("failure_rate").at("failures"));
}

TEST_F(FailureRateE2eTest, AMergeWithoutAShardCountsNoPhantomFailures) {
  promote_baseline("SometimesFails");
  const std::string common = "--filter SometimesFails --seed 1000 --baselines " + baselines();
  ASSERT_EQ(run(common + " --shard 0/2", "", "shard0").exit_code, kPassed);
  const ProcessResult merged = fixture("merge " + latest("shard0") + " --out " + temp_.path() +
                                       "/merged --baselines " + baselines() + " --color never");
  EXPECT_EQ(merged.exit_code, kTestFailed) << merged.out << merged.err;
  const json test = test_result("SometimesFails", latest("merged"));
  EXPECT_EQ(test.at("status"), "crashed");
  EXPECT_THAT(test.at("crash_message").get<std::string>(),
              HasSubstr("100 of 200 attempts missing"));
  // The 100 attempts no shard ran are no outcomes: the rate holds the 100 that ran.
  EXPECT_EQ(metric("SometimesFails", "failure_rate", latest("merged")).at("samples").size(), 100u);
  const std::string xml = read_file(latest("merged") + "/junit.xml");
  EXPECT_EQ(count(xml, "<rerunError") + count(xml, "<flakyError"), 0u) << "no attempt crashed";
}

TEST_F(FailureRateE2eTest, PromoteRefusesARateFromAnEarlyStopOrOneTooHighToGate) {
  promote_baseline("SometimesFails");
  ASSERT_EQ(run("--filter SometimesFails --seed 1000 --baselines " + baselines()).exit_code,
            kPassed);
  const ProcessResult early =
      fixture("promote " + latest() + " --baselines " + baselines() + " --reason e2e");
  EXPECT_EQ(early.exit_code, kPromotionRefused) << early.out << early.err;
  EXPECT_THAT(early.err, HasSubstr("attempts (the gate had decided)"));
  ASSERT_EQ(
      run("--filter SometimesFails --seed 2000", "MLREGRESS_FIXTURE_FAILURE_RATE=1").exit_code,
      kPassed);
  const ProcessResult always =
      fixture("promote " + latest() + " --baselines " + baselines() + " --reason e2e");
  EXPECT_EQ(always.exit_code, kPromotionRefused) << always.out << always.err;
  EXPECT_THAT(always.err, HasSubstr("200 of 200 failed, too high a rate"));
}

TEST_F(FailureRateE2eTest, RerunRefusesAFlakyTestAndRerunsASeededTestsOutcomes) {
  ASSERT_EQ(run("--filter SometimesFails").exit_code, kPassed);
  const ProcessResult flaky = fixture("rerun " + latest() + " --test SometimesFails");
  EXPECT_EQ(flaky.exit_code, kUsageError) << flaky.out << flaky.err;
  EXPECT_THAT(flaky.err, HasSubstr("is flaky-aware"));
  ASSERT_EQ(run("--filter TrainingSometimesDiverges").exit_code, kPassed);
  const ProcessResult seeded = fixture("rerun " + latest() + " --test TrainingSometimesDiverges");
  EXPECT_EQ(seeded.exit_code, kPassed) << seeded.out << seeded.err;
}

TEST_F(FailureRateE2eTest, AnOutcomeThatMustBeReachedKeepsItsOwnOrientation) {
  promote_baseline("TrainingSometimesDiverges");
  ASSERT_EQ(
      run("--filter TrainingSometimesDiverges --seed 1000 --baselines " + baselines()).exit_code,
      kPassed);
  const json reached = metric("TrainingSometimesDiverges", "reached_target");
  // The share that reached the target, for the run and its baseline alike.
  EXPECT_GT(reached.at("value").get<double>(), 0.8);
  EXPECT_GT(reached.at("baseline").get<double>(), 0.8);
  EXPECT_LT(reached.at("failure_rate").at("failures").get<int>(),
            reached.at("failure_rate").at("trials").get<int>() / 5);
}

TEST_F(FailureRateE2eTest, ARollingBaselineCountsEveryOutcomeOfItsRuns) {
  for (const char* seed : {"0", "100", "200"}) {
    ASSERT_EQ(run(std::string("--filter SometimesFails --seed ") + seed, "", "history").exit_code,
              kPassed);
  }
  const ProcessResult rolling = run("--filter SometimesFails --seed 1000 --baseline-history " +
                                    temp_.path() + "/history --window 3");
  ASSERT_EQ(rolling.exit_code, kPassed) << rolling.out << rolling.err;
  EXPECT_EQ(metric("SometimesFails", "failure_rate").at("failure_rate").at("baseline_trials"), 600);
}

}  // namespace
}  // namespace mlregress::e2e
