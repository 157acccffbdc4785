// The scorecard and constraints end to end: two runs of an experiment whose metrics move by a
// planted amount (--set), then `compare A B --constraint ...`: constraints that hold exit 0 with
// every metric listed; a constraint tightened below the planted change exits 12 and names its
// numbers; a constraint that does not parse exits 4; a test's own constraint is checked by
// `run --baselines` and `compare`, and report.html shows the scorecard.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "fixture_runner.h"
#include "process.h"
#include "tests/support/files.h"

namespace mlregress::e2e {
namespace {

using nlohmann::json;
using test_support::read_file;
using ::testing::HasSubstr;
using ::testing::Not;

class ScorecardE2eTest : public FixtureRunnerTest {
 protected:
  ProcessResult scorecard(const std::string& args) {
    return run_fixture_in(temp_.path(), MLREGRESS_SCORECARD_FIXTURE_BINARY, args);
  }
  ProcessResult run_experiment(const std::string& args) {
    return scorecard("run --color never --out " + runs() + " " + args);
  }
  // The folder `latest` points at now.
  std::string latest_folder() const { return std::filesystem::canonical(latest()).string(); }
  // A: the experiment's defaults; B: the same with `sets` (--set ...). Returns {A, B}.
  std::pair<std::string, std::string> two_runs(const std::string& sets) {
    const ProcessResult a = run_experiment("--filter Experiment");
    EXPECT_EQ(a.exit_code, kPassed) << a.out << a.err;
    const std::string a_folder = latest_folder();
    const ProcessResult b = run_experiment("--filter Experiment " + sets);
    EXPECT_EQ(b.exit_code, kPassed) << b.out << b.err;
    return {a_folder, latest_folder()};
  }
};

TEST_F(ScorecardE2eTest, HeldConstraintsExitZeroAndTheScorecardListsEveryMetric) {
  const auto [a, b] =
      two_runs("--set Experiment.tokens_per_s=1300 --set Experiment.peak_bytes=1040000");
  const ProcessResult compared =
      scorecard("compare " + a + " " + b +
                " --constraint 'peak_bytes_per_step <= 1.10x' --constraint 'tokens_per_s >= 1.15x'"
                " --constraint 'val_loss <= +0.5%' --constraint 'nonfinite_count <= 0'");
  EXPECT_EQ(compared.exit_code, kPassed) << compared.out << compared.err;
  const std::string& out = compared.out;
  EXPECT_THAT(out, HasSubstr("SCORECARD Fast.Experiment (A -> B)"));
  for (const std::string column : {"metric", "B/A", "change", "direction", "verdict", "constraint"})
    EXPECT_THAT(out, HasSubstr(column)) << column;
  for (const std::string metric :
       {"val_loss", "tokens_per_s", "peak_bytes_per_step", "nonfinite_count"})
    EXPECT_THAT(out, HasSubstr("  " + metric + " ")) << metric;  // one row each
  EXPECT_THAT(out, HasSubstr("lower_is_better"));
  EXPECT_THAT(out, HasSubstr("higher_is_better"));
  EXPECT_THAT(out, HasSubstr("1.3x"));  // tokens_per_s, B/A
  EXPECT_THAT(out, HasSubstr("+30%"));  // tokens_per_s, change
  EXPECT_THAT(out, HasSubstr("IMPROVED"));
  EXPECT_THAT(out, HasSubstr("peak_bytes_per_step <= 1.10x: B 1.04e+06 <= limit 1.1e+06 "
                             "(1.1 × A 1e+06) held"));
  EXPECT_THAT(out, HasSubstr("tokens_per_s >= 1.15x: B 1300 >= limit 1150 (1.15 × A 1000) held"));
  EXPECT_THAT(out, HasSubstr("improved: tokens_per_s; worse: none; constraints violated: none"));
  EXPECT_THAT(out, HasSubstr("compare: 0 of 4 constraint checks violated"));
}

TEST_F(ScorecardE2eTest, AConstraintTightenedBelowThePlantedChangeExits12WithItsNumbers) {
  // The planted change: 25% more peak memory per step, beyond its 5% band (a REGRESSION).
  const auto [a, b] = two_runs("--set Experiment.peak_bytes=1250000");
  const ProcessResult violated =
      scorecard("compare " + a + " " + b + " --constraint 'peak_bytes_per_step <= 1.10x'");
  EXPECT_EQ(violated.exit_code, kConstraintViolated) << violated.out << violated.err;
  EXPECT_THAT(violated.out, HasSubstr("peak_bytes_per_step <= 1.10x: B 1.25e+06 > limit 1.1e+06 "
                                      "(1.1 × A 1e+06) VIOLATED"));
  EXPECT_THAT(violated.out, HasSubstr("improved: none; worse: peak_bytes_per_step; constraints "
                                      "violated: peak_bytes_per_step <= 1.10x"));
  EXPECT_THAT(violated.out, HasSubstr("compare: 1 of 1 constraint check violated"));

  // The same runs under a looser constraint: the constraints, not the gate, decide the code.
  const ProcessResult held =
      scorecard("compare " + a + " " + b + " --constraint 'peak_bytes_per_step <= 1.30x'");
  EXPECT_EQ(held.exit_code, kPassed) << held.out << held.err;
  EXPECT_THAT(held.out, HasSubstr("REGRESSION"));  // still reported in its column
  // Without constraints the gate decides, as before.
  EXPECT_EQ(scorecard("compare " + a + " " + b).exit_code, kRegression);
}

TEST_F(ScorecardE2eTest, AConstraintThatDoesNotParseIsAUsageErrorNamingIt) {
  const auto [a, b] = two_runs("--set Experiment.val_loss=2.1");
  const ProcessResult bad =
      scorecard("compare " + a + " " + b + " --constraint 'peak_bytes_per_step =< 1.1x'");
  EXPECT_EQ(bad.exit_code, kUsageError) << bad.out << bad.err;
  EXPECT_THAT(bad.err, HasSubstr("constraint 'peak_bytes_per_step =< 1.1x'"));
  EXPECT_THAT(bad.err, HasSubstr("expected METRIC OP VALUE"));
  EXPECT_THAT(bad.out, Not(HasSubstr("SCORECARD")));

  // A metric no test recorded is a typo, not a constraint that holds for want of a value.
  const ProcessResult unknown =
      scorecard("compare " + a + " " + b + " --constraint 'peak_byte <= 1.1x'");
  EXPECT_EQ(unknown.exit_code, kUsageError) << unknown.out << unknown.err;
  EXPECT_THAT(unknown.err, HasSubstr("no test of A or B recorded a metric 'peak_byte'"));
}

TEST_F(ScorecardE2eTest, ATestsOwnConstraintIsCheckedByRunCompareAndTheReport) {
  std::filesystem::create_directories(baselines());
  const std::string against = "--filter DeclaresItsConstraint --baselines " + baselines();
  // No baseline yet: "+1%" of nothing is not evaluated, and does not fail the run.
  const ProcessResult first = run_experiment(against);
  ASSERT_EQ(first.exit_code, kPassed) << first.out << first.err;
  const std::string a = latest_folder();
  EXPECT_EQ(test_named(results(), "DeclaresItsConstraint").at("constraints"),
            json::array({"val_loss <= +1%"}));
  ASSERT_EQ(scorecard("promote " + a + " --baselines " + baselines() + " --reason e2e").exit_code,
            kPassed);

  // +0.5%: inside the test's 1%.
  EXPECT_EQ(run_experiment(against + " --set DeclaresItsConstraint.val_loss=2.01").exit_code,
            kPassed);
  // +5%: inside the 50% band (PASS), outside the test's own 1%.
  const ProcessResult broken =
      run_experiment(against + " --set DeclaresItsConstraint.val_loss=2.1");
  EXPECT_EQ(broken.exit_code, kConstraintViolated) << broken.out << broken.err;
  const std::string described = "val_loss <= +1%: B 2.1 > limit 2.02 (A 2 +1%) VIOLATED";
  EXPECT_THAT(broken.out, HasSubstr("CONSTRAINT    " + described));
  const json test = test_named(results(), "DeclaresItsConstraint");
  EXPECT_EQ(test.at("metrics").at(0).at("verdict"), "PASS");
  EXPECT_EQ(test.at("constraints_violated"), json::array({described}));
  EXPECT_EQ(results().at("run").at("exit_status"), "constraint_violated");
  EXPECT_THAT(read_file(latest() + "/junit.xml"), HasSubstr("type=\"constraint_violated\""));
  EXPECT_TRUE(junit_validates(latest() + "/junit.xml"));
  const std::string html = read_file(latest() + "/report.html");
  EXPECT_THAT(html, HasSubstr("<table class=\"scorecard\">"));
  EXPECT_THAT(html, HasSubstr("val_loss &lt;= +1%: B 2.1 &gt; limit 2.02 (A 2 +1%) VIOLATED"));
  EXPECT_THAT(html, HasSubstr("data-verdict=\"CONSTRAINT_VIOLATED\""));

  const ProcessResult compared = scorecard("compare " + a + " " + latest_folder());
  EXPECT_EQ(compared.exit_code, kConstraintViolated) << compared.out << compared.err;
  EXPECT_THAT(compared.out, HasSubstr("constraints violated: val_loss <= +1%"));
}

TEST_F(ScorecardE2eTest, ADeclaredConstraintThatDoesNotParseFailsTheTestAtItsLine) {
  const ProcessResult result = run_experiment("--tier full --filter DeclaresABadConstraint");
  EXPECT_EQ(result.exit_code, kTestFailed) << result.out << result.err;
  const std::string failures =
      test_named(results(), "DeclaresABadConstraint").at("failures").dump();
  EXPECT_THAT(failures, HasSubstr("scorecard_fixture.cc:"));
  EXPECT_THAT(failures, HasSubstr("constrain: constraint 'val_loss <~ 2'"));
}

}  // namespace
}  // namespace mlregress::e2e
