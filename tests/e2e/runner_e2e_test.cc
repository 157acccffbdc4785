// The runner as users and CI meet it: a real test binary (tests/fixture) run with real command
// lines. Every fault the runner promises to survive is planted there and checked here: the
// exit code, the message, and that no finished result is lost from results.json or JUnit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>

#include "fixture_runner.h"
#include "golden_files.h"
#include "leftover_processes.h"
#include "process.h"
#include "tests/support/files.h"

namespace mlregress::e2e {
namespace {

using nlohmann::json;
using test_support::file_exists;
using test_support::read_file;
using RunnerE2eTest = FixtureRunnerTest;

TEST_F(RunnerE2eTest, PassingTestWritesACompleteRunFolder) {
  const ProcessResult result = run("--filter Passes");
  ASSERT_EQ(result.exit_code, kPassed) << result.out << result.err;
  EXPECT_THAT(result.out, ::testing::HasSubstr("[       OK ] Fast.Passes")) << result.out;
  EXPECT_THAT(result.out, ::testing::HasSubstr("1 passed, 0 failed, 0 skipped")) << result.out;

  const json document = results();
  EXPECT_EQ(document.at("schema_version"), 1);
  EXPECT_EQ(document.at("run").at("complete"), true);
  EXPECT_EQ(document.at("run").at("exit_status"), "passed");
  const json test = test_named(document, "Passes");
  EXPECT_EQ(test.at("status"), "passed");
  EXPECT_EQ(test.at("tier"), "fast");
  EXPECT_EQ(test.at("metrics").at(0).at("name"), "value");
  EXPECT_EQ(test.at("metrics").at(0).at("value"), 1.5);
  EXPECT_EQ(test.at("metrics").at(0).at("direction"), "lower_is_better");
  EXPECT_EQ(test.at("metrics").at(0).at("policy").at("rtol"), 0.1);

  // Curves: one CSV each, names sanitised ("val/loss" must not create a sub-folder).
  ASSERT_EQ(test.at("curves").size(), 2u);
  EXPECT_EQ(test.at("curves").at(0).at("file"), "curves/Passes.loss.csv");
  EXPECT_EQ(test.at("curves").at(1).at("file"), "curves/Passes.val_loss.csv");
  EXPECT_EQ(read_file(latest() + "/curves/Passes.loss.csv"),
            "step,value\n0,1\n1,0.5\n2,0.3333333333333333\n");
  EXPECT_EQ(read_file(latest() + "/curves/Passes.val_loss.csv"), "step,value\n0,0.9\n10,0.5\n");

  const json environment = json::parse(read_file(latest() + "/environment.json"));
  for (const char* key : {"cpu", "os", "hostname", "compiler", "git", "run"}) {
    EXPECT_TRUE(environment.contains(key)) << key;
  }
  EXPECT_EQ(environment.at("run").at("intra_op_threads"), 1);

  const json config = json::parse(read_file(latest() + "/config.json"));
  EXPECT_EQ(config.at("tests").at("Passes").at("params").at("value"), 1.5);
  EXPECT_EQ(config.at("tests").at("Passes").at("config_hash"), test.at("config_hash"));

  EXPECT_TRUE(junit_validates(latest() + "/junit.xml"));
  const std::string ledger = read_file(runs() + "/ledger.jsonl");
  ASSERT_FALSE(ledger.empty());
  EXPECT_EQ(json::parse(ledger).at("exit_code"), 0);
  EXPECT_TRUE(std::filesystem::is_symlink(latest()));
}

TEST_F(RunnerE2eTest, SetOverridesAParameterAndChangesTheConfigHash) {
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
  const std::string default_hash = test_named(results(), "Passes").at("config_hash");
  const ProcessResult result = run("--filter Passes --set Passes.value=2.5 --set Passes.points=1");
  ASSERT_EQ(result.exit_code, kPassed) << result.err;
  const json test = test_named(results(), "Passes");
  EXPECT_EQ(test.at("metrics").at(0).at("value"), 2.5);
  EXPECT_EQ(test.at("curves").at(0).at("points"), 1);
  EXPECT_NE(test.at("config_hash"), default_hash);
}

TEST_F(RunnerE2eTest, EveryParameterTypeParsesFromTheCommandLine) {
  const ProcessResult result =
      run("--filter AllParameterTypes --set AllParameterTypes.count=7 --set "
          "AllParameterTypes.flag=false");
  // The test asserts the defaults, so overriding them must make it fail: proof they arrived.
  EXPECT_EQ(result.exit_code, kTestFailed);
  const json config = json::parse(read_file(latest() + "/config.json"));
  EXPECT_EQ(config.at("tests").at("AllParameterTypes").at("params").at("count"), 7);
  EXPECT_EQ(config.at("tests").at("AllParameterTypes").at("params").at("flag"), false);
  EXPECT_EQ(config.at("tests").at("AllParameterTypes").at("params").at("label"), "abc");
}

struct BadCommandLine {
  std::string args;
  int exit_code;
  std::string message;
};

void PrintTo(const BadCommandLine& bad, std::ostream* out) { *out << "'" << bad.args << "'"; }

class BadCommandLineTest : public FixtureRunnerTest,
                           public ::testing::WithParamInterface<BadCommandLine> {};

TEST_P(BadCommandLineTest, FailsClearlyBeforeRunningAnything) {
  const BadCommandLine& bad = GetParam();
  const ProcessResult result = fixture(bad.args + " --out " + runs());
  EXPECT_EQ(result.exit_code, bad.exit_code) << result.out << result.err;
  EXPECT_THAT(result.err, ::testing::HasSubstr(bad.message)) << result.err;
  EXPECT_THAT(result.out, ::testing::Not(::testing::HasSubstr("[ RUN"))) << "a test ran:\n"
                                                                         << result.out;
  EXPECT_FALSE(file_exists(runs())) << "a run folder was created for a run that never started";
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadCommandLineTest,
    ::testing::Values(
        BadCommandLine{"run --bogus-flag", kUsageError, "--bogus-flag"},
        BadCommandLine{"frobnicate", kUsageError, "frobnicate"},
        BadCommandLine{"run --tier fastest", kUsageError, "fastest"},
        BadCommandLine{"run --set Passes.nope=1", kUsageError, "has no parameter 'nope'"},
        BadCommandLine{"run --set Passes.value=abc", kUsageError, "'abc' is not a valid double"},
        BadCommandLine{"run --set Passes.points=1.5", kUsageError, "not a valid int"},
        BadCommandLine{"run --set NoSuchTest.x=1", kUsageError, "no test named 'NoSuchTest'"},
        BadCommandLine{"run --set Passes.value", kUsageError, "expected TEST.KEY=VALUE"},
        BadCommandLine{"run --filter NoSuchTest", kNoTestsMatched, "no tests matched"},
        // Seeds are written to baselines as TOML integers: 0 <= S < 2^63, never wrapped.
        BadCommandLine{"run --seed -1", kUsageError, "a seed is a whole number from 0 to"},
        BadCommandLine{"run --seed 9223372036854775808", kUsageError, "not '9223372036854775808'"},
        BadCommandLine{"run --seed 12abc", kUsageError, "not '12abc'"},
        // NaN passes every range check; Inf passes "positive".
        BadCommandLine{"run --alpha nan", kUsageError, "expected a finite number, not 'nan'"},
        BadCommandLine{"run --seed-timeout nan", kUsageError, "expected a finite number"},
        BadCommandLine{"run --seed-timeout inf", kUsageError, "expected a finite number"},
        BadCommandLine{"run --ab-timeout -nan", kUsageError, "expected a finite number"},
        BadCommandLine{"run --ab-margin nan", kUsageError, "expected a finite number"},
        BadCommandLine{"run --alpha 0.01x", kUsageError, "'0.01x' is not a number"}));

TEST_F(RunnerE2eTest, CompareRefusesANanAlpha) {
  const ProcessResult result = fixture("compare a b --alpha nan");
  EXPECT_EQ(result.exit_code, kUsageError);
  EXPECT_THAT(result.err, ::testing::HasSubstr("expected a finite number, not 'nan'"));
}

TEST_F(RunnerE2eTest, UnwritableOutputFolderIsAnOutputError) {
  std::ofstream(temp_.path() + "/a_file") << "not a folder";
  const ProcessResult result =
      fixture("run --filter Passes --out " + temp_.path() + "/a_file/runs");
  EXPECT_EQ(result.exit_code, kOutputError) << result.err;
  EXPECT_THAT(result.err, ::testing::HasSubstr("a_file/runs")) << result.err;
  EXPECT_THAT(result.out, ::testing::Not(::testing::HasSubstr("[ RUN")));
}

TEST_F(RunnerE2eTest, UnwritableJunitPathStopsTheRunBeforeAnyTest) {
  const ProcessResult result =
      run("--filter Passes --junit " + temp_.path() + "/missing/dir/junit.xml");
  EXPECT_EQ(result.exit_code, kOutputError) << result.err;
  EXPECT_THAT(result.err, ::testing::HasSubstr("missing/dir/junit.xml")) << result.err;
  EXPECT_THAT(result.out, ::testing::Not(::testing::HasSubstr("[ RUN")));
  // No folder that looks like a run which holds nothing.
  if (std::filesystem::exists(runs())) {
    for (const auto& entry : std::filesystem::directory_iterator(runs())) {
      ADD_FAILURE() << "left behind: " << entry.path();
    }
  }
}

TEST_F(RunnerE2eTest, CrashesAbortsExitsAndThrowsLoseNoFinishedResult) {
  const std::string junit = temp_.path() + "/ci/junit.xml";
  std::filesystem::create_directories(temp_.path() + "/ci");
  const ProcessResult result =
      run("--filter Passes:FailsAnAssertion:Segfaults:Throws:Aborts:ExitsMidTest:AllParameterTypes "
          "--junit " +
          junit);
  EXPECT_EQ(result.exit_code, kTestFailed) << result.out << result.err;

  const json document = results();
  ASSERT_EQ(document.at("tests").size(), 7u) << document.dump(2);
  EXPECT_EQ(test_named(document, "Passes").at("status"), "passed");
  EXPECT_EQ(test_named(document, "AllParameterTypes").at("status"), "passed");
  EXPECT_EQ(test_named(document, "FailsAnAssertion").at("status"), "failed");
  EXPECT_THAT(test_named(document, "FailsAnAssertion")
                  .at("failures")
                  .at(0)
                  .at("message")
                  .get<std::string>(),
              ::testing::HasSubstr("planted failure"));
  EXPECT_EQ(test_named(document, "Throws").at("status"), "failed");
  EXPECT_THAT(test_named(document, "Throws").at("failures").at(0).at("message").get<std::string>(),
              ::testing::HasSubstr("planted exception"));

  const json segfault = test_named(document, "Segfaults");
  EXPECT_EQ(segfault.at("status"), "crashed");
  EXPECT_THAT(segfault.at("crash_message").get<std::string>(), ::testing::HasSubstr("signal 11"));
  ASSERT_EQ(segfault.at("metrics").size(), 1u) << "the metric recorded before the crash was lost";
  EXPECT_EQ(segfault.at("metrics").at(0).at("name"), "recorded_before_crash");
  EXPECT_THAT(test_named(document, "Aborts").at("crash_message").get<std::string>(),
              ::testing::HasSubstr("signal 6"));
  EXPECT_THAT(test_named(document, "ExitsMidTest").at("crash_message").get<std::string>(),
              ::testing::HasSubstr("exited with code 3"));

  EXPECT_EQ(document.at("summary").at("crashed"), 3);
  EXPECT_EQ(document.at("summary").at("failed"), 2);
  EXPECT_EQ(document.at("run").at("exit_status"), "test_failed");

  for (const std::string& path : {latest() + "/junit.xml", junit}) {
    EXPECT_TRUE(junit_validates(path));
    const std::string xml = read_file(path);
    EXPECT_THAT(xml, ::testing::HasSubstr("errors=\"3\"")) << xml;
    EXPECT_THAT(xml, ::testing::HasSubstr("failures=\"2\"")) << xml;
    EXPECT_THAT(xml, ::testing::HasSubstr("crashed: the test process was killed by signal 11"));
  }
  EXPECT_THAT(result.out, ::testing::HasSubstr("[  CRASHED ] Medium.Segfaults")) << result.out;
}

// A hung test must not hang the job: it is killed at its timeout, reported as timed out with what
// it recorded, and the run goes on with the next test.
TEST_F(RunnerE2eTest, AHangingTestIsKilledAtItsTimeoutAndTheRunGoesOn) {
  const auto start = std::chrono::steady_clock::now();
  const ProcessResult result =
      run("--filter LeavesProcessesBehind:RecordsNonFinite --set LeavesProcessesBehind.hang=true "
          "--timeout 1");
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(result.exit_code, kTestFailed) << result.out << result.err;
  EXPECT_LT(wall_s, 20.0);
  const json hung = test_named(results(), "LeavesProcessesBehind");
  EXPECT_EQ(hung.at("status"), "timed_out");
  EXPECT_EQ(hung.at("metrics").at(0).at("name"), "value") << "what it recorded was lost";
  EXPECT_EQ(test_named(results(), "RecordsNonFinite").at("status"), "passed");
  EXPECT_EQ(results().at("summary").at("timed_out"), 1);
  EXPECT_THAT(result.out, ::testing::HasSubstr("[ TIMED OUT] Medium.LeavesProcessesBehind"));
  EXPECT_THAT(result.out, ::testing::HasSubstr("killed with its processes after 1"));
  const std::string junit = read_file(latest() + "/junit.xml");
  EXPECT_THAT(junit, ::testing::HasSubstr("type=\"timeout\""));
  EXPECT_TRUE(junit_validates(latest() + "/junit.xml"));
}

// A process a test leaves running (a background program, a forked child holding the event pipe)
// neither holds the runner until it exits nor outlives the test.
TEST_F(RunnerE2eTest, AProcessATestLeavesRunningIsKilledAndDoesNotHoldTheRun) {
  for (const char* leftover : {"background_sleep", "forked_sleeper"}) {
    SCOPED_TRACE(leftover);
    const std::string pid_file = temp_.path() + "/" + leftover + ".pgid";
    const auto start = std::chrono::steady_clock::now();
    const ProcessResult result =
        run(std::string("--filter LeavesProcessesBehind --set "
                        "LeavesProcessesBehind.") +
            leftover + "=true --set LeavesProcessesBehind.pid_file=" + pid_file);
    const double wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(result.exit_code, kPassed) << result.out << result.err;
    EXPECT_LT(wall_s, 15.0) << "the runner waited for the 30 s sleeper";
    const pid_t group = std::stoi(read_file(pid_file));
    ASSERT_GT(group, 1);
    EXPECT_FALSE(a_process_of_group_runs(group)) << "a process the test started still runs";
  }
}

// User text reaches results.json and the ledger: invalid UTF-8 in a --filter is repaired, never
// a crash after the tests ran that loses the ledger line.
TEST_F(RunnerE2eTest, InvalidUtf8InAFilterIsRepairedInEveryFile) {
  const ProcessResult result = run("--filter \"$(printf 'Passes:Nothing\\377\\376')\"");
  EXPECT_EQ(result.exit_code, kPassed) << result.out << result.err;
  for (const char* file : {"/results.json", "/config.json", "/environment.json"}) {
    EXPECT_NO_THROW(json::parse(read_file(latest() + file))) << file;
  }
  const std::string ledger = read_file(runs() + "/ledger.jsonl");
  EXPECT_EQ(json::parse(ledger).at("exit_code"), 0);
  EXPECT_THAT(ledger, ::testing::HasSubstr("Nothing\xEF\xBF\xBD\xEF\xBF\xBD"));
}

// A CI agent cancelling the job sends SIGTERM, a developer presses Ctrl-C, or the runner is
// killed outright: no test process or seed worker may survive it, and the run folder keeps what
// finished, marked incomplete.
TEST_F(RunnerE2eTest, SignalsStopTheRunAndTakeEveryTestProcessWithIt) {
  struct Case {
    int signal;
    int exit_code;
    const char* binary;
    std::vector<std::string> args;
  };
  const std::vector<Case> cases{
      {SIGTERM,
       143,
       MLREGRESS_FIXTURE_BINARY,
       {"--filter", "Passes:LeavesProcessesBehind", "--set", "LeavesProcessesBehind.hang=true"}},
      {SIGINT,
       130,
       MLREGRESS_FIXTURE_BINARY,
       {"--filter", "Passes:LeavesProcessesBehind", "--set", "LeavesProcessesBehind.hang=true"}},
      {SIGTERM,
       143,
       MLREGRESS_SEED_FIXTURE_BINARY,
       {"--filter", "NoisyAccuracy", "--set", "NoisyAccuracy.hang_seed=1", "--jobs", "2"}},
      {SIGKILL,
       -1,
       MLREGRESS_FIXTURE_BINARY,
       {"--filter", "LeavesProcessesBehind", "--set", "LeavesProcessesBehind.hang=true"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(::strsignal(c.signal)) + " to " + c.binary);
    const std::string out = temp_.path() + "/signal-runs";
    std::vector<std::string> args = {c.binary, "run", "--color", "never", "--out", out};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const pid_t runner = start_in_own_session(args, temp_.path());
    ASSERT_GE(runner, 0);
    // Wait until the hanging test (or seed) runs: its process is a child of the runner.
    std::this_thread::sleep_for(std::chrono::milliseconds(800));
    ASSERT_TRUE(a_process_of_session_runs(runner, runner)) << "no test process started";
    ::kill(runner, c.signal);
    int status = 0;
    ::waitpid(runner, &status, 0);
    if (c.exit_code >= 0) {
      ASSERT_TRUE(WIFEXITED(status)) << "the runner died of the signal instead of stopping";
      EXPECT_EQ(WEXITSTATUS(status), c.exit_code);
      const json results = json::parse(read_file(out + "/latest/results.json"));
      EXPECT_EQ(results.at("run").at("complete"), false);
      const std::string ledger = read_file(out + "/ledger.jsonl");
      EXPECT_THAT(ledger, ::testing::HasSubstr("\"exit_code\":" + std::to_string(c.exit_code)));
      EXPECT_THAT(read_file(out + "/latest/report.html"),
                  ::testing::HasSubstr("data-verdict=\"INCOMPLETE\""));
    }
    EXPECT_FALSE(a_process_of_session_runs(runner, runner))
        << "a test process or seed worker outlived the runner";
    std::filesystem::remove_all(out);
  }
}

// A 64 MiB failure message keeps its first MiB and says how much was cut: JUnit and results.json
// stay small (they held it twice and once, 134 MB together).
TEST_F(RunnerE2eTest, AHugeFailureMessageIsCutToItsFirstMebibyte) {
  const ProcessResult result =
      run("--filter FailsWithAHugeMessage --set FailsWithAHugeMessage.mib=64");
  EXPECT_EQ(result.exit_code, kTestFailed);
  const std::string message =
      test_named(results(), "FailsWithAHugeMessage").at("failures").at(0).at("message");
  EXPECT_LT(message.size(), (1u << 20) + 200);
  const std::string tail =
      message.substr(message.size() - std::min<std::size_t>(message.size(), 120));
  EXPECT_THAT(tail, ::testing::HasSubstr("[... 66060295 more bytes of this message cut"));
  EXPECT_LT(std::filesystem::file_size(latest() + "/junit.xml"), 4u << 20);
  EXPECT_LT(std::filesystem::file_size(latest() + "/results.json"), 4u << 20);
}

TEST_F(RunnerE2eTest, AllSkippedHasItsOwnExitCodeForCtest) {
  const ProcessResult result = run("--filter Skips");
  EXPECT_EQ(result.exit_code, kAllSkipped) << result.out;
  const json test = test_named(results(), "Skips");
  EXPECT_EQ(test.at("status"), "skipped");
  EXPECT_THAT(test.at("skip_message").get<std::string>(), ::testing::HasSubstr("planted skip"));
  EXPECT_TRUE(junit_validates(latest() + "/junit.xml"));
}

TEST_F(RunnerE2eTest, HostileTextStaysValidXmlAndJson) {
  const ProcessResult result = run("--filter HostileText:RecordsNonFinite");
  EXPECT_EQ(result.exit_code, kTestFailed);
  EXPECT_TRUE(junit_validates(latest() + "/junit.xml"));
  const std::string xml = read_file(latest() + "/junit.xml");
  EXPECT_THAT(xml, ::testing::HasSubstr("control \\x01\\x02\\x07\\x1B chars")) << xml;
  EXPECT_THAT(xml, ::testing::HasSubstr("&lt;/failure&gt;]]&gt; &amp;")) << xml;
  EXPECT_THAT(xml, ::testing::HasSubstr("\\uFFFE")) << xml;

  const json nonfinite = test_named(results(), "RecordsNonFinite");  // parses: valid JSON
  EXPECT_EQ(nonfinite.at("metrics").at(0).at("value"), "NaN");
  EXPECT_EQ(nonfinite.at("metrics").at(1).at("value"), "Infinity");
  EXPECT_EQ(read_file(latest() + "/curves/RecordsNonFinite.diverges.csv"),
            "step,value\n0,1\n1,10\n2,inf\n3,nan\n");
  EXPECT_THAT(result.out, ::testing::HasSubstr("nan_metric = nan")) << result.out;
}

TEST_F(RunnerE2eTest, ReadingAnUndeclaredParameterFailsTheTestWithItsName) {
  EXPECT_EQ(run("--filter ReadsUndeclaredParameter").exit_code, kTestFailed);
  const std::string message =
      test_named(results(), "ReadsUndeclaredParameter").at("failures").at(0).at("message");
  EXPECT_THAT(message, ::testing::HasSubstr("'not_declared'")) << message;
}

TEST_F(RunnerE2eTest, TierAndFilterSelectTests) {
  ASSERT_EQ(run("--tier medium,full --filter "
                "*-Segfaults:Aborts:ExitsMidTest:HostileText:ReadsUndeclaredParameter")
                .exit_code,
            kPassed);
  std::vector<std::string> names;
  const json document = results();
  for (const json& test : document.at("tests")) names.push_back(test.at("full_name"));
  EXPECT_EQ(names,
            (std::vector<std::string>{"Medium.LeavesProcessesBehind", "Full.Skips",
                                      "Full.RecordsNonFinite", "Full.FailsWithAHugeMessage"}));
  // A pattern with a '.' matches the full name.
  ASSERT_EQ(run("--filter Fast.P*").exit_code, kPassed);
  EXPECT_EQ(results().at("tests").size(), 1u);
}

TEST_F(RunnerE2eTest, GoogleTestFlagsKeepWorking) {
  const ProcessResult listing = fixture("--gtest_list_tests");
  EXPECT_EQ(listing.exit_code, 0);
  EXPECT_THAT(listing.out, ::testing::HasSubstr("Fast.\n  Passes\n")) << listing.out;
  const ProcessResult filtered = run("--gtest_filter=Fast.Passes");
  EXPECT_EQ(filtered.exit_code, kPassed) << filtered.out << filtered.err;
  EXPECT_EQ(results().at("tests").size(), 1u);
}

TEST_F(RunnerE2eTest, ListJsonDescribesTestsAndParameters) {
  const ProcessResult result = fixture("list --format json --tier fast");
  ASSERT_EQ(result.exit_code, kPassed) << result.err;
  const json listing = json::parse(result.out);
  EXPECT_EQ(listing.at("schema_version"), 1);
  const json& first = listing.at("tests").at(0);
  EXPECT_EQ(first.at("full_name"), "Fast.Passes");
  EXPECT_EQ(first.at("labels"), json::array({"fast"}));
  EXPECT_GT(first.at("line").get<int>(), 0);
  EXPECT_EQ(first.at("params").at(0),
            (json{{"name", "value"}, {"type", "double"}, {"default", 1.5}}));
  const json& all_types = listing.at("tests").at(1);
  std::vector<std::string> types;
  for (const json& p : all_types.at("params")) types.push_back(p.at("type"));
  EXPECT_EQ(types, (std::vector<std::string>{"bool", "int", "double", "string"}));
  for (const json& test : listing.at("tests")) EXPECT_EQ(test.at("tier"), "fast");
}

TEST_F(RunnerE2eTest, HelpDocumentsTheExitCodes) {
  const ProcessResult result = fixture("--help");
  EXPECT_EQ(result.exit_code, kPassed);
  EXPECT_THAT(result.out, ::testing::HasSubstr("Exit codes:")) << result.out;
  EXPECT_THAT(result.out, ::testing::HasSubstr(" 0  passed ")) << result.out;
  EXPECT_THAT(result.out, ::testing::HasSubstr("77  all_skipped ")) << result.out;
}

// Golden files: the console, JUnit and results.json of one mixed run, volatile fields normalised.
// They must hold on any machine: the second instance runs the same checks on a machine the probe
// is told is another (CPU model, cores, hostname, kernel), as a CI runner elsewhere would be.
constexpr const char* kAnotherMachine =
    R"(MLREGRESS_ENVIRONMENT_OVERRIDE='{"cpu": {"model": "AMD EPYC 7B13 64-Core Processor", )"
    R"("logical_cores": 96}, "hostname": "ci-runner-elsewhere", "os": {"release": "6.9.9-cloud"}}')";

class GoldenOutputTest : public FixtureRunnerTest,
                         public ::testing::WithParamInterface<const char*> {
 protected:
  void SetUp() override {
    environment_ = GetParam();
    outcome_ = run("--filter Passes:FailsAnAssertion:Skips:Segfaults:HostileText");
    ASSERT_EQ(outcome_.exit_code, kTestFailed) << outcome_.err;
  }
  ProcessResult outcome_;
};

INSTANTIATE_TEST_SUITE_P(Machines, GoldenOutputTest, ::testing::Values("", kAnotherMachine),
                         [](const auto& info) {
                           return std::string(info.index == 0 ? "ThisMachine" : "AnotherMachine");
                         });

TEST_P(GoldenOutputTest, Console) {
  EXPECT_TRUE(matches_golden(normalise_volatile(outcome_.out, temp_.path()), "console.txt"));
}

TEST_P(GoldenOutputTest, Junit) {
  EXPECT_TRUE(matches_golden(normalise_volatile(read_file(latest() + "/junit.xml"), temp_.path()),
                             "junit.xml"));
}

TEST_P(GoldenOutputTest, ResultsJson) {
  EXPECT_TRUE(matches_golden(
      normalise_volatile(read_file(latest() + "/results.json"), temp_.path()), "results.json"));
}

// The override reaches what the run records, or the golden checks above would prove nothing.
TEST_F(FixtureRunnerTest, TheEnvironmentOverrideDescribesAnotherMachine) {
  environment_ = kAnotherMachine;
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
  const nlohmann::json environment =
      nlohmann::json::parse(read_file(latest() + "/environment.json"));
  EXPECT_EQ(environment.at("cpu").at("model"), "AMD EPYC 7B13 64-Core Processor");
  EXPECT_EQ(environment.at("cpu").at("logical_cores"), 96);
  EXPECT_EQ(environment.at("hostname"), "ci-runner-elsewhere");
  EXPECT_THAT(read_file(latest() + "/junit.xml"),
              ::testing::HasSubstr("hostname=\"ci-runner-elsewhere\""));
}

TEST_F(FixtureRunnerTest, AnEnvironmentOverrideThatIsNotAJsonObjectIsAUsageError) {
  environment_ = "MLREGRESS_ENVIRONMENT_OVERRIDE='[1, 2'";
  const ProcessResult result = run("--filter Passes");
  EXPECT_EQ(result.exit_code, kUsageError);
  EXPECT_THAT(result.err,
              ::testing::HasSubstr("MLREGRESS_ENVIRONMENT_OVERRIDE: expected a JSON object"));
}

}  // namespace
}  // namespace mlregress::e2e
