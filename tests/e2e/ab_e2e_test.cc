// `run --ab OTHER_BINARY`, end to end, on the torch-free timing fixture (tests/fixture/
// timing_fixture.cc: a busy loop whose length --set BusyLoopThroughput.extra_work scales).
// Planted: a 3x slowdown of the candidate (must be a REGRESSION, exit 2), the same slowdown in
// the other build instead (must be IMPROVED, and shows --set reaches the candidate only), no
// change at all (A/A: must not be a REGRESSION), and the other binary missing, not executable,
// not startable or not an mlregress binary (usage errors naming the path).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "fixture_runner.h"
#include "leftover_processes.h"
#include "process.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace mlregress::e2e {
namespace {

using nlohmann::json;
using test_support::file_exists;
using test_support::read_file;
using test_support::TempDir;

const std::string kFixture = MLREGRESS_TIMING_FIXTURE_BINARY;

class AbE2eTest : public ::testing::Test {
 protected:
  // 16 rounds: with one round going the other way, whichever its rank (a round disturbed by a
  // test running beside this one under ctest -j), the one-sided Wilcoxon p is at most
  // 169/65536, 0.0052 after Holm over two metrics, below alpha = 0.01. With 8 rounds one
  // reversed round of rank 2 already gave p = 0.0117 and an INCONCLUSIVE.
  ProcessResult ab(const std::string& other, const std::string& args = "") {
    return run_command(kFixture + " run --ab " + other + " --rounds 16 --color never --out " +
                       runs() + " --filter BusyLoopThroughput:NotATimingTest " + args);
  }
  std::string runs() const { return temp_.path() + "/runs"; }
  json ab_json() const { return json::parse(read_file(runs() + "/latest/ab.json")); }
  // A script that runs the fixture with a planted slowdown in `run`, and plainly otherwise.
  std::string slow_other() const {
    const std::string path = temp_.path() + "/slow_other.sh";
    std::ofstream(path) << "#!/bin/sh\nif [ \"$1\" = run ]; then exec " << kFixture
                        << " \"$@\" --set BusyLoopThroughput.extra_work=2.0; fi\nexec " << kFixture
                        << " \"$@\"\n";
    ::chmod(path.c_str(), 0755);
    return path;
  }

  TempDir temp_;
};

TEST_F(AbE2eTest, AHungChildIsKilledAtTheTimeoutAndTheComparisonStopsWithTheReason) {
  const ProcessResult result = ab(kFixture, "--set BusyLoopThroughput.hang=true --ab-timeout 1");
  EXPECT_EQ(result.exit_code, kTestFailed) << result.out << result.err;
  EXPECT_THAT(result.out + result.err, ::testing::HasSubstr("a timeout: killed after 1 s"))
      << result.out << result.err;
}

// A cancelled CI job stops an A/B comparison too: the signal reaches the child run, which kills
// its test processes, and the comparison exits 143 with nothing left running.
TEST_F(AbE2eTest, SigtermStopsTheComparisonAndItsChildRun) {
  const std::string out = runs();
  const std::vector<std::string> args = {kFixture,   "run",
                                         "--ab",     kFixture,
                                         "--rounds", "8",
                                         "--out",    out,
                                         "--filter", "BusyLoopThroughput",
                                         "--set",    "BusyLoopThroughput.hang=true"};
  const pid_t runner = start_in_own_session(args, temp_.path());
  ASSERT_GE(runner, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  ASSERT_TRUE(a_process_of_session_runs(runner, runner)) << "the child run did not start";
  ::kill(runner, SIGTERM);
  int status = 0;
  ::waitpid(runner, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "the comparison died of the signal instead of stopping";
  EXPECT_EQ(WEXITSTATUS(status), 143);
  EXPECT_FALSE(a_process_of_session_runs(runner, runner)) << "a child run or test outlived it";
}

TEST_F(AbE2eTest, ThreefoldSlowerCandidateIsARegression) {
  const ProcessResult result = ab(kFixture, "--set BusyLoopThroughput.extra_work=2.0");
  EXPECT_EQ(result.exit_code, kRegression) << result.out << result.err;
  const json document = ab_json();
  EXPECT_EQ(document.at("tests"), json::array({"BusyLoopThroughput"}))
      << "only timing tests take part";
  ASSERT_EQ(document.at("metrics").size(), 2u);  // steps/s and examples/s
  for (const json& metric : document.at("metrics")) {
    EXPECT_EQ(metric.at("verdict"), "REGRESSION") << metric.dump(2);
    const double ratio = metric.at("median_cost_ratio");
    // The planted slowdown is 3x in work; on a machine busy with other jobs the measured ratio
    // shrinks (1.92 seen with a compiler on the other core), so the check is "a clear multiple",
    // far beyond the 5% margin, not "close to 3".
    EXPECT_GT(ratio, 1.5) << "the planted slowdown is 3x";
    EXPECT_LT(ratio, 4.5);
    EXPECT_LE(metric.at("interval").at("low").get<double>(), ratio);
    EXPECT_GE(metric.at("interval").at("high").get<double>(), ratio);
    EXPECT_LT(metric.at("wilcoxon").at("p_slower_holm").get<double>(), 0.01);
    EXPECT_EQ(metric.at("candidate").size(), 16u);
  }
  EXPECT_THAT(result.out, ::testing::HasSubstr("REGRESSION")) << result.out;
  EXPECT_EQ(document.at("run").at("exit_status"), "regression");
}

TEST_F(AbE2eTest, ThreefoldSlowerOtherBuildIsAnImprovementAndSetReachesOnlyTheCandidate) {
  const ProcessResult result = ab(slow_other());
  EXPECT_EQ(result.exit_code, kPassed) << result.out << result.err;
  const json document = ab_json();  // named: a range-for over a temporary's member dangles
  for (const json& metric : document.at("metrics")) {
    EXPECT_EQ(metric.at("verdict"), "IMPROVED") << metric.dump(2);
    EXPECT_LT(metric.at("median_cost_ratio").get<double>(), 0.5);
  }
}

TEST_F(AbE2eTest, SameBinaryAgainstItselfIsNotARegressionAndRoundsAreBalanced) {
  const ProcessResult result = ab(kFixture);
  EXPECT_EQ(result.exit_code, kPassed) << result.out << result.err;
  const json document = ab_json();
  for (const json& metric : document.at("metrics")) {
    EXPECT_NE(metric.at("verdict"), "REGRESSION") << metric.dump(2);
  }
  int candidate_first = 0;
  for (const json& round : document.at("rounds")) {
    candidate_first += round.at("order").at(0) == "candidate";
    // Each child's own run folder is kept for explaining the numbers later.
    EXPECT_TRUE(
        file_exists(round.at("candidate").at("folder").get<std::string>() + "/results.json"));
  }
  EXPECT_EQ(candidate_first, 8) << "each pair of rounds has one candidate-first round";
  EXPECT_TRUE(file_exists(runs() + "/latest/environment.json"));
}

TEST_F(AbE2eTest, AMissingOtherBinaryIsAUsageErrorNamingThePath) {
  const ProcessResult result = ab(temp_.path() + "/no-such-binary");
  EXPECT_EQ(result.exit_code, kUsageError);
  EXPECT_THAT(result.err, ::testing::HasSubstr(temp_.path() + "/no-such-binary")) << result.err;
}

TEST_F(AbE2eTest, ANonExecutableOtherBinaryIsAUsageError) {
  const std::string path = temp_.path() + "/not-executable";
  std::ofstream(path) << "text\n";
  const ProcessResult result = ab(path);
  EXPECT_EQ(result.exit_code, kUsageError);
  EXPECT_THAT(result.err, ::testing::HasSubstr("not executable")) << result.err;
}

// An executable file exec refuses (no #! line, no machine code): starting it threw out of --ab
// as an internal error (exit 70) instead of the usage error of an other binary that is no test
// binary.
TEST_F(AbE2eTest, AnOtherBinaryThatCannotBeStartedIsAUsageErrorNotAnInternalError) {
  const std::string path = temp_.path() + "/garbage-binary";
  std::ofstream(path) << "\x01\x02\x03 not a program\n";
  ASSERT_EQ(::chmod(path.c_str(), 0755), 0);
  const ProcessResult result = ab(path);
  EXPECT_NE(result.exit_code, 70) << result.err;
  EXPECT_EQ(result.exit_code, kUsageError) << result.out << result.err;
  EXPECT_THAT(result.err, ::testing::HasSubstr("cannot start " + path)) << result.err;
  EXPECT_THAT(result.err, ::testing::Not(::testing::HasSubstr("internal error"))) << result.err;
}

TEST_F(AbE2eTest, AnOtherBinaryThatListsNoTestsIsAUsageError) {
  const ProcessResult result = ab("/bin/true");
  EXPECT_EQ(result.exit_code, kUsageError);
  EXPECT_THAT(result.err, ::testing::HasSubstr("/bin/true list --format json")) << result.err;
}

TEST_F(AbE2eTest, ASelectionWithoutTimingTestsMatchesNothing) {
  const ProcessResult result =
      run_command(kFixture + " run --ab " + kFixture + " --filter NotATimingTest --out " + runs());
  EXPECT_EQ(result.exit_code, kNoTestsMatched);
  EXPECT_THAT(result.err, ::testing::HasSubstr("no timing tests")) << result.err;
}

TEST_F(AbE2eTest, AMistypedSetFailsBeforeAnythingRuns) {
  const ProcessResult result = ab(kFixture, "--set BusyLoopThroughput.extra_wrok=2");
  EXPECT_EQ(result.exit_code, kUsageError);
  EXPECT_FALSE(file_exists(runs() + "/latest"));
}

}  // namespace
}  // namespace mlregress::e2e
