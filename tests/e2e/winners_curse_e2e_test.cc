// The winner's curse and the phases of an experiment, end to end:
//  - an IMPROVED a sequential study (tests/fixture/sequential_fixture.cc, Seeds(4).up_to(12))
//    calls at its first look on the baseline's own seeds is provisional: results.json, the console
//    and the report say so, promote refuses it without --force, and the same improvement on fresh
//    seeds is not provisional and promotes;
//  - a screening run (run --screening, tests/fixture/seed_fixture.cc) runs one seed per
//    configuration, is recorded as screening and is never promoted, not even with --force.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "e2e_fixture.h"
#include "fixture_runner.h"

namespace mlregress::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class WinnersCurseE2eTest : public FixtureBinaryTest {
 protected:
  explicit WinnersCurseE2eTest(const char* binary = MLREGRESS_SEQUENTIAL_FIXTURE_BINARY)
      : FixtureBinaryTest(binary) {}
  ProcessResult run(const std::string& args) {
    return fixture("run --color never --out " + temp_.path() + "/runs " + args);
  }
  std::string latest() const {
    return std::filesystem::canonical(temp_.path() + "/runs/latest").string();
  }
  json results() const { return json::parse(read_file(latest() + "/results.json")); }
  json accuracy() const { return results().at("tests").at(0).at("metrics").at(0); }
  ProcessResult promote(const std::string& extra = "") {
    return fixture("promote " + latest() + " --baselines " + baselines() + " --reason e2e " +
                   extra);
  }
  // A baseline of all 12 seeds (0-11): a run without one takes every seed.
  void promote_baseline() {
    ASSERT_EQ(run("").exit_code, kPassed);
    const ProcessResult promoted = promote();
    ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
  }
};

TEST_F(WinnersCurseE2eTest, AnImprovementAtTheFirstPairedLookIsProvisionalAndNotPromoted) {
  promote_baseline();
  // --all-seeds: the run holds every seed, so the provisional verdict is promote's only objection.
  const ProcessResult result =
      run("--baselines " + baselines() + " --all-seeds --set SequentialAccuracy.shift=0.05");
  ASSERT_EQ(result.exit_code, kPassed) << result.out << result.err;
  const json metric = accuracy();
  EXPECT_EQ(metric.at("verdict"), "IMPROVED");
  EXPECT_EQ(metric.at("looks").size(), 1u);
  EXPECT_EQ(metric.at("looks").at(0).at("design"), "paired");
  EXPECT_EQ(metric.value("provisional", false), true);
  EXPECT_THAT(result.out, HasSubstr("provisional: decided at the first look (4 seeds"));

  const ProcessResult refused = promote();
  EXPECT_EQ(refused.exit_code, kPromotionRefused) << refused.out << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("SequentialAccuracy.accuracy is a provisional IMPROVED"));
  EXPECT_THAT(refused.err, HasSubstr("fresh seeds"));
  // --force still ratchets, as it overrides every other refusal.
  const ProcessResult forced = promote("--force");
  EXPECT_EQ(forced.exit_code, kPassed) << forced.out << forced.err;
}

TEST_F(WinnersCurseE2eTest, TheSameImprovementOnFreshSeedsIsNotProvisionalAndPromotes) {
  promote_baseline();
  const ProcessResult result = run("--baselines " + baselines() +
                                   " --all-seeds --seed 100 --set SequentialAccuracy.shift=0.05");
  ASSERT_EQ(result.exit_code, kPassed) << result.out << result.err;
  const json metric = accuracy();
  EXPECT_EQ(metric.at("verdict"), "IMPROVED");
  EXPECT_EQ(metric.at("looks").at(0).at("design"), "welch");
  EXPECT_FALSE(metric.contains("provisional"));
  EXPECT_THAT(result.out, Not(HasSubstr("provisional")));
  const ProcessResult promoted = promote();
  EXPECT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
}

// An unchanged paired run (PASS at the first look) is not provisional: only an early win is.
TEST_F(WinnersCurseE2eTest, APassAtTheFirstLookIsNotProvisional) {
  promote_baseline();
  ASSERT_EQ(run("--baselines " + baselines() + " --all-seeds").exit_code, kPassed);
  EXPECT_EQ(accuracy().at("verdict"), "PASS");
  EXPECT_FALSE(accuracy().contains("provisional"));
}

class ScreeningE2eTest : public WinnersCurseE2eTest {
 protected:
  ScreeningE2eTest() : WinnersCurseE2eTest(MLREGRESS_SEED_FIXTURE_BINARY) {}
  json test_named(const std::string& name) const {
    const json all = results();
    for (const json& test : all.at("tests"))
      if (test.at("name") == name) return test;
    ADD_FAILURE() << "no test " << name;
    return json::object();
  }
};

TEST_F(ScreeningE2eTest, AScreeningRunTakesOneSeedPerConfigurationAndIsNeverPromoted) {
  const ProcessResult result = run("--filter WidthAblation --screening");
  ASSERT_EQ(result.exit_code, kPassed) << result.out << result.err;
  EXPECT_THAT(result.out, HasSubstr("screening: one seed per configuration"));
  EXPECT_EQ(results().at("run").at("phase"), "screening");
  // Two variants (baseline, half_width) of Seeds(6): one seed each, the first.
  const json ablation = test_named("WidthAblation");
  ASSERT_EQ(ablation.at("seed_runs").size(), 2u);
  for (const json& seed_run : ablation.at("seed_runs")) EXPECT_EQ(seed_run.at("seed"), 0);

  const ProcessResult refused = promote("--force");
  EXPECT_EQ(refused.exit_code, kPromotionRefused) << refused.out << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("it is a screening run"));
  // Nothing was written: no baseline file at all.
  std::size_t baseline_files = 0;
  if (std::filesystem::exists(baselines())) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(baselines()))
      baseline_files += entry.is_regular_file();
  }
  EXPECT_EQ(baseline_files, 0u);
}

// The planted mistake: a run that decides (not screening) is not marked as one.
TEST_F(ScreeningE2eTest, ARunWithoutScreeningIsNotRecordedAsOne) {
  ASSERT_EQ(run("--filter WidthAblation").exit_code, kPassed);
  EXPECT_FALSE(results().at("run").contains("phase"));
  EXPECT_EQ(test_named("WidthAblation").at("seed_runs").size(), 12u);
}

TEST_F(ScreeningE2eTest, ScreeningWithAllSeedsIsAUsageError) {
  const ProcessResult result = run("--screening --all-seeds");
  EXPECT_EQ(result.exit_code, kUsageError) << result.out << result.err;
  EXPECT_THAT(result.err, HasSubstr("--screening runs one seed per configuration"));
}

}  // namespace
}  // namespace mlregress::e2e
