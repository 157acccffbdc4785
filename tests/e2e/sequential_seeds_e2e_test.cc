// Sequential seeded tests end to end, through tests/fixture/sequential_fixture.cc
// (Seeds(4).up_to(12)): a run without a baseline takes every seed, a decided gate stops the run
// after the first block, a large regression is REGRESSION on the first block, a close call runs
// every block, each look is in the console, JUnit, results.json and seeds.jsonl, promote refuses
// a run that stopped early, and shards merged decide at the same look as one machine.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

inline constexpr int kMergeRefused = 9;

class SequentialSeedsE2eTest : public FixtureBinaryTest {
 protected:
  SequentialSeedsE2eTest() : FixtureBinaryTest(MLREGRESS_SEQUENTIAL_FIXTURE_BINARY) {}
  ProcessResult run(const std::string& args, const std::string& out = "runs") {
    return fixture("run --color never --out " + temp_.path() + "/" + out + " --junit " +
                   temp_.path() + "/junit.xml " + args);
  }
  ProcessResult run_against_baseline(const std::string& args) {
    return run("--baselines " + baselines() + " " + args);
  }
  std::string latest(const std::string& out = "runs") const {
    return std::filesystem::canonical(temp_.path() + "/" + out + "/latest").string();
  }
  // A baseline of all 12 seeds: a run without one takes every seed.
  void promote_baseline() {
    const ProcessResult first = run("");
    ASSERT_EQ(first.exit_code, kPassed) << first.out << first.err;
    ASSERT_EQ(seed_runs(), 12u);
    const ProcessResult promoted =
        fixture("promote " + latest() + " --baselines " + baselines() + " --reason e2e");
    ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
  }
  // mlregress_likelihood_ratio_fixture: Seeds(2).then_blocks_of(1).up_to(12).likelihood_ratio().
  ProcessResult lr_fixture(const std::string& args) const {
    return run_fixture_in(temp_.path(), MLREGRESS_LIKELIHOOD_RATIO_FIXTURE_BINARY, args);
  }
  // mlregress_pass_rise_fixture: the same, .pass_rise(1.5, 5).
  ProcessResult pass_rise_fixture(const std::string& args) const {
    return run_fixture_in(temp_.path(), MLREGRESS_PASS_RISE_FIXTURE_BINARY, args);
  }
  // mlregress_constant_pass_fixture: the same, .constant_pass().
  ProcessResult constant_pass_fixture(const std::string& args) const {
    return run_fixture_in(temp_.path(), MLREGRESS_CONSTANT_PASS_FIXTURE_BINARY, args);
  }
  // Every baseline file's text, one after the other.
  std::string baseline_text() const {
    std::string text;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(baselines()))
      if (entry.path().extension() == ".toml") text += read_file(entry.path().string());
    return text;
  }
  json test_result(const std::string& folder = "") const {
    return json::parse(read_file((folder.empty() ? latest() : folder) + "/results.json"))
        .at("tests")
        .at(0);
  }
  json accuracy(const std::string& folder = "") const {
    return test_result(folder).at("metrics").at(0);
  }
  std::size_t seed_runs(const std::string& folder = "") const {
    return test_result(folder).at("seed_runs").size();
  }
  std::vector<std::string> outcomes(const std::string& folder = "") const {
    std::vector<std::string> out;
    const json metric = accuracy(folder);
    for (const json& look : metric.at("looks")) out.push_back(look.at("outcome"));
    return out;
  }
};

TEST_F(SequentialSeedsE2eTest, AnUnchangedPairedRunStopsAfterTheFirstBlock) {
  promote_baseline();
  const ProcessResult result = run_against_baseline("");
  ASSERT_EQ(result.exit_code, kPassed) << result.out << result.err;
  EXPECT_EQ(seed_runs(), 4u);
  EXPECT_EQ(accuracy().at("verdict"), "PASS");
  EXPECT_EQ(outcomes(), std::vector<std::string>{"pass"});
  EXPECT_EQ(accuracy().at("looks").at(0).at("design"), "paired");
  EXPECT_THAT(result.out, HasSubstr("look at 4 seeds: diff 0"));
  // Progress counts to the end of the block, not to the cap the run never reached.
  EXPECT_THAT(result.out, HasSubstr("SequentialAccuracy 4/4: "));
  EXPECT_THAT(result.out, ::testing::Not(HasSubstr("/12: ")));
  // The look is in the seed ledger after the four seeds, and in JUnit.
  std::istringstream ledger(read_file(latest() + "/seeds.jsonl"));
  std::vector<json> lines;
  for (std::string line; std::getline(ledger, line);) lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines.back().at("look").at("seeds"), 4);
  EXPECT_EQ(lines.back().at("metric"), "accuracy");
  EXPECT_THAT(read_file(temp_.path() + "/junit.xml"), HasSubstr("look at 4 seeds"));
}

TEST_F(SequentialSeedsE2eTest, ALargeRegressionIsCaughtOnTheFirstBlock) {
  promote_baseline();
  const ProcessResult result =
      run_against_baseline("--seed 100 --set SequentialAccuracy.shift=-0.05");
  EXPECT_EQ(result.exit_code, kRegression) << result.out << result.err;
  EXPECT_EQ(seed_runs(), 4u);
  EXPECT_EQ(accuracy().at("verdict"), "REGRESSION");
  EXPECT_EQ(outcomes(), std::vector<std::string>{"regression"});
  // The sequential p-value joined Holm: it is the one the verdict states.
  const json metric = accuracy();
  const json& look = metric.at("looks").at(0);
  EXPECT_EQ(metric.at("distribution").at("p_worse"), look.at("p_worse_sequential"));
  EXPECT_GT(look.at("p_worse_sequential").get<double>(), look.at("p_worse").get<double>());
}

TEST_F(SequentialSeedsE2eTest, ACloseCallRunsEveryBlockAndStaysInconclusive) {
  promote_baseline();
  const ProcessResult result =
      run_against_baseline("--seed 200 --set SequentialAccuracy.shift=-0.008");
  EXPECT_EQ(result.exit_code, kPassed) << result.out << result.err;
  EXPECT_EQ(seed_runs(), 12u);
  EXPECT_EQ(outcomes(), (std::vector<std::string>{"continue", "continue", "continue"}));
  EXPECT_EQ(accuracy().at("verdict"), "INCONCLUSIVE");
  EXPECT_THAT(result.out, HasSubstr("look at 12 seeds"));
}

TEST_F(SequentialSeedsE2eTest, AllSeedsRunsToTheCapAndTheVerdictIsTheSameLook) {
  promote_baseline();
  ASSERT_EQ(run_against_baseline("--all-seeds").exit_code, kPassed);
  EXPECT_EQ(seed_runs(), 12u);
  // The gate still decides at the first look that settles the metric.
  EXPECT_EQ(outcomes(), std::vector<std::string>{"pass"});
}

// A NaN fails its seed (and so the test) and makes the metric a REGRESSION, also when it is in a
// block after the one that settled the gate.
TEST_F(SequentialSeedsE2eTest, ADivergedSeedIsARegressionWhereverItRan) {
  promote_baseline();
  const ProcessResult result = run_against_baseline(
      "--all-seeds --set SequentialAccuracy.diverge_seed=9 --set SequentialAccuracy.shift=0.0001");
  EXPECT_EQ(result.exit_code, kTestFailed) << result.out << result.err;
  EXPECT_EQ(accuracy().at("verdict"), "REGRESSION");
  EXPECT_EQ(outcomes(), std::vector<std::string>{"regression"});
}

TEST_F(SequentialSeedsE2eTest, PromoteRefusesARunThatStoppedEarly) {
  promote_baseline();
  ASSERT_EQ(run_against_baseline("").exit_code, kPassed);
  ASSERT_EQ(seed_runs(), 4u);
  const ProcessResult refused =
      fixture("promote " + latest() + " --baselines " + baselines() + " --reason e2e");
  EXPECT_EQ(refused.exit_code, kPromotionRefused) << refused.out << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("ran 4 of its 12 seeds"));
  EXPECT_THAT(refused.err, HasSubstr("--all-seeds"));
}

// rerun repeats the blocks the run reached, no more, and refuses a seed it never ran.
TEST_F(SequentialSeedsE2eTest, RerunRepeatsTheSeedsTheRunReached) {
  promote_baseline();
  ASSERT_EQ(run_against_baseline("").exit_code, kPassed);
  const std::string original = latest();
  const ProcessResult rerun =
      fixture("rerun " + original + " --test SequentialAccuracy --out " + temp_.path() + "/reruns");
  EXPECT_EQ(rerun.exit_code, kPassed) << rerun.out << rerun.err;
  EXPECT_EQ(seed_runs(latest("reruns")), 4u);
  const ProcessResult beyond =
      fixture("rerun " + original + " --test SequentialAccuracy --seed 9 --out " + temp_.path() +
              "/reruns");
  EXPECT_EQ(beyond.exit_code, kUsageError) << beyond.out << beyond.err;
  EXPECT_THAT(beyond.err, HasSubstr("did not use seed 9"));
}

TEST_F(SequentialSeedsE2eTest, ShardsRunEverySeedAndMergeDecidesAtTheSameLook) {
  promote_baseline();
  const std::string args = "--baselines " + baselines() + " --seed 100";
  ASSERT_EQ(run(args, "single").exit_code, kPassed);
  const json single = accuracy(latest("single"));
  ASSERT_EQ(single.at("looks").size(), 3u);  // fresh seeds: a PASS needs all 12 here

  std::string folders;
  for (int shard = 0; shard < 3; ++shard) {
    const ProcessResult part =
        run(args + " --shard " + std::to_string(shard) + "/3", "shard" + std::to_string(shard));
    ASSERT_EQ(part.exit_code, kPassed) << part.out << part.err;
    EXPECT_EQ(seed_runs(latest("shard" + std::to_string(shard))), 4u);
    EXPECT_FALSE(accuracy(latest("shard" + std::to_string(shard))).contains("looks"));
    folders += " " + latest("shard" + std::to_string(shard));
  }
  const ProcessResult merged =
      fixture("merge --color never --out " + temp_.path() + "/merged" + folders);
  ASSERT_EQ(merged.exit_code, kPassed) << merged.out << merged.err;
  const json joined = accuracy(latest("merged"));
  EXPECT_EQ(joined.at("verdict"), single.at("verdict"));
  EXPECT_EQ(joined.at("looks"), single.at("looks"));
  EXPECT_EQ(joined.at("distribution"), single.at("distribution"));
}

// Seeds(4).up_to(12).pass_early() (the same test built by mlregress_pass_early_fixture): the
// design is listed, recorded in config.json and results.json, judged by the gate (the first
// look's interval is narrower than the default design's on the same seeds), named in each look
// line and in promote's simulated power.
TEST_F(SequentialSeedsE2eTest, PassingEarlyFlowsFromTheDeclarationToTheVerdict) {
  const std::string early = MLREGRESS_PASS_EARLY_FIXTURE_BINARY;
  const auto early_fixture = [&](const std::string& args) {
    return run_fixture_in(temp_.path(), early, args);
  };
  EXPECT_THAT(early_fixture("list").out, HasSubstr("[4 seeds at a time, up to 12, PASS early]"));
  promote_baseline();
  // Its own baseline (baselines are per binary), of every seed: promote states the power of the
  // design that will judge the next run.
  const std::string run_args = "run --color never --baselines " + baselines() + " --out ";
  ASSERT_EQ(early_fixture(run_args + temp_.path() + "/first").exit_code, kPassed);
  const ProcessResult promoted =
      early_fixture("promote " + latest("first") + " --baselines " + baselines() + " --reason e2e");
  ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
  EXPECT_THAT(promoted.out, HasSubstr("4 at a time up to 12, PASS error spent early"));

  const std::string args = run_args + temp_.path();
  ASSERT_EQ(fixture(args + "/late --seed 100").exit_code, kPassed);
  const ProcessResult result = early_fixture(args + "/early --seed 100");
  ASSERT_EQ(result.exit_code, kPassed) << result.out << result.err;
  EXPECT_THAT(result.out, HasSubstr("the PASS error is spent early (pass_early)"));
  const json test = test_result(latest("early"));
  EXPECT_EQ(test.at("seed_pass_spending"), "pocock");
  EXPECT_EQ(test_result(latest("late")).at("seed_pass_spending"), "obrien-fleming");
  const json config = json::parse(read_file(latest("early") + "/config.json"));
  EXPECT_EQ(config.at("tests").at("SequentialAccuracy").at("pass_spending"), "pocock");
  const json early_look = accuracy(latest("early")).at("looks").at(0);
  const json late_look = accuracy(latest("late")).at("looks").at(0);
  EXPECT_EQ(early_look.at("pass_spending"), "pocock");
  EXPECT_EQ(early_look.at("p_worse"), late_look.at("p_worse"));  // the same seeds and samples
  EXPECT_LT(early_look.at("interval_level").get<double>(),
            late_look.at("interval_level").get<double>() - 0.01);
}

// Seeds(4).up_to(12).pass_error(0.2) (mlregress_pass_error_fixture): the design is listed,
// planned in config.json, recorded in results.json, judged by the gate (on the same seeds each
// look's PASS interval is narrower than the default design's: its level spends 0.2, not 0.025)
// and named in promote's simulated power. Planted: a gate that ignored the declared error would
// give both designs the same interval level.
TEST_F(SequentialSeedsE2eTest, APassErrorFlowsFromTheDeclarationToTheVerdict) {
  const std::string beta = MLREGRESS_PASS_ERROR_FIXTURE_BINARY;
  const auto beta_fixture = [&](const std::string& args) {
    return run_fixture_in(temp_.path(), beta, args);
  };
  EXPECT_THAT(beta_fixture("list").out, HasSubstr("[4 seeds at a time, up to 12, PASS error 0.2]"));
  EXPECT_EQ(json::parse(beta_fixture("list --format json").out)
                .at("tests")
                .at(0)
                .at("seeds_pass_error")
                .get<double>(),
            0.2);
  promote_baseline();
  const std::string run_args = "run --color never --baselines " + baselines() + " --out ";
  ASSERT_EQ(beta_fixture(run_args + temp_.path() + "/first").exit_code, kPassed);
  const ProcessResult promoted =
      beta_fixture("promote " + latest("first") + " --baselines " + baselines() + " --reason e2e");
  ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
  EXPECT_THAT(promoted.out, HasSubstr("4 at a time up to 12, PASS error 0.2"));

  const std::string args = run_args + temp_.path();
  ASSERT_EQ(fixture(args + "/default --seed 100").exit_code, kPassed);
  const ProcessResult result = beta_fixture(args + "/beta --seed 100");
  ASSERT_EQ(result.exit_code, kPassed) << result.out << result.err;
  EXPECT_DOUBLE_EQ(test_result(latest("beta")).at("seed_pass_error").get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(test_result(latest("default")).at("seed_pass_error").get<double>(), 0.025);
  const json config = json::parse(read_file(latest("beta") + "/config.json"));
  EXPECT_DOUBLE_EQ(config.at("tests").at("SequentialAccuracy").at("pass_error").get<double>(), 0.2);
  EXPECT_FALSE(json::parse(read_file(latest("default") + "/config.json"))
                   .at("tests")
                   .at("SequentialAccuracy")
                   .contains("pass_error"));
  const json beta_look = accuracy(latest("beta")).at("looks").at(0);
  const json default_look = accuracy(latest("default")).at("looks").at(0);
  EXPECT_EQ(beta_look.at("p_worse"), default_look.at("p_worse"));  // the same seeds and samples
  EXPECT_LT(beta_look.at("interval_level").get<double>(),
            default_look.at("interval_level").get<double>() - 0.01);
}

// Seeds(2).then_blocks_of(1).up_to(12).likelihood_ratio().pass_error(0.2)
// (mlregress_likelihood_ratio_fixture): the design is listed, planned in config.json, recorded in
// results.json, named by promote; the runner looks after 2 seeds and then after every seed, each
// look carries its log likelihood ratio and boundaries, an unchanged candidate on fresh seeds
// PASSes and a drop of 5 margins is a REGRESSION at the first look. Planted: a gate that ignored
// the declaration would write looks without a likelihood ratio, at 4 seeds and more.
TEST_F(SequentialSeedsE2eTest, LikelihoodRatioLooksFlowFromTheDeclarationToTheVerdict) {
  EXPECT_THAT(lr_fixture("list").out,
              HasSubstr("[2 seeds, then 1 at a time, up to 12, likelihood-ratio looks, PASS error "
                        "0.2, PASS boundary chosen per shape]"));
  EXPECT_EQ(json::parse(lr_fixture("list --format json").out)
                .at("tests")
                .at(0)
                .at("seeds_likelihood_ratio"),
            true);
  promote_baseline();
  const std::string run_args = "run --color never --baselines " + baselines() + " --out ";
  ASSERT_EQ(lr_fixture(run_args + temp_.path() + "/first").exit_code, kPassed);
  const ProcessResult promoted =
      lr_fixture("promote " + latest("first") + " --baselines " + baselines() + " --reason e2e");
  ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
  EXPECT_THAT(promoted.out, HasSubstr("likelihood-ratio looks"));

  const ProcessResult same = lr_fixture(run_args + temp_.path() + "/same --seed 100");
  ASSERT_EQ(same.exit_code, kPassed) << same.out << same.err;
  EXPECT_THAT(same.out, HasSubstr("log likelihood ratio"));
  EXPECT_EQ(accuracy(latest("same")).at("verdict"), "PASS");
  EXPECT_EQ(test_result(latest("same")).at("seed_likelihood_ratio"), true);
  const json config = json::parse(read_file(latest("same") + "/config.json"));
  EXPECT_EQ(config.at("tests").at("SequentialAccuracy").at("likelihood_ratio"), true);
  const json looks = accuracy(latest("same")).at("looks");
  for (std::size_t k = 0; k < looks.size(); ++k) {
    EXPECT_EQ(looks.at(k).at("seeds"), 2 + static_cast<int>(k));
    const json& ratio = looks.at(k).at("likelihood_ratio");
    EXPECT_LT(ratio.at("pass_boundary").get<double>(),
              ratio.at("regression_boundary").get<double>());
    EXPECT_THAT(ratio.at("scale_source").get<std::string>(), HasSubstr("the baseline's 12 seeds"));
  }
  EXPECT_EQ(seed_runs(latest("same")), looks.size() + 1);

  const ProcessResult worse = lr_fixture(run_args + temp_.path() +
                                         "/worse --seed 100 --set SequentialAccuracy.shift=-0.05");
  EXPECT_EQ(worse.exit_code, kRegression) << worse.out << worse.err;
  EXPECT_EQ(accuracy(latest("worse")).at("verdict"), "REGRESSION");
  EXPECT_EQ(seed_runs(latest("worse")), 2u);
}

// .pass_rise(1.5, 5) (mlregress_pass_rise_fixture): listed, planned in config.json, recorded in
// results.json, named by promote; each look's PASS boundary is the first look's until 5 seeds and
// 1.5 above it from there on, and a drift of half the margin that a constant boundary would have
// kept looking at PASSes at the raised one. Planted: a gate that ignored the rise keeps one PASS
// boundary.
TEST_F(SequentialSeedsE2eTest, APassRiseFlowsFromTheDeclarationToTheLooks) {
  EXPECT_THAT(pass_rise_fixture("list").out,
              HasSubstr("likelihood-ratio looks, PASS error 0.2, PASS boundary rising by 1.5 from "
                        "5 seeds]"));
  promote_baseline();
  const std::string run_args = "run --color never --baselines " + baselines() + " --out ";
  ASSERT_EQ(pass_rise_fixture(run_args + temp_.path() + "/first").exit_code, kPassed);
  const ProcessResult promoted = pass_rise_fixture("promote " + latest("first") + " --baselines " +
                                                   baselines() + " --reason e2e");
  ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
  EXPECT_THAT(promoted.out, HasSubstr("PASS boundary rising by 1.5 from 5 seeds"));
  // A drift of half the margin leaves the first looks undecided.
  const ProcessResult drift = pass_rise_fixture(
      run_args + temp_.path() + "/drift --seed 200 --set SequentialAccuracy.shift=-0.005");
  ASSERT_NE(drift.exit_code, kUsageError) << drift.out << drift.err;
  EXPECT_EQ(test_result(latest("drift")).at("seed_pass_rise"), 1.5);
  EXPECT_EQ(test_result(latest("drift")).at("seed_pass_rise_from"), 5);
  const json config = json::parse(read_file(latest("drift") + "/config.json"));
  EXPECT_EQ(config.at("tests").at("SequentialAccuracy").at("pass_rise"), 1.5);
  const json looks = accuracy(latest("drift")).at("looks");
  ASSERT_GE(looks.size(), 4u);
  const double first = looks.at(0).at("likelihood_ratio").at("pass_boundary").get<double>();
  for (const json& look : looks) {
    const int seeds = look.at("seeds").get<int>();
    EXPECT_NEAR(look.at("likelihood_ratio").at("pass_boundary").get<double>(),
                first + (seeds >= 5 ? 1.5 : 0.0), 1e-9)
        << seeds;
  }
  const json& last = looks.back();
  EXPECT_EQ(last.at("outcome"), "pass");
  EXPECT_GT(last.at("likelihood_ratio").at("log_ratio").get<double>(), first);
}

// .constant_pass() (mlregress_constant_pass_fixture): listed, planned in config.json, recorded in
// results.json and named by promote as a constant PASS boundary; its looks record no rise.
// Planted: the same test without it (mlregress_likelihood_ratio_fixture) lists the boundary its
// shapes choose and records no constant_pass.
TEST_F(SequentialSeedsE2eTest, AConstantPassBoundaryFlowsFromTheDeclarationToTheLooks) {
  EXPECT_THAT(constant_pass_fixture("list").out,
              HasSubstr("likelihood-ratio looks, PASS error 0.2, constant PASS boundary]"));
  EXPECT_EQ(json::parse(constant_pass_fixture("list --format json").out)
                .at("tests")
                .at(0)
                .at("seeds_constant_pass"),
            true);
  EXPECT_FALSE(json::parse(lr_fixture("list --format json").out)
                   .at("tests")
                   .at(0)
                   .contains("seeds_constant_pass"));
  promote_baseline();
  const std::string run_args = "run --color never --baselines " + baselines() + " --out ";
  ASSERT_EQ(constant_pass_fixture(run_args + temp_.path() + "/first").exit_code, kPassed);
  const ProcessResult promoted = constant_pass_fixture(
      "promote " + latest("first") + " --baselines " + baselines() + " --reason e2e");
  ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
  EXPECT_THAT(promoted.out, HasSubstr("constant PASS boundary"));
  const ProcessResult fresh = constant_pass_fixture(
      run_args + temp_.path() + "/fresh --seed 200 --set SequentialAccuracy.shift=-0.005");
  ASSERT_NE(fresh.exit_code, kUsageError) << fresh.out << fresh.err;
  EXPECT_EQ(test_result(latest("fresh")).at("seed_constant_pass"), true);
  const json config = json::parse(read_file(latest("fresh") + "/config.json"));
  EXPECT_EQ(config.at("tests").at("SequentialAccuracy").at("constant_pass"), true);
  const json looks = accuracy(latest("fresh")).at("looks");
  ASSERT_GE(looks.size(), 1u);
  for (const json& look : looks) EXPECT_FALSE(look.at("likelihood_ratio").contains("pass_rise"));
  ASSERT_EQ(lr_fixture(run_args + temp_.path() + "/plain").exit_code, kPassed);
  EXPECT_FALSE(test_result(latest("plain")).contains("seed_constant_pass"));
}

// A change that moved every seed's numbers, promoted over the same seeds, leaves the spread of
// those paired differences in the baseline; a later paired run's likelihood-ratio looks take it
// as their scale, and decide from the second seed.
TEST_F(SequentialSeedsE2eTest, PairedLikelihoodRatioLooksTakeTheSpreadPromoteStored) {
  std::filesystem::create_directories(baselines());
  const std::string run_args = "run --color never --baselines " + baselines() + " --out ";
  const std::string promote_args = " --baselines " + baselines() + " --reason e2e";
  ASSERT_EQ(lr_fixture(run_args + temp_.path() + "/first").exit_code, kPassed);
  ASSERT_EQ(lr_fixture("promote " + latest("first") + promote_args).exit_code, kPassed);
  EXPECT_THAT(baseline_text(), ::testing::Not(HasSubstr("paired_spread")));

  const ProcessResult moved =
      lr_fixture(run_args + temp_.path() + "/moved --all-seeds --set SequentialAccuracy.sd=0.0095");
  ASSERT_EQ(moved.exit_code, kPassed) << moved.out << moved.err;
  const ProcessResult promoted = lr_fixture("promote " + latest("moved") + promote_args);
  ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
  EXPECT_THAT(promoted.out, HasSubstr("stored as the scale of paired likelihood-ratio looks"));
  EXPECT_THAT(baseline_text(), HasSubstr("paired_spread = { sd = "));
  EXPECT_THAT(baseline_text(), HasSubstr("pairs = 12"));

  const ProcessResult paired = lr_fixture(run_args + temp_.path() + "/paired");
  ASSERT_EQ(paired.exit_code, kPassed) << paired.out << paired.err;
  const json metric = accuracy(latest("paired"));
  EXPECT_EQ(metric.at("verdict"), "PASS");
  const json& look = metric.at("looks").at(0);
  EXPECT_EQ(look.at("seeds"), 2);
  EXPECT_EQ(look.at("design"), "paired");
  EXPECT_THAT(look.at("likelihood_ratio").at("scale_source").get<std::string>(),
              HasSubstr("the baseline's 12 stored paired differences"));
  EXPECT_EQ(seed_runs(latest("paired")), 2u);
}

// promote --paired-spread stores the spread alone: the samples (a pool, say) stay as they were. It
// refuses a run that shares too few seeds with the baseline, and goes with --add-seeds never.
TEST_F(SequentialSeedsE2eTest, PromotePairedSpreadStoresTheSpreadAndLeavesTheSamples) {
  const auto samples_line = [&] {
    const std::string text = baseline_text();
    const std::size_t at = text.find("samples = [");
    return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
  };
  std::filesystem::create_directories(baselines());
  const std::string run_args = "run --color never --baselines " + baselines() + " --out ";
  const std::string promote_args = " --baselines " + baselines() + " --reason e2e";
  ASSERT_EQ(lr_fixture(run_args + temp_.path() + "/first").exit_code, kPassed);
  ASSERT_EQ(lr_fixture("promote " + latest("first") + promote_args).exit_code, kPassed);
  const std::string samples_before = samples_line();
  ASSERT_FALSE(samples_before.empty());

  ASSERT_EQ(
      lr_fixture(run_args + temp_.path() + "/moved --all-seeds --set SequentialAccuracy.sd=0.0095")
          .exit_code,
      kPassed);
  const ProcessResult both =
      lr_fixture("promote " + latest("moved") + promote_args + " --paired-spread --add-seeds");
  EXPECT_NE(both.exit_code, kPassed);
  EXPECT_THAT(both.err, HasSubstr("excludes"));
  const ProcessResult stored =
      lr_fixture("promote " + latest("moved") + promote_args + " --paired-spread");
  ASSERT_EQ(stored.exit_code, kPassed) << stored.out << stored.err;
  EXPECT_THAT(stored.out, HasSubstr("stored as the scale of paired likelihood-ratio looks; the "
                                    "samples stay"));
  EXPECT_THAT(baseline_text(), HasSubstr("pairs = 12"));
  EXPECT_EQ(samples_line(), samples_before);

  ASSERT_EQ(lr_fixture(run_args + temp_.path() + "/fresh --all-seeds --seed 100").exit_code,
            kPassed);
  const std::string before_refusal = baseline_text();
  const ProcessResult refused =
      lr_fixture("promote " + latest("fresh") + promote_args + " --paired-spread");
  EXPECT_EQ(refused.exit_code, kPromotionRefused) << refused.out << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("shares fewer than 9 seeds with the baseline"));
  EXPECT_EQ(baseline_text(), before_refusal);
}

// A pool's spread grows past one run's seeds: promote --paired-spread --add-pairs adds the pairs
// of a run of other seeds to those stored, counts a seed once (a run of counted seeds is refused,
// nothing written), and a later paired run's looks take every pair as their scale.
TEST_F(SequentialSeedsE2eTest, PromoteAddPairsGrowsAPoolsSpreadPastOneRunsSeeds) {
  std::filesystem::create_directories(baselines());
  const std::string run_args = "run --color never --baselines " + baselines() + " --out ";
  const std::string promote_args = " --baselines " + baselines() + " --reason e2e";
  const std::string moved = " --all-seeds --set SequentialAccuracy.sd=0.0095";
  ASSERT_EQ(lr_fixture(run_args + temp_.path() + "/first --all-seeds").exit_code, kPassed);
  ASSERT_EQ(lr_fixture("promote " + latest("first") + promote_args).exit_code, kPassed);
  ASSERT_EQ(lr_fixture(run_args + temp_.path() + "/more --all-seeds --seed 100").exit_code,
            kPassed);
  ASSERT_EQ(lr_fixture("promote " + latest("more") + promote_args + " --add-seeds").exit_code,
            kPassed);
  ASSERT_EQ(lr_fixture(run_args + temp_.path() + "/moved0" + moved).exit_code, kPassed);
  ASSERT_EQ(lr_fixture(run_args + temp_.path() + "/moved100 --seed 100" + moved).exit_code,
            kPassed);

  ASSERT_EQ(lr_fixture("promote " + latest("moved0") + promote_args + " --paired-spread").exit_code,
            kPassed);
  EXPECT_THAT(baseline_text(), HasSubstr("pairs = 12, mean = "));
  const ProcessResult added =
      lr_fixture("promote " + latest("moved100") + promote_args + " --paired-spread --add-pairs");
  ASSERT_EQ(added.exit_code, kPassed) << added.out << added.err;
  EXPECT_THAT(added.out, HasSubstr("added to the 12 stored pairs"));
  EXPECT_THAT(baseline_text(), HasSubstr("pairs = 24, mean = "));
  EXPECT_THAT(baseline_text(), HasSubstr("seeds = \"0-11, 100-111\""));

  const std::string before_refusal = baseline_text();
  const ProcessResult counted =
      lr_fixture("promote " + latest("moved0") + promote_args + " --paired-spread --add-pairs");
  EXPECT_EQ(counted.exit_code, kPromotionRefused) << counted.out << counted.err;
  EXPECT_THAT(counted.err, HasSubstr("seeds 0-11 are already among the stored spread's 24 pairs"));
  EXPECT_EQ(baseline_text(), before_refusal);

  const ProcessResult paired = lr_fixture(run_args + temp_.path() + "/paired");
  ASSERT_EQ(paired.exit_code, kPassed) << paired.out << paired.err;
  EXPECT_THAT(accuracy(latest("paired"))
                  .at("looks")
                  .at(0)
                  .at("likelihood_ratio")
                  .at("scale_source")
                  .get<std::string>(),
              HasSubstr("the baseline's 24 stored paired differences"));
}

// Seeds(4).then_blocks_of(2).up_to(12) (mlregress_later_blocks_fixture): the design is listed,
// planned in config.json and results.json, the runner runs 2 seeds between two looks after the
// first 4, and promote states the power of that design. A close call looks at 4, 6, 8, 10 and 12
// seeds; one settled at a later look ran exactly the seeds of that look.
TEST_F(SequentialSeedsE2eTest, LaterBlocksFlowFromTheDeclarationToTheLooks) {
  const std::string later = MLREGRESS_LATER_BLOCKS_FIXTURE_BINARY;
  const auto later_fixture = [&](const std::string& args) {
    return run_fixture_in(temp_.path(), later, args);
  };
  EXPECT_THAT(later_fixture("list").out, HasSubstr("[4 seeds, then 2 at a time, up to 12]"));
  std::filesystem::create_directories(baselines());
  const std::string run_args = "run --color never --baselines " + baselines() + " --out ";
  ASSERT_EQ(later_fixture(run_args + temp_.path() + "/first").exit_code, kPassed);
  ASSERT_EQ(seed_runs(latest("first")), 12u);
  const ProcessResult promoted =
      later_fixture("promote " + latest("first") + " --baselines " + baselines() + " --reason e2e");
  ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
  EXPECT_THAT(promoted.out, HasSubstr("4, then 2 at a time up to 12"));

  const ProcessResult close = later_fixture(
      run_args + temp_.path() + "/close --seed 200 --set SequentialAccuracy.shift=-0.008");
  ASSERT_EQ(close.exit_code, kPassed) << close.out << close.err;
  std::vector<int> seeds_looked_at;
  const json close_metric = accuracy(latest("close"));
  for (const json& look : close_metric.at("looks")) {
    seeds_looked_at.push_back(look.at("seeds"));
  }
  EXPECT_EQ(seeds_looked_at, (std::vector<int>{4, 6, 8, 10, 12}));
  EXPECT_EQ(accuracy(latest("close")).at("verdict"), "INCONCLUSIVE");
  const json test = test_result(latest("close"));
  EXPECT_EQ(test.at("seed_block"), 4);
  EXPECT_EQ(test.at("seed_next_block"), 2);
  const json config = json::parse(read_file(latest("close") + "/config.json"));
  EXPECT_EQ(config.at("tests").at("SequentialAccuracy").at("seed_next_block"), 2);
  // Progress counts to the end of the current block: 6 after the first look, not 8.
  EXPECT_THAT(close.out, HasSubstr("SequentialAccuracy 5/6: "));

  // Fresh seeds that settle after the first look ran that look's seeds, no more.
  const ProcessResult fresh = later_fixture(run_args + temp_.path() + "/fresh --seed 100");
  ASSERT_EQ(fresh.exit_code, kPassed) << fresh.out << fresh.err;
  const json looks = accuracy(latest("fresh")).at("looks");
  EXPECT_EQ(looks.back().at("outcome"), "pass");
  EXPECT_EQ(seed_runs(latest("fresh")), looks.back().at("seeds").get<std::size_t>());
  EXPECT_GT(looks.size(), 1u) << "fresh seeds are expected to need more than the first look here";
}

// Seeds(8).until_decided(40) (mlregress_anytime_fixture): the design is listed and planned, a run
// without a baseline takes every seed, an unchanged paired rerun PASSes at the first look and a
// large regression is REGRESSION there, every look is marked anytime-valid, and promote states
// the power of the anytime design.
TEST_F(SequentialSeedsE2eTest, AnAnytimeStudyFlowsFromTheDeclarationToTheVerdict) {
  const std::string anytime = MLREGRESS_ANYTIME_FIXTURE_BINARY;
  const auto anytime_fixture = [&](const std::string& args) {
    return run_fixture_in(temp_.path(), anytime, args);
  };
  EXPECT_THAT(anytime_fixture("list").out,
              HasSubstr("[8 seeds at a time, up to 40, anytime-valid]"));
  std::filesystem::create_directories(baselines());
  const std::string run_args = "run --color never --baselines " + baselines() + " --out ";
  ASSERT_EQ(anytime_fixture(run_args + temp_.path() + "/first").exit_code, kPassed);
  ASSERT_EQ(seed_runs(latest("first")), 40u);
  const ProcessResult promoted = anytime_fixture("promote " + latest("first") + " --baselines " +
                                                 baselines() + " --reason e2e");
  ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
  EXPECT_THAT(promoted.out, HasSubstr("8 at a time up to 40, anytime-valid"));

  const ProcessResult same = anytime_fixture(run_args + temp_.path() + "/same");
  ASSERT_EQ(same.exit_code, kPassed) << same.out << same.err;
  EXPECT_EQ(seed_runs(latest("same")), 8u);
  const json same_looks = accuracy(latest("same")).at("looks");
  ASSERT_EQ(same_looks.size(), 1u);
  EXPECT_EQ(same_looks.at(0).at("outcome"), "pass");
  EXPECT_EQ(same_looks.at(0).at("anytime"), true);
  const json test = test_result(latest("same"));
  EXPECT_EQ(test.at("seed_anytime"), true);
  const json config = json::parse(read_file(latest("same") + "/config.json"));
  EXPECT_EQ(config.at("tests").at("SequentialAccuracy").at("anytime"), true);

  const ProcessResult worse = anytime_fixture(
      run_args + temp_.path() + "/worse --seed 100 --set SequentialAccuracy.shift=-0.05");
  EXPECT_EQ(worse.exit_code, kRegression) << worse.out << worse.err;
  EXPECT_EQ(seed_runs(latest("worse")), 8u);
  EXPECT_EQ(accuracy(latest("worse")).at("verdict"), "REGRESSION");
  EXPECT_EQ(accuracy(latest("worse")).at("looks").at(0).at("anytime"), true);
  // The group-sequential design's fields are not what this look was judged by.
  EXPECT_FALSE(test_result(latest("worse")).contains("seed_next_block"));
}

// Shards must agree on a sequential test's design: a shard planned with another PASS spending
// (its config.json edited here, as a shard of another build would have it) is refused, also
// under --force, naming the test and both designs.
TEST_F(SequentialSeedsE2eTest, MergeRefusesShardsOfAnotherSequentialDesign) {
  promote_baseline();
  const std::string args = "--baselines " + baselines() + " --seed 100";
  std::string folders;
  for (int shard = 0; shard < 2; ++shard) {
    const ProcessResult part =
        run(args + " --shard " + std::to_string(shard) + "/2", "shard" + std::to_string(shard));
    ASSERT_EQ(part.exit_code, kPassed) << part.out << part.err;
    folders += " " + latest("shard" + std::to_string(shard));
  }
  const std::string config_path = latest("shard1") + "/config.json";
  std::string config = read_file(config_path);
  const std::size_t at = config.find("\"obrien-fleming\"");
  ASSERT_NE(at, std::string::npos) << config;
  config.replace(at, 16, "\"pocock\"");
  std::filesystem::permissions(config_path, std::filesystem::perms::owner_write,
                               std::filesystem::perm_options::add);
  { std::ofstream(config_path) << config; }
  for (const std::string force : {"", " --force"}) {
    const ProcessResult merged =
        fixture("merge --color never --out " + temp_.path() + "/merged" + force + folders);
    EXPECT_EQ(merged.exit_code, kMergeRefused) << merged.out << merged.err;
    EXPECT_THAT(merged.err, HasSubstr("seeded test SequentialAccuracy is planned as "
                                      "Seeds(4).up_to(12) in "));
    EXPECT_THAT(merged.err, HasSubstr("and as Seeds(4).up_to(12).pass_early() in "));
  }
}

}  // namespace
}  // namespace mlregress::e2e
