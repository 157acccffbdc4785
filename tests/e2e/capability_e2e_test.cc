// Capabilities end to end, through tests/fixture/capability_fixture.cc, whose Capable test records
// accuracy (target > 0.9) and val_loss (target < 2.5) from its parameters. A target not met is
// reported NOT MET in the console, JUnit (a passing test case: its system-out and the suite's
// properties), results.json, the Markdown report and report.html, and the run still exits 0; a
// met one is MET; the target is strict; each run states the success rate over the runs folder's
// history with its Wilson 95% interval; promote leaves a capability alone; ctest's label says
// `capability`.
//
// Planted, and caught here: NOT MET failing the run or its test case (exit code and <failure>
// asserted), an outcome left out of a report (each output checked), a target met at equality
// (0.9 asserted NOT MET), a rate over this run alone or over another binary's runs (2 of 3
// asserted after three runs), promote turning a capability into a guard (the baseline file
// checked), the label missing from `list --format json`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "fixture_runner.h"

namespace mlregress::e2e {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

class CapabilityE2eTest : public FixtureBinaryTest {
 protected:
  CapabilityE2eTest() : FixtureBinaryTest(MLREGRESS_CAPABILITY_FIXTURE_BINARY) {}
  ProcessResult run(const std::string& args) {
    return fixture("run --color never --out " + runs() + " " + args);
  }
  // A run of the same configuration that reached `accuracy`, on a seed of its own: each run is
  // new evidence (a rerun of one commit on one seed would repeat the one before).
  ProcessResult run_with(double accuracy, const std::string& more = "") {
    return fixture("run --color never --out " + runs() + " --seed " + std::to_string(next_seed_++) +
                       " " + more,
                   environment_ + " CAPABLE_ACCURACY=" + std::to_string(accuracy));
  }
  int next_seed_ = 0;
  std::string runs() const { return temp_.path() + "/runs"; }
  std::string latest() const { return runs() + "/latest"; }
  json metric(const std::string& name) const {
    const json results = json::parse(read_file(latest() + "/results.json"));
    return metric_named(test_named(results, "Capable"), name);
  }
};

TEST_F(CapabilityE2eTest, ATargetNotMetIsReportedEverywhereAndTheRunStillPasses) {
  const ProcessResult result = run_with(0.8, "--junit " + temp_.path() + "/junit.xml");
  ASSERT_EQ(result.exit_code, kPassed) << result.out << result.err;
  EXPECT_THAT(result.out, HasSubstr("[CAPABILITY] Capable.accuracy NOT MET: 0.8 (target > 0.9); "
                                    "met 0 of 1 run (95% CI 0%–79%)"));
  EXPECT_THAT(result.out, HasSubstr("[CAPABILITY] Capable.val_loss NOT MET: 3 (target < 2.5)"));
  EXPECT_THAT(result.out, HasSubstr("1 passed, 0 failed, 0 skipped"));

  const json accuracy = metric("accuracy");
  EXPECT_EQ(accuracy.at("target"), json({{"above", 0.9}}));
  EXPECT_EQ(accuracy.at("capability").at("met"), false);
  EXPECT_EQ(accuracy.at("capability").at("met_runs"), 0);
  EXPECT_EQ(accuracy.at("capability").at("runs"), 1);
  EXPECT_EQ(metric("val_loss").at("target"), json({{"below", 2.5}}));

  const std::string junit = read_file(temp_.path() + "/junit.xml");
  EXPECT_TRUE(junit_validates(temp_.path() + "/junit.xml"));
  EXPECT_THAT(junit, Not(HasSubstr("<failure")));
  EXPECT_THAT(junit, Not(HasSubstr("<skipped")));
  EXPECT_THAT(junit, HasSubstr("failures=\"0\""));
  EXPECT_THAT(junit, HasSubstr("capability accuracy NOT MET: 0.8 (target &gt; 0.9)"));
  EXPECT_THAT(junit, HasSubstr("name=\"mlregress.capability.Capable.accuracy\" value=\"NOT MET"));

  const ProcessResult markdown = fixture("report " + latest() + " --format markdown --out -");
  ASSERT_EQ(markdown.exit_code, kPassed) << markdown.err;
  EXPECT_THAT(markdown.out, HasSubstr("### Capabilities"));
  EXPECT_THAT(markdown.out,
              HasSubstr("| `Capable` | accuracy | 0.8 | &gt; 0.9 | NOT MET | 0 of 1"));

  const std::string html = read_file(latest() + "/report.html");
  EXPECT_THAT(html, HasSubstr("<div class=\"capability not-met\">capability accuracy NOT MET"));
}

TEST_F(CapabilityE2eTest, ATargetMetIsMetAndEqualityDoesNotMeetAStrictTarget) {
  ASSERT_EQ(run_with(0.95, "--set Capable.loss=2.0").exit_code, kPassed);
  EXPECT_EQ(metric("accuracy").at("capability").at("met"), true);
  EXPECT_EQ(metric("val_loss").at("capability").at("met"), true);
  const std::string html = read_file(latest() + "/report.html");
  EXPECT_THAT(html, HasSubstr("<div class=\"capability met\">capability accuracy MET: 0.95"));

  const ProcessResult equal = run_with(0.9, "--set Capable.loss=2.5");
  ASSERT_EQ(equal.exit_code, kPassed) << equal.out << equal.err;
  EXPECT_THAT(equal.out, HasSubstr("Capable.accuracy NOT MET: 0.9 (target > 0.9)"));
  EXPECT_THAT(equal.out, HasSubstr("Capable.val_loss NOT MET: 2.5 (target < 2.5)"));
}

TEST_F(CapabilityE2eTest, EachRunStatesTheSuccessRateOverTheHistory) {
  ASSERT_EQ(run_with(0.95).exit_code, kPassed);
  ASSERT_EQ(run_with(0.8).exit_code, kPassed);
  // Another binary's run in the same folder is not part of this capability's history.
  ASSERT_EQ(run_fixture_in(temp_.path(), MLREGRESS_CURVE_FIXTURE_BINARY,
                           "run --color never --out " + runs())
                .exit_code,
            kPassed);
  const ProcessResult third = run_with(0.95);
  ASSERT_EQ(third.exit_code, kPassed) << third.out << third.err;
  EXPECT_THAT(third.out, HasSubstr("[CAPABILITY] Capable.accuracy MET: 0.95 (target > 0.9); met 2 "
                                   "of 3 runs (95% CI 21%–94%)"));
  const json capability = metric("accuracy").at("capability");
  EXPECT_EQ(capability.at("met_runs"), 2);
  EXPECT_EQ(capability.at("runs"), 3);
  EXPECT_NEAR(capability.at("lower").get<double>(), 0.2077, 1e-4);
  EXPECT_NEAR(capability.at("upper").get<double>(), 0.9385, 1e-4);
}

TEST_F(CapabilityE2eTest, AgainstBaselinesACapabilityIsNotGatedAndPromoteLeavesItAlone) {
  std::filesystem::create_directories(baselines());
  ASSERT_EQ(run_with(0.8, "--baselines " + baselines()).exit_code, kPassed);
  const ProcessResult promoted =
      fixture("promote " + latest() + " --baselines " + baselines() + " --reason first");
  ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
  EXPECT_THAT(promoted.out, HasSubstr("Capable.accuracy: a capability (record_target), not "
                                      "promoted; `graduate` makes it a guard"));
  const std::string toml =
      read_file(baselines() + "/mlregress_capability_fixture/capability_fixture.toml");
  EXPECT_THAT(toml, HasSubstr("[tests.Capable.metrics.steps]"));
  EXPECT_THAT(toml, Not(HasSubstr("metrics.accuracy")));

  const ProcessResult worse = run_with(0.1, "--baselines " + baselines());
  EXPECT_EQ(worse.exit_code, kPassed) << worse.out << worse.err;
  EXPECT_EQ(metric("accuracy").at("verdict"), "NEW");
  EXPECT_THAT(metric("accuracy").at("note").get<std::string>(),
              HasSubstr("a capability (target > 0.9), not a regression guard"));
  EXPECT_THAT(worse.out, Not(HasSubstr("no baseline yet. Review this run")));
}

TEST_F(CapabilityE2eTest, ListLabelsACapabilityTestForCtest) {
  const ProcessResult list = fixture("list --format json");
  ASSERT_EQ(list.exit_code, kPassed) << list.err;
  const json test = json::parse(list.out).at("tests").at(0);
  EXPECT_EQ(test.at("labels"), json({"fast", "capability"}));
  EXPECT_EQ(test.at("capability"), true);
  EXPECT_THAT(fixture("list").out, HasSubstr("Fast.Capable  [capability]"));
}

}  // namespace
}  // namespace mlregress::e2e
