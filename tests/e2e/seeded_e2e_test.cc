// Seeded tests end to end, through tests/fixture/seed_fixture.cc: seeds in worker processes
// (--jobs, --seed), a crashing or hanging seed reported alone, distribution baselines, and the
// multi-seed gate's verdicts on planted shifts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_fixture.h"
#include "fixture_runner.h"

namespace mlregress::e2e {
namespace {

class SeededE2eTest : public FixtureBinaryTest {
 protected:
  SeededE2eTest() : FixtureBinaryTest(MLREGRESS_SEED_FIXTURE_BINARY) {}
  ProcessResult run(const std::string& args) {
    return fixture("run --color never --out " + temp_.path() + "/runs " + args);
  }
  ProcessResult run_against_baseline(const std::string& args) {
    return run("--baselines " + baselines() + " " + args);
  }
  ProcessResult promote() {
    return fixture("promote " + latest() + " --baselines " + baselines() + " --reason e2e");
  }
  std::string latest() const { return temp_.path() + "/runs/latest"; }
  json test_named(const std::string& name) const {
    return e2e::test_named(json::parse(read_file(latest() + "/results.json")), name);
  }
  std::string verdict(const std::string& test, const std::string& metric) const {
    return metric_named(test_named(test), metric).at("verdict").get<std::string>();
  }
  // Promotes a clean run of NoisyAccuracy on seeds 0..7.
  void promote_baseline() {
    ASSERT_EQ(run("--filter NoisyAccuracy").exit_code, kPassed);
    const ProcessResult promoted = promote();
    ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
  }
  // Promotes the baseline, then runs fresh seeds 100.. of NoisyAccuracy shifted by `shift`.
  ProcessResult run_shifted_against_baseline(const std::string& shift) {
    promote_baseline();
    return run_against_baseline("--filter NoisyAccuracy --seed 100 --set NoisyAccuracy.shift=" +
                                shift);
  }
};

TEST_F(SeededE2eTest, EverySeedRunsOnceAndSamplesDoNotDependOnJobs) {
  ASSERT_EQ(run("--filter NoisyAccuracy --jobs 1").exit_code, kPassed);
  const json one = metric_named(test_named("NoisyAccuracy"), "accuracy");
  ASSERT_EQ(run("--filter NoisyAccuracy --jobs 3").exit_code, kPassed);
  const json three = metric_named(test_named("NoisyAccuracy"), "accuracy");
  EXPECT_EQ(one.at("seeds"), json({0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(one.at("samples"), three.at("samples"));
  EXPECT_EQ(one.at("seeds"), three.at("seeds"));
  EXPECT_EQ(test_named("NoisyAccuracy").at("seed_runs").size(), 8u);
}

TEST_F(SeededE2eTest, SeedFlagMovesTheSeedList) {
  ASSERT_EQ(run("--filter NoisyAccuracy --seed 100").exit_code, kPassed);
  EXPECT_EQ(metric_named(test_named("NoisyAccuracy"), "accuracy").at("seeds"),
            json({100, 101, 102, 103, 104, 105, 106, 107}));
}

TEST_F(SeededE2eTest, ACrashingSeedIsAnErrorOfThatSeedAndTheOthersAreKept) {
  const ProcessResult result = run("--filter NoisyAccuracy --set NoisyAccuracy.crash_seed=3");
  EXPECT_EQ(result.exit_code, kTestFailed) << result.out;
  const json test = test_named("NoisyAccuracy");
  EXPECT_EQ(test.at("status"), "crashed");
  const json accuracy = metric_named(test, "accuracy");
  EXPECT_EQ(accuracy.at("seeds"), json({0, 1, 2, 4, 5, 6, 7}));
  const json crashed = test.at("seed_runs").at(3);
  EXPECT_EQ(crashed.at("seed"), 3);
  EXPECT_EQ(crashed.at("status"), "crashed");
  EXPECT_THAT(crashed.at("crash_message").get<std::string>(), ::testing::HasSubstr("signal 6"));
  EXPECT_THAT(result.out, ::testing::HasSubstr("seed 3 crashed")) << result.out;
  // Every seed that finished is in the seed ledger too.
  std::istringstream ledger(read_file(latest() + "/seeds.jsonl"));
  int lines = 0;
  for (std::string line; std::getline(ledger, line);) ++lines;
  EXPECT_EQ(lines, 8);
}

TEST_F(SeededE2eTest, AHangingSeedIsKilledAtTheTimeoutAndTheOthersAreKept) {
  const auto start = std::chrono::steady_clock::now();
  const ProcessResult result =
      run("--filter NoisyAccuracy --jobs 2 --seed-timeout 1 --set NoisyAccuracy.hang_seed=5");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(result.exit_code, kTestFailed) << result.out;
  EXPECT_LT(seconds, 30.0);
  const json test = test_named("NoisyAccuracy");
  EXPECT_EQ(metric_named(test, "accuracy").at("samples").size(), 7u);
  EXPECT_THAT(test.at("seed_runs").at(5).at("crash_message").get<std::string>(),
              ::testing::HasSubstr("timed out"));
}

TEST_F(SeededE2eTest, AFailingSeedFailsTheTestNamingTheSeed) {
  const ProcessResult result = run("--filter NoisyAccuracy --set NoisyAccuracy.fail_seed=2");
  EXPECT_EQ(result.exit_code, kTestFailed);
  const json test = test_named("NoisyAccuracy");
  EXPECT_EQ(test.at("status"), "failed");
  EXPECT_THAT(test.at("failures").at(0).at("message").get<std::string>(),
              ::testing::HasSubstr("seed 2: "));
}

// A training run that diverges on some seeds must not pass as "inconclusive": the seed fails,
// and the metric is a REGRESSION against its baseline.
TEST_F(SeededE2eTest, ANonFiniteValueFailsItsSeedAndTheMetricRegresses) {
  promote_baseline();
  for (const char* nan_seed : {"3", "-2"}) {  // one seed; every seed
    SCOPED_TRACE(std::string("nan_seed=") + nan_seed);
    const ProcessResult result = run_against_baseline(
        std::string("--filter NoisyAccuracy --set NoisyAccuracy.nan_seed=") + nan_seed);
    EXPECT_EQ(result.exit_code, kTestFailed) << result.out << result.err;
    const json test = test_named("NoisyAccuracy");
    EXPECT_EQ(test.at("status"), "failed");
    EXPECT_THAT(test.at("failures").at(0).at("message").get<std::string>(),
                HasSubstr("seed " + std::string(nan_seed[0] == '-' ? "0" : nan_seed) +
                          ": metric 'accuracy' is nan: the run diverged"));
    EXPECT_EQ(verdict("NoisyAccuracy", "accuracy"), "REGRESSION") << result.out;
    // The other metric is judged on the seeds that passed (none when every seed diverged).
    if (std::string(nan_seed) == "3") EXPECT_EQ(verdict("NoisyAccuracy", "loss"), "PASS");
  }
  // Without a baseline the seed still fails the test.
  EXPECT_EQ(run("--filter NoisyAccuracy --set NoisyAccuracy.nan_seed=5").exit_code, kTestFailed);
}

// The last seed of a seeded test must fit the baseline file too: S + n - 1 < 2^63. At the edge,
// promote writes seeds that every later run reads back.
TEST_F(SeededE2eTest, SeedsBeyondWhatABaselineFileHoldsAreRefusedAndTheEdgeRoundTrips) {
  const ProcessResult beyond = run("--filter NoisyAccuracy --seed 9223372036854775801");
  EXPECT_EQ(beyond.exit_code, kUsageError) << beyond.out;
  EXPECT_THAT(beyond.err, HasSubstr("Full.NoisyAccuracy: its 8 seeds from --seed "
                                    "9223372036854775801 would go beyond the largest seed"));
  EXPECT_THAT(beyond.err, HasSubstr("use --seed 9223372036854775800 or lower"));

  ASSERT_EQ(run("--filter NoisyAccuracy --seed 9223372036854775800").exit_code, kPassed);
  const ProcessResult promoted = promote();
  ASSERT_EQ(promoted.exit_code, kPassed) << promoted.err;
  const ProcessResult again =
      run_against_baseline("--filter NoisyAccuracy --seed 9223372036854775800");
  EXPECT_EQ(again.exit_code, kPassed) << again.out << again.err;
  EXPECT_EQ(verdict("NoisyAccuracy", "accuracy"), "PASS");
}

TEST_F(SeededE2eTest, ABandPolicyInASeededTestIsRefusedWithAClearMessage) {
  const ProcessResult result = run("--filter NoisyAccuracy --set NoisyAccuracy.band_policy=true");
  EXPECT_EQ(result.exit_code, kTestFailed);
  EXPECT_THAT(result.out, ::testing::HasSubstr("a seeded test compares per-seed distributions"))
      << result.out;
}

TEST_F(SeededE2eTest, PromotionStoresSamplesAndStatesWhatTheBudgetCanDetect) {
  ASSERT_EQ(run("--filter NoisyAccuracy").exit_code, kPassed);
  const ProcessResult promoted = promote();
  ASSERT_EQ(promoted.exit_code, kPassed) << promoted.err;
  // The power of the gate a later run makes: its one look on 8 fresh seeds, simulated.
  EXPECT_THAT(promoted.out,
              ::testing::HasSubstr("NoisyAccuracy.accuracy: the gate that will run (fresh seeds, 8 "
                                   "of them in one look, alpha 0.01"))
      << promoted.out;
  EXPECT_THAT(promoted.out, ::testing::HasSubstr("simulated from these 8 samples, 2000 runs)"))
      << promoted.out;
  const std::string toml = read_file(baselines() + "/mlregress_seed_fixture/seed_fixture.toml");
  EXPECT_THAT(toml, ::testing::HasSubstr("policy = \"margin\"")) << toml;
  EXPECT_THAT(toml, ::testing::HasSubstr("seeds = [0, 1, 2, 3, 4, 5, 6, 7]")) << toml;
  EXPECT_THAT(toml, ::testing::HasSubstr("summary = { n = 8, mean = ")) << toml;
}

TEST_F(SeededE2eTest, RerunOnTheSameSeedsIsPairedAndPasses) {
  promote_baseline();
  ASSERT_EQ(run_against_baseline("--filter NoisyAccuracy").exit_code, kPassed);
  const json accuracy = metric_named(test_named("NoisyAccuracy"), "accuracy");
  EXPECT_EQ(accuracy.at("verdict"), "PASS");
  EXPECT_EQ(accuracy.at("distribution").at("design"), "paired");
  EXPECT_EQ(accuracy.at("distribution").at("difference"), 0.0);
}

TEST_F(SeededE2eTest, FreshSeedsOfTheSameCodeAreNotARegression) {
  promote_baseline();
  for (const char* seed : {"100", "200", "300"}) {
    const ProcessResult result =
        run_against_baseline(std::string("--filter NoisyAccuracy --seed ") + seed);
    EXPECT_NE(result.exit_code, kRegression) << result.out;
    EXPECT_EQ(metric_named(test_named("NoisyAccuracy"), "accuracy").at("distribution").at("design"),
              "welch");
    EXPECT_NE(verdict("NoisyAccuracy", "accuracy"), "REGRESSION");
  }
}

TEST_F(SeededE2eTest, APlantedDropBeyondTheMarginIsARegressionWithItsStatistics) {
  const ProcessResult result = run_shifted_against_baseline("-0.05");
  EXPECT_EQ(result.exit_code, kRegression) << result.out;
  EXPECT_EQ(verdict("NoisyAccuracy", "accuracy"), "REGRESSION");
  EXPECT_EQ(verdict("NoisyAccuracy", "loss"), "REGRESSION");  // loss rises by the same shift
  const json d = metric_named(test_named("NoisyAccuracy"), "accuracy").at("distribution");
  EXPECT_LT(d.at("ci95").at(1).get<double>(), -0.01);
  EXPECT_LT(d.at("hedges_g").get<double>(), -2.0);
  EXPECT_LT(d.at("probability_of_improvement").get<double>(), 0.1);
  EXPECT_LT(d.at("p_worse_holm").get<double>(), 0.01);
  EXPECT_THAT(result.out, ::testing::HasSubstr("Multi-seed gate"));
  const std::string junit = read_file(latest() + "/junit.xml");
  EXPECT_THAT(junit, ::testing::HasSubstr("DISTRIBUTION"));
}

TEST_F(SeededE2eTest, ASmallDropWithinTheNoiseIsNeverAConfidentPassOrImproved) {
  run_shifted_against_baseline("-0.006");
  const std::string v = verdict("NoisyAccuracy", "accuracy");
  EXPECT_TRUE(v == "INCONCLUSIVE" || v == "REGRESSION") << v;
}

TEST_F(SeededE2eTest, APlantedGainBeyondTheMarginIsImprovedAndPasses) {
  const ProcessResult result = run_shifted_against_baseline("0.05");
  EXPECT_EQ(result.exit_code, kPassed) << result.out;
  EXPECT_EQ(verdict("NoisyAccuracy", "accuracy"), "IMPROVED");
}

TEST_F(SeededE2eTest, BaselinesCheckDoesNotCallPortableSamplesAnotherEnvironments) {
  promote_baseline();
  const ProcessResult check = fixture("baselines check --baselines " + baselines());
  EXPECT_THAT(check.out, ::testing::Not(::testing::HasSubstr("ungated "))) << check.out;
}

TEST_F(SeededE2eTest, StrictEnvFailsASeededMetricWhoseBaselineIsASingleValue) {
  promote_baseline();
  const std::string file = baselines() + "/mlregress_seed_fixture/seed_fixture.toml";
  std::string toml = read_file(file);
  // Hand-made: the accuracy entry as a plain banded value, as an old ML_TEST would have stored it.
  const std::size_t from = toml.find("policy = \"margin\"\nmargin = 0.01\nseeds");
  const std::size_t to = toml.find("\n\n", from);
  ASSERT_NE(from, std::string::npos);
  toml.replace(from, to - from, "policy = \"band\"\nrtol = 0.1\natol = 0.0\nvalue = 0.87");
  // ... and without the pool of blocks its samples came from.
  const std::size_t pool = toml.find("\n[[tests.NoisyAccuracy.metrics.accuracy.pool]]");
  ASSERT_NE(pool, std::string::npos);
  toml.erase(pool, toml.find("\n\n", pool + 1) - pool);
  std::ofstream(file) << toml;
  EXPECT_EQ(run_against_baseline("--filter NoisyAccuracy").exit_code, kPassed);
  EXPECT_EQ(verdict("NoisyAccuracy", "accuracy"), "NOT_COMPARABLE");
  EXPECT_EQ(run_against_baseline("--filter NoisyAccuracy --strict-env").exit_code, kNotGated);
}

TEST_F(SeededE2eTest, CompareJudgesSeededMetricsWithTheSameGate) {
  ASSERT_EQ(fixture("run --filter NoisyAccuracy --out " + temp_.path() + "/a").exit_code, kPassed);
  ASSERT_EQ(fixture("run --filter NoisyAccuracy --seed 50 --out " + temp_.path() +
                    "/b --set NoisyAccuracy.shift=-0.03")
                .exit_code,
            kPassed);
  const ProcessResult same =
      fixture("compare " + temp_.path() + "/a/latest " + temp_.path() + "/a/latest");
  EXPECT_EQ(same.exit_code, kPassed) << same.out;
  const ProcessResult worse =
      fixture("compare " + temp_.path() + "/a/latest " + temp_.path() + "/b/latest");
  EXPECT_EQ(worse.exit_code, kRegression) << worse.out;
  EXPECT_THAT(worse.out, ::testing::HasSubstr("welch")) << worse.out;
}

// The multi-seed gate replaces a metric's note with its reason; a direction that changed since
// promotion is a field of the comparison, so run and compare both still say so.
TEST_F(SeededE2eTest, ADirectionChangeSurvivesTheGateInRunAndCompare) {
  ASSERT_EQ(run("--filter NoisyAccuracy").exit_code, kPassed);
  const std::string a = temp_.path() + "/runs/" + std::filesystem::read_symlink(latest()).string();
  json document = json::parse(read_file(a + "/results.json"));
  for (json& metric : document["tests"][0]["metrics"]) {
    if (metric["name"] == "loss") metric["direction"] = "higher_is_better";
  }
  std::ofstream(a + "/results.json") << document.dump();
  ASSERT_EQ(fixture("promote " + a + " --baselines " + baselines() + " --reason e2e").exit_code,
            kPassed);
  const ProcessResult judged = run_against_baseline("--filter NoisyAccuracy");
  const ProcessResult compared = fixture("compare " + a + " " + latest());
  const std::string note =
      "the test now says lower_is_better, the baseline higher_is_better; promote to adopt";
  EXPECT_THAT(judged.out, HasSubstr(note));
  EXPECT_THAT(compared.out, HasSubstr(note));
  EXPECT_EQ(metric_named(test_named("NoisyAccuracy"), "loss").at("baseline_direction"),
            "higher_is_better");
}

TEST_F(SeededE2eTest, VariantsRunOverTheSameSeedsAsMetricsOfTheirOwn) {
  ASSERT_EQ(run("--filter WidthAblation").exit_code, kPassed);
  const json test = test_named("WidthAblation");
  const json base = metric_named(test, "accuracy[baseline]");
  const json half = metric_named(test, "accuracy[half_width]");
  EXPECT_EQ(base.at("seeds"), half.at("seeds"));
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_NEAR(half.at("samples").at(i).get<double>() - base.at("samples").at(i).get<double>(),
                -0.02, 1e-12);
  }
  EXPECT_EQ(test.at("seed_runs").size(), 12u);
}

TEST_F(SeededE2eTest, TheAblationTableComesFromTheSeedLedgerWithPairedComparisons) {
  const ProcessResult result = run("--filter WidthAblation");
  ASSERT_EQ(result.exit_code, kPassed);
  EXPECT_THAT(result.out, ::testing::HasSubstr("ABLATION WidthAblation (2 variants")) << result.out;
  // The reference is the first declared variant, whichever seed finished first (--jobs 4).
  ASSERT_EQ(run("--filter WidthAblation --jobs 4").exit_code, kPassed);
  const ProcessResult table = fixture("ablation " + latest());
  EXPECT_THAT(table.out, ::testing::HasSubstr("vs baseline (paired t")) << table.out;
  EXPECT_EQ(table.exit_code, kPassed);
  EXPECT_THAT(table.out,
              ::testing::HasSubstr(
                  "half_width       accuracy     diff -0.0200 [95% CI -0.0200, -0.0200] · 6 pairs"))
      << table.out;
  // The table is regenerated from seeds.jsonl: a ledger without variants has no table.
  ASSERT_EQ(run("--filter NoisyAccuracy").exit_code, kPassed);
  EXPECT_EQ(fixture("ablation " + latest()).exit_code, kNoTestsMatched);
  EXPECT_EQ(fixture("ablation " + temp_.path() + "/no-such-run").exit_code, kRunFolderError);
  // A damaged ledger line (a process killed while writing it) is skipped and reported by file
  // and line, never silently; the rest of the ledger still gives its table.
  ASSERT_EQ(run("--filter WidthAblation --jobs 4").exit_code, kPassed);
  std::ofstream(latest() + "/seeds.jsonl", std::ios::app) << "{\"test\": \"Trunc\n";
  const ProcessResult damaged = fixture("ablation " + latest());
  EXPECT_EQ(damaged.exit_code, kPassed) << damaged.err;
  EXPECT_THAT(damaged.err, ::testing::HasSubstr("seeds.jsonl:13: skipped, not a seed ledger line"))
      << damaged.err;
  EXPECT_THAT(damaged.out, ::testing::HasSubstr("half_width")) << damaged.out;
}

TEST_F(SeededE2eTest, TheAblationTableShowsEachMeanWithItsIntervalAndRobustSummariesOnAsk) {
  ASSERT_EQ(run("--filter WidthAblation").exit_code, kPassed);
  const ProcessResult table = fixture("ablation " + latest());
  ASSERT_EQ(table.exit_code, kPassed) << table.err;
  EXPECT_THAT(table.out, ::testing::HasSubstr("mean ± sem [95% CI] (n)")) << table.out;
  EXPECT_THAT(table.out, ::testing::HasSubstr("] (6)")) << table.out;  // each variant's 6 seeds
  EXPECT_THAT(table.out, ::testing::Not(::testing::HasSubstr("IQM"))) << table.out;
  const ProcessResult robust = fixture("ablation " + latest() + " --robust");
  ASSERT_EQ(robust.exit_code, kPassed) << robust.err;
  EXPECT_THAT(robust.out, ::testing::HasSubstr("IQM ")) << robust.out;
  EXPECT_THAT(robust.out, ::testing::HasSubstr("[bootstrap 95% ")) << robust.out;
  // Six seeds: the median's interval is [min, max], covering 1 - 2/64 = 96.9%.
  EXPECT_THAT(robust.out, ::testing::HasSubstr("(96.9%)")) << robust.out;
}

TEST_F(SeededE2eTest, ProgressIsOnePlainLinePerSeedOutsideATerminal) {
  const ProcessResult result = run("--filter NoisyAccuracy --jobs 1");
  EXPECT_THAT(result.out, ::testing::HasSubstr("NoisyAccuracy 8/8: seed 7 passed")) << result.out;
  EXPECT_THAT(result.out, ::testing::Not(::testing::HasSubstr("\r")));
}

// Every seed recorded the data it measured on (record_dataset) and the order it served it in
// (record_data_order). A baseline promoted on other data says nothing about this run: every
// metric of the seeded test is NOT_COMPARABLE, naming the dataset, as for a plain test.
TEST_F(SeededE2eTest, ASeededTestOnOtherDataIsNotComparable) {
  ASSERT_EQ(run("--filter NoisyAccuracy --set NoisyAccuracy.data=v1").exit_code, kPassed);
  const json recorded = test_named("NoisyAccuracy").at("datasets");
  ASSERT_EQ(recorded.size(), 2u) << recorded.dump();
  const json properties = test_named("NoisyAccuracy").at("properties");
  EXPECT_EQ(properties.at("data"), "v1") << properties.dump();
  EXPECT_TRUE(properties.contains("first_index")) << properties.dump();
  const ProcessResult promoted = promote();
  ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;

  const ProcessResult same =
      run_against_baseline("--filter NoisyAccuracy --set NoisyAccuracy.data=v1");
  EXPECT_EQ(same.exit_code, kPassed) << same.out << same.err;
  EXPECT_NE(verdict("NoisyAccuracy", "accuracy"), "NOT_COMPARABLE");

  const ProcessResult other =
      run_against_baseline("--filter NoisyAccuracy --set NoisyAccuracy.data=v2");
  EXPECT_EQ(other.exit_code, kPassed) << other.out << other.err;
  for (const std::string metric : {"accuracy", "loss"}) {
    const json m = metric_named(test_named("NoisyAccuracy"), metric);
    EXPECT_EQ(m.at("verdict"), "NOT_COMPARABLE") << m.dump();
    EXPECT_THAT(m.at("note").get<std::string>(), HasSubstr("the dataset 'train' changed"));
  }
  // A property is not gated: it is named beside the verdicts.
  EXPECT_THAT(test_named("NoisyAccuracy").at("baseline").at("environment").get<std::string>(),
              HasSubstr(" · properties changed: data v1 → v2"));
}

}  // namespace
}  // namespace mlregress::e2e
