// Baselines end to end, through the fixture binary: promote, compare, the verdicts, and every
// kind of bad input — each with its exit code and with every file left byte-identical.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <thread>
#include <tuple>

#include "fixture_runner.h"
#include "process.h"
#include "tests/support/files.h"

namespace mlregress::e2e {
namespace {

using nlohmann::json;
using test_support::file_exists;
using test_support::read_file;
namespace fs = std::filesystem;

class BaselinesE2eTest : public FixtureRunnerTest {
 protected:
  std::string file() const { return baselines() + "/mlregress_fixture_suite/fixture_suite.toml"; }
  ProcessResult promote(const std::string& run_folder, const std::string& extra = "") {
    return fixture("promote " + run_folder + " --baselines " + baselines() + " --reason e2e " +
                   extra);
  }
  // Runs Passes and AllParameterTypes and promotes the run: the usual starting point.
  void promote_fixture_baseline() {
    ASSERT_EQ(run("--filter Passes:AllParameterTypes").exit_code, kPassed);
    const ProcessResult promoted = promote(latest());
    ASSERT_EQ(promoted.exit_code, kPassed) << promoted.err;
    ASSERT_TRUE(file_exists(file()));
  }
  void replace_in_baseline(const std::string& from, const std::string& to) {
    std::string text = read_file(file());
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << "no '" << from << "' in\n" << text;
    text.replace(at, from.size(), to);
    std::ofstream(file(), std::ios::binary) << text;
  }
  std::map<std::string, std::string> snapshot() const {
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(temp_.path())) {
      if (entry.is_regular_file()) files[entry.path().string()] = read_file(entry.path().string());
    }
    return files;
  }
  std::string verdict_of(const std::string& test, const std::string& metric) const {
    const json entry = test_named(results(), test);
    for (const json& m : entry.at("metrics")) {
      if (m.at("name") == metric) return m.at("verdict");
    }
    return "<no metric " + metric + ">";
  }
};

TEST_F(BaselinesE2eTest, PromoteRunAgainPassThenABetterBaselineRegressesUntilPromoted) {
  promote_fixture_baseline();
  const std::string promoted_text = read_file(file());
  EXPECT_THAT(promoted_text, ::testing::HasSubstr("version = 1")) << promoted_text;

  ProcessResult again = run("--filter Passes:AllParameterTypes --baselines " + baselines());
  ASSERT_EQ(again.exit_code, kPassed) << again.out << again.err;
  EXPECT_EQ(verdict_of("Passes", "value"), "PASS");
  EXPECT_EQ(verdict_of("AllParameterTypes", "count"), "PASS");

  // value is lower-is-better with band 0.01 + 0.1 * 1.0: 1.5 is far worse than a baseline of 1.0.
  replace_in_baseline("value = 1.5", "value = 1.0");
  const ProcessResult regressed =
      run("--filter Passes:AllParameterTypes --baselines " + baselines());
  EXPECT_EQ(regressed.exit_code, kRegression) << regressed.out;
  EXPECT_EQ(verdict_of("Passes", "value"), "REGRESSION");
  EXPECT_EQ(test_named(results(), "Passes").at("status"), "regressed");
  EXPECT_THAT(regressed.out, ::testing::HasSubstr("[ REGRESSED] Fast.Passes")) << regressed.out;
  EXPECT_THAT(regressed.out, ::testing::HasSubstr("REGRESSION"));
  const std::string junit = read_file(latest() + "/junit.xml");
  EXPECT_THAT(junit,
              ::testing::HasSubstr(
                  "message=\"REGRESSION value 1.5 vs baseline 1 (+0.5 (+50.0%); band ±0.11)\""))
      << junit;
  EXPECT_TRUE(junit_validates(latest() + "/junit.xml"));

  // The change is intentional: promote it, and the gate passes again with the history kept.
  ASSERT_EQ(promote(latest()).exit_code, kPassed);
  EXPECT_EQ(run("--filter Passes:AllParameterTypes --baselines " + baselines()).exit_code, kPassed);
  const std::string history = read_file(file());
  EXPECT_THAT(history, ::testing::HasSubstr("[[tests.Passes.metrics.value.history]]\nversion = 2"))
      << history;
  EXPECT_THAT(history, ::testing::HasSubstr("old_value = 1.0\nnew_value = 1.5")) << history;
}

TEST_F(BaselinesE2eTest, BeyondTheBandInTheGoodDirectionIsImprovedAndPasses) {
  promote_fixture_baseline();
  replace_in_baseline("value = 1.5", "value = 3.0");
  EXPECT_EQ(run("--filter Passes --baselines " + baselines()).exit_code, kPassed);
  EXPECT_EQ(verdict_of("Passes", "value"), "IMPROVED");
}

TEST_F(BaselinesE2eTest, TestsWithoutBaselineAreNewAndPass) {
  promote_fixture_baseline();
  EXPECT_EQ(run("--filter FailsAnAssertion --baselines " + baselines()).exit_code, kTestFailed);
  EXPECT_EQ(verdict_of("FailsAnAssertion", "recorded_before_failure"), "NEW");
}

TEST_F(BaselinesE2eTest, NonFiniteObservationIsARegressionNeverAPass) {
  promote_fixture_baseline();
  std::ofstream(file(), std::ios::app) << "\n[tests.RecordsNonFinite.metrics.nan_metric]\n"
                                          "direction = \"lower_is_better\"\npolicy = \"band\"\n"
                                          "rtol = 1.0\natol = 1.0\nvalue = 1.0\n";
  const ProcessResult result = run("--filter RecordsNonFinite --baselines " + baselines());
  EXPECT_EQ(result.exit_code, kRegression) << result.out << result.err;
  EXPECT_EQ(verdict_of("RecordsNonFinite", "nan_metric"), "REGRESSION");
}

// AllParameterTypes records `count` with Exact{}: a whole number, so promote stores it portable
// (one value, gated on every machine). Moved to "another machine" (the profile renamed in the
// file), it is still judged. Stored as numerics, per environment profile, it is UNGATED there:
// listed at the end of the run, --strict-env fails the run with exit 11 (run and report), the
// JUnit testcase says why, and `baselines adopt` gates it without touching the other machine's
// value. Planted: an UNGATED value passed silently, strict reusing exit 2, adopt replacing the
// other machine's value.
TEST_F(BaselinesE2eTest, ExactValuesFromAnotherEnvironmentAreUngatedStrictEnvFailsAndAdoptGates) {
  promote_fixture_baseline();
  std::string text = read_file(file());
  ASSERT_THAT(text, ::testing::HasSubstr("scope = \"portable\"\nvalue = 3.0\n")) << text;
  std::smatch id;
  ASSERT_TRUE(
      std::regex_search(text, id, std::regex(R"re(environment = "([a-z]+-[0-9a-f]{8})")re")))
      << text;
  const std::string profile = id[1].str();
  text = std::regex_replace(text, std::regex(profile), "cpu-00000000");
  std::ofstream(file(), std::ios::binary) << text;
  EXPECT_EQ(run("--filter AllParameterTypes --strict-env --baselines " + baselines()).exit_code,
            kPassed);
  EXPECT_EQ(verdict_of("AllParameterTypes", "count"), "PASS");

  text = std::regex_replace(text, std::regex("scope = \"portable\"\nvalue = 3\\.0\n"),
                            "scope = \"numerics\"\nvalues = { cpu-00000000 = 3.0 }\n");
  std::ofstream(file(), std::ios::binary) << text;
  const ProcessResult lenient = run("--filter AllParameterTypes --baselines " + baselines());
  EXPECT_EQ(lenient.exit_code, kPassed) << lenient.out << lenient.err;
  EXPECT_EQ(verdict_of("AllParameterTypes", "count"), "UNGATED");
  EXPECT_THAT(lenient.out, ::testing::HasSubstr("[NOT GATED ] 1 metric not gated on this machine"));
  EXPECT_THAT(lenient.out, ::testing::HasSubstr("baselines adopt"));
  EXPECT_THAT(lenient.out, ::testing::HasSubstr("[NOT GATED ] AllParameterTypes.count: UNGATED"));
  const std::string first_run = fs::canonical(latest()).string();

  const ProcessResult strict =
      run("--filter AllParameterTypes --strict-env --baselines " + baselines());
  EXPECT_EQ(strict.exit_code, kNotGated) << strict.out << strict.err;
  EXPECT_EQ(results().at("run").at("exit_status"), "not_gated");
  EXPECT_EQ(results().at("run").at("strict_env"), true);
  const std::string junit = read_file(latest() + "/junit.xml");
  EXPECT_THAT(junit, ::testing::HasSubstr("type=\"not_gated\"")) << junit;
  // The testsuite counts it as a failure, as a CI server's summary reads it.
  EXPECT_THAT(junit,
              ::testing::HasSubstr("<testsuites name=\"mlregress_fixture_suite\" tests=\"1\" "
                                   "failures=\"1\""))
      << junit;
  EXPECT_TRUE(junit_validates(latest() + "/junit.xml"));
  const std::string second_run = fs::canonical(latest()).string();
  EXPECT_EQ(fixture("report " + first_run + " --format markdown --out - --strict-env --baselines " +
                    baselines())
                .exit_code,
            kNotGated);
  EXPECT_EQ(fixture("report " + first_run + " --format markdown --out - --baselines " + baselines())
                .exit_code,
            kPassed);

  // Adopted from two runs that agree: gated here, the other machine's value as it was.
  const ProcessResult adopted =
      fixture("baselines adopt " + first_run + " --confirm " + second_run + " --baselines " +
              baselines() + " --reason 'new runner'");
  ASSERT_EQ(adopted.exit_code, kPassed) << adopted.out << adopted.err;
  EXPECT_THAT(adopted.out, ::testing::HasSubstr("adopted  AllParameterTypes.count = 3"));
  const std::string after = read_file(file());
  EXPECT_THAT(after, ::testing::HasSubstr("cpu-00000000 = 3.0")) << after;
  EXPECT_THAT(after, ::testing::HasSubstr("reason = \"adopt (confirmed by run ")) << after;
  const ProcessResult gated =
      run("--filter AllParameterTypes --strict-env --baselines " + baselines());
  EXPECT_EQ(gated.exit_code, kPassed) << gated.out << gated.err;
  EXPECT_EQ(verdict_of("AllParameterTypes", "count"), "PASS");
  EXPECT_THAT(gated.out, ::testing::Not(::testing::HasSubstr("NOT GATED")));
  // Nothing left to adopt: the file stays byte-identical.
  EXPECT_EQ(fixture("baselines adopt " + first_run + " --baselines " + baselines()).exit_code,
            kPassed);
  EXPECT_EQ(read_file(file()), after);
}

struct BadBaseline {
  std::string name;
  std::string from;  // text in the promoted file...
  std::string to;    // ...replaced by this
  std::string message;
};

// Names the case in test listings instead of dumping the struct's bytes.
void PrintTo(const BadBaseline& bad, std::ostream* out) { *out << bad.name; }

class BadBaselineTest : public BaselinesE2eTest,
                        public ::testing::WithParamInterface<BadBaseline> {};

TEST_P(BadBaselineTest, StopsBeforeAnyTestWithFileLineColumnAndTouchesNothing) {
  promote_fixture_baseline();
  replace_in_baseline(GetParam().from, GetParam().to);
  const auto before = snapshot();
  for (const std::string& command :
       {"run --color never --out " + runs() + " --baselines " + baselines(),
        "promote " + latest() + " --baselines " + baselines()}) {
    const ProcessResult result = fixture(command);
    EXPECT_EQ(result.exit_code, kBaselineError) << command << "\n" << result.out << result.err;
    EXPECT_TRUE(std::regex_search(result.err, std::regex(R"(fixture_suite\.toml:\d+:\d+: )")))
        << result.err;
    EXPECT_THAT(result.err, ::testing::HasSubstr(GetParam().message)) << result.err;
    EXPECT_THAT(result.out, ::testing::Not(::testing::HasSubstr("[ RUN")));
  }
  EXPECT_EQ(snapshot(), before) << "a file was created or modified";
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadBaselineTest,
    ::testing::Values(
        BadBaseline{"MalformedToml", "schema_version = 1", "schema_version = 1\nbroken = [1, 2",
                    "parsing"},
        BadBaseline{"WrongType", "value = 1.5", "value = \"1.5\"", "must be a number"},
        BadBaseline{"UnknownDirection", "direction = \"lower_is_better\"",
                    "direction = \"sideways\"", "unknown direction 'sideways'"},
        BadBaseline{"NegativeTolerance", "rtol = 0.1", "rtol = -0.1",
                    "must be a finite number >= 0"},
        BadBaseline{"NanTolerance", "atol = 0.01", "atol = nan", "must be a finite number >= 0"},
        BadBaseline{"FutureSchema", "schema_version = 1", "schema_version = 99", "newer mlregress"},
        BadBaseline{"SchemaVersionThatWouldWrapToOne", "schema_version = 1",
                    "schema_version = 4294967297", "must be between 1 and 1000000"},
        BadBaseline{"UnknownKey", "policy = \"band\"", "policy = \"band\"\nrtoll = 0.5",
                    "unknown key 'rtoll'"}),
    [](const auto& info) { return info.param.name; });

TEST_F(BaselinesE2eTest, AMissingBaselineFolderIsABaselineError) {
  // A typo in --baselines must not pass every test as "no baseline yet".
  ProcessResult missing = run("--filter Passes --baselines " + baselines());
  EXPECT_EQ(missing.exit_code, kBaselineError);
  EXPECT_THAT(missing.err, ::testing::HasSubstr("does not exist")) << missing.err;
  EXPECT_FALSE(file_exists(runs())) << "a run folder was created for a run that never started";
}

// A test's own baseline file that cannot be read must stop the run: skipped, its tests would be
// NEW and pass whatever they record.
TEST_F(BaselinesE2eTest, ABaselineFileThatCannotBeReadIsABaselineErrorNeverSkipped) {
  promote_fixture_baseline();
  const std::string kept = temp_.path() + "/kept.toml";
  fs::rename(file(), kept);
  // Another, healthy file in the folder (the same entries under other test names): the run must
  // not settle for reading just that one.
  std::string other = read_file(kept);
  for (std::size_t at = other.find("[tests."); at != std::string::npos;
       at = other.find("[tests.", at + 1)) {
    other.insert(at + 7, "Other");
  }
  std::ofstream(baselines() + "/mlregress_fixture_suite/other_suite.toml") << other;
  const std::pair<std::string, std::function<void()>> cases[] = {
      {"a symbolic link to nothing",
       [&] { fs::create_symlink(temp_.path() + "/gone.toml", file()); }},
      {"a directory, not a file", [&] { fs::create_directory(file()); }},
      {"Too many levels of symbolic links", [&] { fs::create_symlink(file(), file()); }},
  };
  for (const auto& [why, plant] : cases) {
    SCOPED_TRACE(why);
    fs::remove(file());
    plant();
    const ProcessResult result = run("--filter Passes --baselines " + baselines());
    EXPECT_EQ(result.exit_code, kBaselineError) << result.out << result.err;
    EXPECT_THAT(result.err, ::testing::HasSubstr(file() + ": cannot be read: " + why))
        << result.err;
  }
}

TEST_F(BaselinesE2eTest, AnEmptyBaselineFolderGivesNewAndSaysHowToPromote) {
  // The first run of a new project: the folder exists, nothing has been promoted yet.
  fs::create_directories(baselines());
  const ProcessResult first = run("--filter Passes --baselines " + baselines());
  EXPECT_EQ(first.exit_code, kPassed) << first.out << first.err;
  EXPECT_EQ(test_named(results(), "Passes").at("metrics").at(0).at("verdict"), "NEW");
  const std::string hint = "mlregress_fixture_suite promote " + runs() + "/" +
                           fs::read_symlink(latest()).string() + " --baselines " + baselines();
  EXPECT_THAT(first.out, ::testing::HasSubstr(hint)) << first.out;
  // Following the hint gives the test its baseline.
  ASSERT_EQ(promote(latest()).exit_code, kPassed);
  const ProcessResult second = run("--filter Passes --baselines " + baselines());
  EXPECT_EQ(second.exit_code, kPassed);
  EXPECT_EQ(test_named(results(), "Passes").at("metrics").at(0).at("verdict"), "PASS");
  EXPECT_THAT(second.out, ::testing::Not(::testing::HasSubstr("no baseline yet"))) << second.out;
}

TEST_F(BaselinesE2eTest, PromotingTheSameRunTwiceChangesNothing) {
  promote_fixture_baseline();
  const auto before = snapshot();
  const ProcessResult again = promote(latest());
  EXPECT_EQ(again.exit_code, kPassed);
  EXPECT_THAT(again.out, ::testing::HasSubstr("nothing changed")) << again.out;
  EXPECT_EQ(snapshot(), before);
}

TEST_F(BaselinesE2eTest, PromoteTouchesOnlyTheFilteredTests) {
  ASSERT_EQ(run("--filter Passes:AllParameterTypes").exit_code, kPassed);
  ASSERT_EQ(promote(latest(), "--filter AllParameterTypes").exit_code, kPassed);
  const std::string text = read_file(file());
  EXPECT_THAT(text, ::testing::HasSubstr("[tests.AllParameterTypes]")) << text;
  EXPECT_THAT(text, ::testing::Not(::testing::HasSubstr("[tests.Passes]"))) << text;
}

TEST_F(BaselinesE2eTest, PromoteRefusesFailedIncompleteAndDirtyRunsUnlessForced) {
  ASSERT_EQ(run("--filter Passes:FailsAnAssertion").exit_code, kTestFailed);
  const std::string failed_run = fs::read_symlink(latest()).string();
  ProcessResult refused = promote(latest());
  EXPECT_EQ(refused.exit_code, kPromotionRefused);
  EXPECT_THAT(refused.err, ::testing::HasSubstr("test FailsAnAssertion failed")) << refused.err;
  EXPECT_FALSE(file_exists(file()));

  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
  json document = results();
  document["run"]["complete"] = false;
  std::ofstream(latest() + "/results.json") << document.dump();
  json environment = json::parse(read_file(latest() + "/environment.json"));
  environment["git"]["dirty"] = true;
  std::ofstream(latest() + "/environment.json") << environment.dump();
  refused = promote(latest());
  EXPECT_EQ(refused.exit_code, kPromotionRefused);
  EXPECT_THAT(refused.err, ::testing::HasSubstr("incomplete")) << refused.err;
  EXPECT_THAT(refused.err, ::testing::HasSubstr("uncommitted changes")) << refused.err;
  EXPECT_FALSE(file_exists(file()));

  EXPECT_EQ(promote(latest(), "--force").exit_code, kPassed);
  EXPECT_TRUE(file_exists(file()));
  (void)failed_run;
}

TEST_F(BaselinesE2eTest, ARunArgumentThatIsNotARunFolderIsARunFolderError) {
  fs::create_directories(temp_.path() + "/empty");
  std::ofstream(temp_.path() + "/plain_file") << "x";
  fs::create_directories(temp_.path() + "/garbage");
  std::ofstream(temp_.path() + "/garbage/results.json") << "{not json";
  std::ofstream(temp_.path() + "/garbage/environment.json") << "{}";
  for (const std::string& path : {temp_.path() + "/empty", temp_.path() + "/plain_file",
                                  temp_.path() + "/garbage", temp_.path() + "/missing"}) {
    const ProcessResult result = promote(path);
    EXPECT_EQ(result.exit_code, kRunFolderError) << path << ": " << result.err;
    EXPECT_THAT(result.err, ::testing::HasSubstr(path)) << result.err;
    EXPECT_EQ(fixture("compare " + path + " " + path).exit_code, kRunFolderError);
  }
  EXPECT_FALSE(file_exists(baselines()));
}

TEST_F(BaselinesE2eTest, CompareReportsTheSameVerdictsBetweenTwoRunFolders) {
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
  const std::string a = runs() + "/" + fs::read_symlink(latest()).string();
  ASSERT_EQ(run("--filter Passes --set Passes.value=2.5").exit_code, kPassed);
  const std::string b = runs() + "/" + fs::read_symlink(latest()).string();
  const ProcessResult worse = fixture("compare " + a + " " + b);
  EXPECT_EQ(worse.exit_code, kRegression) << worse.out << worse.err;
  EXPECT_THAT(worse.out, ::testing::HasSubstr("REGRESSION")) << worse.out;
  EXPECT_THAT(worse.out, ::testing::HasSubstr("config changed")) << worse.out;
  const ProcessResult better = fixture("compare " + b + " " + a);
  EXPECT_EQ(better.exit_code, kPassed) << better.out;
  EXPECT_THAT(better.out, ::testing::HasSubstr("IMPROVED")) << better.out;
  EXPECT_EQ(fixture("compare " + a + " " + a).exit_code, kPassed);
}

// Exit 1 ("test failed") outranks exit 2 ("regression"), so a test that does both must name both
// where CI looks: the JUnit failure message and the metric verdicts in results.json.
TEST_F(BaselinesE2eTest, ATestThatFailsAndRegressesShowsBothInJunit) {
  ASSERT_EQ(run("--filter FailsAnAssertion").exit_code, kTestFailed);
  ASSERT_EQ(promote(latest(), "--force").exit_code, kPassed);
  replace_in_baseline("value = 2.0", "value = 20.0");  // higher is better: 2 is now far worse
  const ProcessResult both = run("--filter FailsAnAssertion --baselines " + baselines());
  EXPECT_EQ(both.exit_code, kTestFailed) << both.out;
  EXPECT_EQ(verdict_of("FailsAnAssertion", "recorded_before_failure"), "REGRESSION");
  const std::string junit = read_file(latest() + "/junit.xml");
  EXPECT_THAT(junit, ::testing::HasSubstr("planted failure"));
  EXPECT_THAT(junit, ::testing::HasSubstr("; also REGRESSION recorded_before_failure")) << junit;
  EXPECT_TRUE(junit_validates(latest() + "/junit.xml"));
}

// A run killed after some of its tests holds only those: "no regression" would speak for tests
// it never ran.
TEST_F(BaselinesE2eTest, CompareRefusesAnIncompleteRunOnEitherSideUnlessAllowed) {
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
  const std::string complete = runs() + "/" + fs::read_symlink(latest()).string();
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
  const std::string killed = runs() + "/" + fs::read_symlink(latest()).string();
  json document = json::parse(read_file(killed + "/results.json"));
  document["run"]["complete"] = false;  // what a run killed mid-way leaves
  std::ofstream(killed + "/results.json") << document.dump();

  for (const auto& [a, b, side] : {std::tuple{complete, killed, "B"}, {killed, complete, "A"}}) {
    const ProcessResult refused = fixture("compare " + a + " " + b);
    EXPECT_EQ(refused.exit_code, kRunFolderError) << refused.out << refused.err;
    EXPECT_THAT(refused.err, ::testing::HasSubstr(killed + ": run " + side + " is incomplete"))
        << refused.err;
    EXPECT_THAT(refused.out, ::testing::Not(::testing::HasSubstr("no regression")));
  }
  const ProcessResult allowed =
      fixture("compare " + complete + " " + killed + " --allow-incomplete");
  EXPECT_EQ(allowed.exit_code, kPassed) << allowed.out << allowed.err;
  EXPECT_THAT(allowed.out, ::testing::HasSubstr("run B (" + killed + ") is incomplete"));
}

TEST_F(BaselinesE2eTest, BaselinesCheckShowsStaleEntriesAndTestsWithoutBaseline) {
  promote_fixture_baseline();
  std::ofstream(file(), std::ios::app) << "\n[tests.RemovedLongAgo.metrics.loss]\n"
                                          "direction = \"lower_is_better\"\nvalue = 1.0\n";
  const ProcessResult result = fixture("baselines check --baselines " + baselines());
  EXPECT_EQ(result.exit_code, kPassed) << result.err;
  EXPECT_THAT(result.out, ::testing::HasSubstr("stale")) << result.out;
  EXPECT_THAT(result.out, ::testing::HasSubstr("'RemovedLongAgo'")) << result.out;
  EXPECT_THAT(result.out, ::testing::HasSubstr("no-baseline Fast.FailsAnAssertion")) << result.out;
  EXPECT_THAT(result.out, ::testing::Not(::testing::HasSubstr("no-baseline Fast.Passes")))
      << result.out;
}

// kill -9 at any moment of a promotion leaves each baseline file either as it was or as the
// promotion writes it, never torn. The pause hook holds the promotion open between files.
TEST_F(BaselinesE2eTest, KillNineDuringPromotionLeavesOldOrNewFileNeverATornOne) {
  promote_fixture_baseline();
  const std::string old_text = read_file(file());
  ASSERT_EQ(run("--filter Passes:AllParameterTypes --set Passes.value=1.25").exit_code, kPassed);
  const std::string candidate = runs() + "/" + fs::read_symlink(latest()).string();

  // What the promotion writes when it is not interrupted, computed in a copy.
  const std::string copy = temp_.path() + "/copy";
  fs::copy(baselines(), copy, fs::copy_options::recursive);
  ASSERT_EQ(fixture("promote " + candidate + " --baselines " + copy + " --reason e2e").exit_code,
            kPassed);
  const std::string new_text = read_file(copy + "/mlregress_fixture_suite/fixture_suite.toml");
  ASSERT_NE(old_text, new_text);

  // Promotion times differ between the two promotions; everything else must match exactly.
  const auto without_times = [](const std::string& text) {
    return std::regex_replace(text, std::regex(R"re((promoted_at|replaced_at) = "[^"]*")re"),
                              "$1 = T");
  };
  std::mt19937 rng(12345);
  int saw_old = 0, saw_new = 0;
  for (int attempt = 0; attempt < 12; ++attempt) {
    std::ofstream(file(), std::ios::binary) << old_text;
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::setenv("MLREGRESS_TEST_PROMOTE_PAUSE_MS", "60", 1);
      const std::string b = baselines();
      ::execl(MLREGRESS_FIXTURE_BINARY, MLREGRESS_FIXTURE_BINARY, "promote", candidate.c_str(),
              "--baselines", b.c_str(), "--reason", "e2e", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    std::this_thread::sleep_for(
        std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 140)(rng)));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    const std::string now = read_file(file());
    ASSERT_TRUE(now == old_text || without_times(now) == without_times(new_text))
        << "torn file after kill -9:\n"
        << now;
    (now == old_text ? saw_old : saw_new)++;
    // Whatever a kill leaves is hidden and not a .toml: neither `git add` of the visible files
    // nor the loader picks it up.
    for (const auto& entry : fs::directory_iterator(baselines() + "/mlregress_fixture_suite")) {
      const std::string name = entry.path().filename().string();
      EXPECT_TRUE(name == "fixture_suite.toml" ||
                  (name[0] == '.' && entry.path().extension() != ".toml"))
          << name;
    }
    EXPECT_NE(run("--filter Passes --baselines " + baselines()).exit_code, kBaselineError);
  }
  // The next promotion clears what killed ones left.
  ASSERT_EQ(promote(candidate).exit_code, kPassed);
  std::set<std::string> left;
  for (const auto& entry : fs::directory_iterator(baselines() + "/mlregress_fixture_suite")) {
    left.insert(entry.path().filename().string());
  }
  EXPECT_EQ(left, std::set<std::string>{"fixture_suite.toml"});
  EXPECT_GT(saw_old, 0) << "no kill landed before the rename; the test did not test anything";
  RecordProperty("kills_before_rename", saw_old);
  RecordProperty("kills_after_rename", saw_new);
}

TEST_F(BaselinesE2eTest, ConcurrentPromotionsDoNotInterleave) {
  promote_fixture_baseline();  // version 1
  ASSERT_EQ(run("--filter Passes --set Passes.value=1.25").exit_code, kPassed);
  const std::string first = runs() + "/" + fs::read_symlink(latest()).string();
  // AllParameterTypes asserts its defaults, so this run fails; --force promotes it anyway.
  ASSERT_EQ(run("--filter AllParameterTypes --set AllParameterTypes.count=7").exit_code,
            kTestFailed);
  const std::string second = runs() + "/" + fs::read_symlink(latest()).string();
  // Both at once, each pausing while it holds the lock. Serialised, the second plans against the
  // first's result: version 3 with both changes. Interleaved, one change would be lost.
  const std::string promote = "MLREGRESS_TEST_PROMOTE_PAUSE_MS=200 " +
                              std::string(MLREGRESS_FIXTURE_BINARY) + " promote {} --baselines " +
                              baselines() + " --reason e2e --force";
  run_command(std::regex_replace(promote, std::regex("\\{\\}"), first) + " & " +
              std::regex_replace(promote, std::regex("\\{\\}"), second) + "; wait");
  const std::string text = read_file(file());
  EXPECT_THAT(text, ::testing::HasSubstr("version = 3")) << text;
  EXPECT_THAT(text, ::testing::HasSubstr("value = 1.25")) << "the first promotion was lost:\n"
                                                          << text;
  EXPECT_TRUE(std::regex_search(text, std::regex(R"re(scope = "portable"\nvalue = 7\.0\n)re")))
      << "the second promotion was lost:\n"
      << text;
}

}  // namespace
}  // namespace mlregress::e2e
