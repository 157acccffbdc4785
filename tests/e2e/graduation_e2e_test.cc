// `graduate` end to end, through tests/fixture/capability_fixture.cc (Capable.accuracy, target
// > 0.9, from --set). With the defaults (the last 10 runs, a lower 95% Wilson bound of at least
// 0.7) graduation refuses three met runs and says how many more are needed, refuses 9 of 10, and
// after 10 of 10 writes a guard: a band from those runs' values by calibrate's rule, with the
// graduation's provenance (runs, commits, k/n, bound, threshold, range). A run against it then
// passes, and a planted drop of accuracy is a REGRESSION. --demote removes the guard, records the
// demotion, and the same drop passes again as a capability NOT MET.
//
// Planted, and caught here: graduating on too few runs or on a window with a miss (exit code 8
// and the numbers asserted), a wrong count of the runs still needed (the number asserted), a
// guard without a band or provenance (the baseline file checked), a guard that does not gate (the
// drop asserted a REGRESSION, exit 2), a demotion that leaves the guard or forgets the reason.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fixture_runner.h"

namespace mlregress::e2e {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

// Met values of accuracy, one per run: they vary, so that the band has a spread to measure.
const std::vector<double> kMetValues = {0.93, 0.95, 0.94, 0.96, 0.95, 0.94, 0.97, 0.95, 0.93, 0.96};

class GraduationE2eTest : public FixtureBinaryTest {
 protected:
  GraduationE2eTest() : FixtureBinaryTest(MLREGRESS_CAPABILITY_FIXTURE_BINARY) {}
  // A run of the same configuration that reached `accuracy`, on a seed of its own: each run is
  // new evidence (a rerun of one commit on one seed would repeat the one before).
  ProcessResult run_with(double accuracy, const std::string& more = "") {
    return fixture("run --color never --out " + runs() + " --seed " + std::to_string(next_seed_++) +
                       " " + more,
                   environment_ + " CAPABLE_ACCURACY=" + std::to_string(accuracy));
  }
  int next_seed_ = 0;
  void record_runs(const std::vector<double>& values) {
    for (double v : values) ASSERT_EQ(run_with(v).exit_code, kPassed) << v;
  }
  ProcessResult graduate(const std::string& more = "") {
    return fixture("graduate " + runs() + " --test Capable --metric accuracy --baselines " +
                   baselines() + " --reason \"reached 0.9\" " + more);
  }
  ProcessResult against_baselines(double accuracy) {
    return run_with(accuracy, "--baselines " + baselines());
  }
  std::string runs() const { return temp_.path() + "/runs"; }
  std::string baseline_text() const {
    return read_file(baselines() + "/mlregress_capability_fixture/capability_fixture.toml");
  }
  json accuracy() const {
    const json results = json::parse(read_file(runs() + "/latest/results.json"));
    return metric_named(test_named(results, "Capable"), "accuracy");
  }
};

TEST_F(GraduationE2eTest, TooFewRunsAreRefusedWithHowManyMoreAreNeeded) {
  record_runs({0.95, 0.95, 0.95});
  const ProcessResult refused = graduate();
  EXPECT_EQ(refused.exit_code, kPromotionRefused) << refused.out << refused.err;
  EXPECT_THAT(refused.err,
              HasSubstr("graduate refuses Capable.accuracy (3 independent runs under"));
  EXPECT_THAT(refused.err, HasSubstr("met 3 of the last 3 runs (a window of 10); the lower 95% "
                                     "Wilson bound of its success rate is 0.439, and the window "
                                     "needs 10 recorded runs; 7 more runs meeting the target in a "
                                     "row are needed"));
  EXPECT_FALSE(std::filesystem::exists(baselines() + "/mlregress_capability_fixture/"
                                                     "capability_fixture.toml"));
}

// Planted: evidence that is not independent. Ten reruns of one commit on one seed are one
// outcome copied, and runs of another configuration measure another experiment: neither counts.
TEST_F(GraduationE2eTest, RerunsOfOneSeedAndRunsOfAnotherConfigurationAreNotEvidence) {
  for (int i = 0; i < 10; ++i) {
    ASSERT_EQ(fixture("run --color never --out " + runs() + " --seed 7",
                      environment_ + " CAPABLE_ACCURACY=0.95")
                  .exit_code,
              kPassed);
  }
  const ProcessResult reruns = graduate();
  EXPECT_EQ(reruns.exit_code, kPromotionRefused) << reruns.out << reruns.err;
  EXPECT_THAT(reruns.err, HasSubstr("(1 independent run under"));

  // Nine seeds of another configuration: the latest run's configuration is the one judged.
  for (int i = 0; i < 9; ++i)
    ASSERT_EQ(run_with(0.95, "--set Capable.loss=2.0").exit_code, kPassed);
  const ProcessResult other = graduate();
  EXPECT_EQ(other.exit_code, kPromotionRefused) << other.out << other.err;
  EXPECT_THAT(other.err, HasSubstr("(9 independent runs under"));
}

// A test or metric that recorded no capability is a usage error naming those that did, not a
// refusal asking for more runs.
TEST_F(GraduationE2eTest, AnUnknownCapabilityIsAUsageErrorNamingTheKnownOnes) {
  record_runs({0.95});
  const ProcessResult unknown =
      fixture("graduate " + runs() + " --test Capable --metric steps --baselines " + baselines() +
              " --reason x");
  EXPECT_EQ(unknown.exit_code, kUsageError) << unknown.out << unknown.err;
  EXPECT_THAT(unknown.err, HasSubstr("recorded a capability Capable.steps"));
  EXPECT_THAT(unknown.err, HasSubstr("the capabilities there: Capable.accuracy, Capable.val_loss"));
}

TEST_F(GraduationE2eTest, AMissInTheWindowIsRefusedUntilItLeavesTheWindow) {
  record_runs({0.8});
  record_runs(std::vector<double>(kMetValues.begin(), kMetValues.begin() + 9));
  const ProcessResult refused = graduate();
  EXPECT_EQ(refused.exit_code, kPromotionRefused) << refused.out << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("met 9 of the last 10 runs (a window of 10); the lower 95% "
                                     "Wilson bound of its success rate is 0.596, below the "
                                     "threshold 0.7; 1 more run meeting the target in a row is "
                                     "needed"));
  // A lower threshold accepts the miss: 9 of 10 reach 0.596 >= 0.5.
  EXPECT_EQ(graduate("--min-lower-bound 0.5").exit_code, kPassed);
}

TEST_F(GraduationE2eTest, TenMetRunsWriteAGuardThatCatchesADrop) {
  record_runs(kMetValues);
  const ProcessResult graduated = graduate();
  ASSERT_EQ(graduated.exit_code, kPassed) << graduated.out << graduated.err;
  EXPECT_THAT(graduated.out, HasSubstr("graduate: Capable.accuracy (target > 0.9) met 10 of the "
                                       "last 10 runs; the lower 95% Wilson bound of its success "
                                       "rate is 0.722 >= 0.7"));
  EXPECT_THAT(graduated.out, HasSubstr("guard: band ±"));

  const std::string toml = baseline_text();
  EXPECT_THAT(toml, HasSubstr("[tests.Capable.metrics.accuracy]\ndirection = "
                              "\"higher_is_better\"\npolicy = \"band\"\nrtol = 0.0\natol = "));
  // The mean of the ten values, 0.948 up to the last bit of the sum.
  EXPECT_THAT(toml, HasSubstr("calibration = { repeats = 10, mean = 0.94"));
  EXPECT_THAT(toml, HasSubstr("[tests.Capable.metrics.accuracy.graduation]"));
  EXPECT_THAT(toml, HasSubstr("reason = \"reached 0.9\""));
  EXPECT_THAT(toml, HasSubstr("target = \"> 0.9\"\nmet = 10\nruns = 10\n"));
  EXPECT_THAT(toml, HasSubstr("threshold = 0.7\nmin = 0.93\nmax = 0.97\n"));
  EXPECT_THAT(toml, HasSubstr("commits = [\"unknown\", \"unknown\""));
  // val_loss was not graduated: it stays a capability.
  EXPECT_THAT(toml, Not(HasSubstr("metrics.val_loss")));
  const std::size_t runs_at = toml.find("source_runs = [");
  ASSERT_NE(runs_at, std::string::npos);
  const std::string runs_line = toml.substr(runs_at, toml.find('\n', runs_at) - runs_at);
  EXPECT_EQ(count(runs_line, "\", \""), 9u) << runs_line;

  const ProcessResult same = against_baselines(0.95);
  EXPECT_EQ(same.exit_code, kPassed) << same.out << same.err;
  EXPECT_EQ(accuracy().at("verdict"), "PASS");

  const ProcessResult dropped = against_baselines(0.5);
  EXPECT_EQ(dropped.exit_code, kRegression) << dropped.out << dropped.err;
  EXPECT_EQ(accuracy().at("verdict"), "REGRESSION");
  EXPECT_THAT(dropped.out, HasSubstr("Capable.accuracy NOT MET: 0.5"));
}

TEST_F(GraduationE2eTest, DemotionRemovesTheGuardAndRecordsWhy) {
  record_runs(kMetValues);
  ASSERT_EQ(graduate().exit_code, kPassed);
  const ProcessResult demoted =
      fixture("graduate " + runs() + " --test Capable --metric accuracy --demote --baselines " +
              baselines() + " --reason \"target raised to 0.99\"");
  ASSERT_EQ(demoted.exit_code, kPassed) << demoted.out << demoted.err;
  EXPECT_THAT(demoted.out, HasSubstr("Capable.accuracy is a capability again"));
  const std::string toml = baseline_text();
  EXPECT_THAT(toml, Not(HasSubstr("[tests.Capable.metrics.accuracy]")));
  EXPECT_THAT(toml, HasSubstr("[[tests.Capable.demotions]]\nmetric = \"accuracy\"\n"));
  EXPECT_THAT(toml, HasSubstr("reason = \"target raised to 0.99\""));
  EXPECT_THAT(toml, HasSubstr("reason = \"demote Capable.accuracy: target raised to 0.99\""));

  const ProcessResult dropped = against_baselines(0.5);
  EXPECT_EQ(dropped.exit_code, kPassed) << dropped.out << dropped.err;
  EXPECT_EQ(accuracy().at("verdict"), "NEW");

  // Nothing graduated is left to demote.
  const ProcessResult again =
      fixture("graduate " + runs() + " --test Capable --metric accuracy --demote --baselines " +
              baselines() + " --reason twice");
  EXPECT_EQ(again.exit_code, kUsageError) << again.out;
  EXPECT_THAT(again.err, HasSubstr("hold no guard graduated from capability Capable.accuracy"));
}

}  // namespace
}  // namespace mlregress::e2e
