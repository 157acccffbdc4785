// run --determinism end to end: the run's mode reaches every test that declares none, a test's own
// "determinism" parameter overrides it for that test only (the next test of the process sees the
// run's again), results.json and the tests' properties say which mode ran, and a bad mode on the
// command line or in --set stops the run with exit 4 before anything runs.
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
using ::testing::HasSubstr;

class DeterminismE2eTest : public FixtureRunnerTest {
 protected:
  ProcessResult run_determinism(const std::string& args) {
    return run_fixture_in(temp_.path(), MLREGRESS_DETERMINISM_FIXTURE_BINARY,
                          "run --color never --out " + runs() + " " + args);
  }
  // The test's result in results.json by its name.
  static const json& test_named(const json& results, const std::string& name) {
    for (const json& test : results.at("tests")) {
      if (test.at("name") == name) return test;
    }
    ADD_FAILURE() << "no test " << name << " in " << results.dump();
    static const json none = json::object();
    return none;
  }
  static std::string property(const json& test, const std::string& key) {
    if (!test.contains("properties") || !test.at("properties").contains(key)) return "(none)";
    return test.at("properties").at(key).get<std::string>();
  }
};

TEST_F(DeterminismE2eTest, TheDefaultIsWarnAndATestsOwnModeStaysWithIt) {
  const ProcessResult r = run_determinism("");
  ASSERT_EQ(r.exit_code, kPassed) << r.out << r.err;
  const json results = this->results();
  EXPECT_EQ(results.at("run").at("determinism"), "warn");
  const json& strict = test_named(results, "DeclaresStrict");
  EXPECT_EQ(property(strict, "mode_seen"), "strict");
  EXPECT_EQ(property(strict, "determinism"), "strict");
  // Ran after the strict test in the same process: the run's mode again, not the strict one.
  const json& follows = test_named(results, "FollowsTheRun");
  EXPECT_EQ(property(follows, "mode_seen"), "warn");
  EXPECT_EQ(property(follows, "determinism"), "(none)");  // the default is no property
}

TEST_F(DeterminismE2eTest, TheRunsModeReachesTheTestsAndIsRecorded) {
  for (const std::string mode : {"off", "strict"}) {
    const ProcessResult r = run_determinism("--determinism " + mode);
    ASSERT_EQ(r.exit_code, kPassed) << r.out << r.err;
    const json results = this->results();
    EXPECT_EQ(results.at("run").at("determinism"), mode);
    const json& follows = test_named(results, "FollowsTheRun");
    EXPECT_EQ(property(follows, "mode_seen"), mode);
    EXPECT_EQ(property(follows, "determinism"), mode);
    EXPECT_EQ(property(test_named(results, "DeclaresStrict"), "mode_seen"), "strict");
    const json environment = json::parse(test_support::read_file(latest() + "/environment.json"));
    EXPECT_EQ(environment.at("run").at("determinism"), mode);
  }
}

TEST_F(DeterminismE2eTest, SetChangesOneTestsMode) {
  const ProcessResult r = run_determinism("--set DeclaresStrict.determinism=off");
  ASSERT_EQ(r.exit_code, kPassed) << r.out << r.err;
  EXPECT_EQ(property(test_named(results(), "DeclaresStrict"), "mode_seen"), "off");
}

TEST_F(DeterminismE2eTest, ABadModeIsAUsageErrorAndRunsNothing) {
  const ProcessResult flag = run_determinism("--determinism sometimes");
  EXPECT_EQ(flag.exit_code, kUsageError) << flag.out << flag.err;
  EXPECT_THAT(flag.out + flag.err,
              HasSubstr("--determinism is off, warn or strict, not 'sometimes'"));
  const ProcessResult set = run_determinism("--set DeclaresStrict.determinism=maybe");
  EXPECT_EQ(set.exit_code, kUsageError) << set.out << set.err;
  EXPECT_THAT(set.err, HasSubstr("Fast.DeclaresStrict: its parameter 'determinism'"));
  EXPECT_THAT(set.err, HasSubstr("not 'maybe'"));
  EXPECT_FALSE(std::filesystem::exists(latest()));
}

}  // namespace
}  // namespace mlregress::e2e
