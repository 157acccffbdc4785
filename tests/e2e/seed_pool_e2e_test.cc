// A seeded baseline grown with `promote --add-seeds`, through tests/fixture/seed_fixture.cc:
// seeds 0..7 promoted, seeds 100..107 added as a second block, a refused addition that leaves the
// file byte for byte as it was, and the gate against the grown pool: paired on the seeds it holds,
// Welch against all 16 for fresh ones.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "e2e_fixture.h"
#include "fixture_runner.h"

namespace mlregress::e2e {
namespace {

class SeedPoolE2eTest : public FixtureBinaryTest {
 protected:
  SeedPoolE2eTest() : FixtureBinaryTest(MLREGRESS_SEED_FIXTURE_BINARY) {}
  ProcessResult run(const std::string& args) {
    return fixture("run --color never --filter NoisyAccuracy --out " + temp_.path() + "/runs " +
                   args);
  }
  ProcessResult promote(const std::string& args = "") {
    return fixture("promote " + temp_.path() + "/runs/latest --baselines " + baselines() +
                   " --reason nightly " + args);
  }
  std::string toml() const {
    return read_file(baselines() + "/mlregress_seed_fixture/seed_fixture.toml");
  }
  json accuracy_distribution() const {
    const json results = json::parse(read_file(temp_.path() + "/runs/latest/results.json"));
    return metric_named(test_named(results, "NoisyAccuracy"), "accuracy").at("distribution");
  }
};

TEST_F(SeedPoolE2eTest, NightlySeedsJoinThePoolAndTheGateUsesAllOfThem) {
  ASSERT_EQ(run("").exit_code, kPassed);
  const ProcessResult first = promote();
  ASSERT_EQ(first.exit_code, kPassed) << first.out << first.err;
  EXPECT_EQ(count(toml(), "[[tests.NoisyAccuracy.metrics.accuracy.pool]]"), 1) << toml();

  // Adding seeds before a plain promotion, or to another configuration, is refused: exit 8, and
  // the file stays byte for byte as it was.
  ASSERT_EQ(run("--seed 100 --set NoisyAccuracy.shift=0.01").exit_code, kPassed);
  const std::string before = toml();
  const ProcessResult refused = promote("--add-seeds");
  EXPECT_EQ(refused.exit_code, kPromotionRefused) << refused.out << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("seed_fixture.toml: test NoisyAccuracy: config_hash "))
      << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("nothing was written")) << refused.err;
  EXPECT_EQ(toml(), before);

  ASSERT_EQ(run("--seed 100").exit_code, kPassed);
  const ProcessResult added = promote("--add-seeds");
  ASSERT_EQ(added.exit_code, kPassed) << added.out << added.err;
  EXPECT_THAT(added.out, HasSubstr("NoisyAccuracy.accuracy: seeds 100-107 added; the baseline "
                                   "holds 16 seeds in 2 blocks\n"))
      << added.out;
  // The gate a later run makes, 8 fresh seeds against the grown pool of 16.
  EXPECT_THAT(added.out, HasSubstr("NoisyAccuracy.accuracy: the gate that will run (fresh seeds, 8 "
                                   "of them in one look"))
      << added.out;
  EXPECT_THAT(added.out, HasSubstr("simulated from these 16 samples, 2000 runs)")) << added.out;
  const std::string grown = toml();
  EXPECT_THAT(grown, HasSubstr("seeds = [0, 1, 2, 3, 4, 5, 6, 7, 100, 101, 102, 103, 104, 105, "
                               "106, 107]"))
      << grown;
  EXPECT_THAT(grown, HasSubstr("summary = { n = 16, mean = ")) << grown;
  EXPECT_EQ(count(grown, "[[tests.NoisyAccuracy.metrics.accuracy.pool]]"), 2) << grown;
  EXPECT_EQ(count(grown, "[[tests.NoisyAccuracy.metrics.loss.pool]]"), 2) << grown;
  EXPECT_THAT(grown, HasSubstr("seeds = \"0-7\"")) << grown;
  EXPECT_THAT(grown, HasSubstr("seeds = \"100-107\"")) << grown;

  // The same seeds again, same values: nothing to add, nothing changes.
  const ProcessResult again = promote("--add-seeds");
  EXPECT_EQ(again.exit_code, kPassed) << again.out << again.err;
  EXPECT_THAT(again.out, HasSubstr("already hold every seed")) << again.out;
  EXPECT_EQ(toml(), grown);

  // Fresh seeds: Welch against all 16. The pool's own seeds: paired on the 8 the run has.
  const ProcessResult fresh = run("--seed 500 --baselines " + baselines());
  EXPECT_NE(fresh.exit_code, kRegression) << fresh.out;
  EXPECT_EQ(accuracy_distribution().at("design"), "welch");
  EXPECT_EQ(accuracy_distribution().at("n_baseline"), 16);
  ASSERT_EQ(run("--baselines " + baselines()).exit_code, kPassed);
  EXPECT_EQ(accuracy_distribution().at("design"), "paired");
  EXPECT_EQ(accuracy_distribution().at("n_baseline"), 8);
  EXPECT_EQ(accuracy_distribution().at("difference"), 0.0);
}

TEST_F(SeedPoolE2eTest, AddingSeedsWithoutABaselineSaysToPromoteFirst) {
  ASSERT_EQ(run("").exit_code, kPassed);
  const ProcessResult refused = promote("--add-seeds");
  EXPECT_EQ(refused.exit_code, kPromotionRefused) << refused.out << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("promote the run without --add-seeds first")) << refused.err;
}

}  // namespace
}  // namespace mlregress::e2e
