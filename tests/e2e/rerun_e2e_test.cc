// rerun end to end: a plain test and one seed of a seeded test reproduce exactly with the run's
// parameters; a recorded value that no longer matches is reported within or beyond its band (the
// gate's judgement, as `compare` makes it); a gated curve is checked against the run's curve
// file; a test whose parameters changed is refused unless --force; another commit is warned
// about.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "fixture_runner.h"
#include "tests/support/files.h"

namespace mlregress::e2e {
namespace {

using test_support::read_file;
using ::testing::HasSubstr;

class RerunE2eTest : public FixtureRunnerTest {
 protected:
  ProcessResult rerun(const std::string& args) {
    return fixture("rerun " + latest() + " --out " + temp_.path() + "/again " + args);
  }
  // Replaces the first match of `pattern` in the run's `file` (a planted change).
  void edit(const std::string& file, const std::string& pattern, const std::string& with) {
    const std::string path = std::filesystem::canonical(latest()).string() + "/" + file;
    const std::string text = read_file(path);
    const std::string changed = std::regex_replace(text, std::regex(pattern), with,
                                                   std::regex_constants::format_first_only);
    ASSERT_NE(changed, text) << pattern << " not in " << file;
    std::ofstream(path) << changed;
  }
};

TEST_F(RerunE2eTest, APlainTestReproducesExactlyWithTheRunsParameters) {
  ASSERT_EQ(run("--filter Passes --set Passes.value=2.25 --seed 0").exit_code, kPassed);
  const ProcessResult result = rerun("--test Passes");
  EXPECT_EQ(result.exit_code, kPassed) << result.out << result.err;
  EXPECT_THAT(result.out,
              HasSubstr("value                                2.25  reproduced exactly"));
  EXPECT_THAT(result.out, HasSubstr("rerun: reproduced exactly"));
}

TEST_F(RerunE2eTest, AValueThatChangedIsWithinOrBeyondItsBand) {
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);  // value 1.5, band rtol 0.1 atol 0.01
  edit("results.json", R"("value": 1\.5)", R"("value": 1.52)");
  ProcessResult result = rerun("--test Passes");
  EXPECT_EQ(result.exit_code, kPassed) << result.out;
  EXPECT_THAT(result.out,
              HasSubstr("1.52 -> 1.5  differs by -0.02 (within the recorded band ±0.162)"));
  EXPECT_THAT(result.out, HasSubstr("rerun: reproduced within the recorded bands"));
  edit("results.json", R"("value": 1\.52)", R"("value": 3)");
  result = rerun("--test Passes");
  EXPECT_EQ(result.exit_code, kRegression) << result.out;
  EXPECT_THAT(result.out, HasSubstr("3 -> 1.5  differs by -1.5\n"));
  EXPECT_THAT(result.out, HasSubstr("differs: 1 value(s) beyond the recorded band"));
}

TEST_F(RerunE2eTest, ChangedParametersAreRefusedUnlessForcedAndAnotherCommitIsWarnedAbout) {
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
  edit("config.json", R"("config_hash": "[0-9a-f]+")", R"("config_hash": "0000000000000000")");
  const ProcessResult refused = rerun("--test Passes");
  EXPECT_EQ(refused.exit_code, kUsageError);
  EXPECT_THAT(refused.err, HasSubstr("no longer matches the run: its config hash is"));
  EXPECT_THAT(refused.err, HasSubstr("--force reruns it anyway"));
  EXPECT_FALSE(std::filesystem::exists(temp_.path() + "/again"));

  edit("environment.json", R"("commit": "[^"]*")", R"("commit": "0123456789abcdef0123")");
  const ProcessResult forced = rerun("--test Passes --force");
  EXPECT_EQ(forced.exit_code, kPassed) << forced.out << forced.err;
  EXPECT_THAT(forced.out, HasSubstr("WARNING: the run was made at 0123456789ab"));
  EXPECT_THAT(forced.out, HasSubstr("rerun --force: its config hash is"));
}

TEST_F(RerunE2eTest, BadTestOrSeedIsAUsageError) {
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
  EXPECT_EQ(rerun("--test Nope").exit_code, kUsageError);
  EXPECT_EQ(rerun("--test Passes --seed 3").exit_code, kUsageError);  // not seeded
  EXPECT_EQ(fixture("rerun " + temp_.path() + "/missing --test Passes").exit_code, kRunFolderError);
}

class SeededRerunE2eTest : public FixtureBinaryTest {
 protected:
  SeededRerunE2eTest() : FixtureBinaryTest(MLREGRESS_SEED_FIXTURE_BINARY) {}
  ProcessResult seeds(const std::string& args) { return fixture(args); }
};

TEST_F(SeededRerunE2eTest, OneSeedOfASeededTestReproducesExactly) {
  const std::string runs = temp_.path() + "/runs";
  ASSERT_EQ(seeds("run --filter NoisyAccuracy --seed 40 --set NoisyAccuracy.sd=0.02 --out " + runs)
                .exit_code,
            kPassed);
  const ProcessResult result = seeds(
      "rerun " + runs + "/latest --test NoisyAccuracy --seed 43 --out " + temp_.path() + "/again");
  EXPECT_EQ(result.exit_code, kPassed) << result.out << result.err;
  EXPECT_THAT(result.out, HasSubstr("accuracy (seed 43)"));
  EXPECT_THAT(result.out, HasSubstr("loss (seed 43)"));
  EXPECT_THAT(result.out, HasSubstr("rerun: reproduced exactly"));
  // Only that seed ran again.
  EXPECT_THAT(read_file(temp_.path() + "/again/latest/results.json"),
              HasSubstr("\"seed_runs_planned\": 1"));
  EXPECT_EQ(seeds("rerun " + runs + "/latest --test NoisyAccuracy --seed 3 --out x").exit_code,
            kUsageError);  // the run used seeds 40..47
}

// The gate judges a value that moved: beyond its band on the worse side is a REGRESSION (exit 2),
// as on the better side (above, IMPROVED): either way the run's value did not reproduce.
TEST_F(RerunE2eTest, AValueBeyondItsBandOnTheWorseSideIsARegression) {
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);  // value 1.5, LowerIsBetter
  edit("results.json", R"("value": 1\.5)", R"("value": 0.5)");
  const ProcessResult result = rerun("--test Passes");
  EXPECT_EQ(result.exit_code, kRegression) << result.out;
  EXPECT_THAT(result.out, HasSubstr("0.5 -> 1.5  differs by 1\n"));
  EXPECT_THAT(result.out, HasSubstr("differs: 1 value(s) beyond the recorded band"));
}

class CurveRerunE2eTest : public FixtureBinaryTest {
 protected:
  CurveRerunE2eTest() : FixtureBinaryTest(MLREGRESS_CURVE_FIXTURE_BINARY) {}
  ProcessResult curves(const std::string& args) { return fixture(args); }
  ProcessResult rerun() {
    return curves("rerun " + temp_.path() + "/runs/latest --test LossCurve --out " + temp_.path() +
                  "/again");
  }
  // Multiplies the run's recorded loss curve by `factor` from step `from` to step `to`.
  void scale_recorded_curve(double factor, int from, int to) {
    const std::string path = temp_.path() + "/runs/latest/curves/LossCurve.loss.csv";
    std::istringstream in(read_file(path));
    std::ostringstream out;
    std::string line;
    std::getline(in, line);
    out << line << "\n";  // the header
    while (std::getline(in, line)) {
      const int step = std::stoi(line.substr(0, line.find(',')));
      const double value = std::stod(line.substr(line.find(',') + 1));
      out << step << "," << (step >= from && step <= to ? value * factor : value) << "\n";
    }
    std::ofstream(path) << out.str();
  }
};

// A curve recorded with a CurvePolicy is a gated value: rerun checks it with the curve gate
// against the run's curve file. Planted: the run's curve 40% lower from step 10 to 30, so that
// the rerun's curve leaves the band on the worse side there while its final value still matches.
TEST_F(CurveRerunE2eTest, AGatedCurveIsCheckedAgainstTheRunsCurve) {
  ASSERT_EQ(curves("run --filter LossCurve --out " + temp_.path() + "/runs").exit_code, kPassed);
  ProcessResult result = rerun();
  EXPECT_EQ(result.exit_code, kPassed) << result.out << result.err;
  EXPECT_THAT(result.out, HasSubstr("curve loss"));
  EXPECT_THAT(result.out, HasSubstr("100 points  reproduced exactly"));
  EXPECT_THAT(result.out, HasSubstr("rerun: reproduced exactly"));

  scale_recorded_curve(0.6, 10, 30);
  result = rerun();
  EXPECT_EQ(result.exit_code, kRegression) << result.out << result.err;
  EXPECT_THAT(result.out, HasSubstr("differs: left the band on the worse side at step 10"));
  EXPECT_THAT(result.out, HasSubstr("final_loss"));
  EXPECT_THAT(result.out, HasSubstr("differs: 1 value(s) beyond the recorded band"));
}

}  // namespace
}  // namespace mlregress::e2e
