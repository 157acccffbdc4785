// bisect's failures that are not a regression, end to end in a small generated git repository
// (the fixture binary as the test binary). Each is planted and must end with its named exit
// code, never 70 (internal error, "a bug in mlregress"): a --build that fails at GOOD and a
// --binary the build does not make (bisect_failed: GOOD cannot be measured), a --binary that
// exists but cannot be started (bisect_failed, where the exec failure used to escape as an
// internal error), and an --out folder that cannot be made (output_error). The whole bisect over
// a real series is bisect_and_history_in_a_generated_repo.sh.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <string>

#include "fixture_runner.h"
#include "process.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace mlregress::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr int kBisectFailed = 10, kInternalError = 70;

class BisectE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ProcessResult made = run_command(
        "mkdir " + repo() + " && cd " + repo() + " && git init -q -b main . && " + git() +
        " commit -q --allow-empty -m good" + " && " + git() + " commit -q --allow-empty -m bad");
    ASSERT_EQ(made.exit_code, 0) << made.err;
  }
  std::string repo() const { return temp_.path() + "/repo"; }
  std::string git() const { return "git -c user.email=ci@example.com -c user.name=ci"; }
  // bisect HEAD~1 (GOOD) .. HEAD (BAD) on the fixture's Passes test.
  ProcessResult bisect(const std::string& build, const std::string& args) {
    return run_command("cd " + repo() + " && " + std::string(MLREGRESS_FIXTURE_BINARY) +
                       " bisect HEAD~1 HEAD --test Passes --no-rebuild --build '" + build + "' " +
                       args);
  }
  std::string out() const { return "--out " + temp_.path() + "/bisect-runs"; }
  // The repository is left on its branch, whatever failed.
  void expect_repository_restored() {
    const ProcessResult branch = run_command("git -C " + repo() + " symbolic-ref --short HEAD");
    EXPECT_EQ(branch.out, "main\n");
  }

  test_support::TempDir temp_;
};

TEST_F(BisectE2eTest, ABuildThatFailsAtGoodIsBisectFailed) {
  const ProcessResult result =
      bisect("exit 1", "--binary " + std::string(MLREGRESS_FIXTURE_BINARY) + " " + out());
  EXPECT_EQ(result.exit_code, kBisectFailed) << result.out << result.err;
  EXPECT_THAT(result.err, HasSubstr("cannot be measured: the build failed")) << result.err;
  expect_repository_restored();
}

TEST_F(BisectE2eTest, ABinaryTheBuildDoesNotMakeIsBisectFailed) {
  const ProcessResult result = bisect("true", "--binary " + repo() + "/no-such-binary " + out());
  EXPECT_EQ(result.exit_code, kBisectFailed) << result.out << result.err;
  EXPECT_THAT(result.err, HasSubstr("the build made no test binary")) << result.err;
  EXPECT_THAT(result.err, HasSubstr(repo() + "/no-such-binary")) << result.err;
  expect_repository_restored();
}

// An executable file exec refuses (no #! line, no machine code): starting it used to throw out
// of bisect as an internal error.
TEST_F(BisectE2eTest, ABinaryThatCannotBeStartedIsBisectFailedNotAnInternalError) {
  const std::string binary = temp_.path() + "/garbage-binary";
  std::ofstream(binary) << "\x01\x02\x03 not a program\n";
  ASSERT_EQ(::chmod(binary.c_str(), 0755), 0);
  const ProcessResult result = bisect("true", "--binary " + binary + " " + out());
  EXPECT_NE(result.exit_code, kInternalError) << result.err;
  EXPECT_EQ(result.exit_code, kBisectFailed) << result.out << result.err;
  EXPECT_THAT(result.err, HasSubstr("the test binary cannot be started")) << result.err;
  expect_repository_restored();
}

// --out under a regular file: the bisect's folder cannot be made (it threw
// std::filesystem::filesystem_error, an internal error).
TEST_F(BisectE2eTest, AnOutFolderThatCannotBeMadeIsAnOutputError) {
  std::ofstream(temp_.path() + "/a-file") << "x\n";
  const ProcessResult result = bisect("true", "--binary " + std::string(MLREGRESS_FIXTURE_BINARY) +
                                                  " --out " + temp_.path() + "/a-file/runs");
  EXPECT_NE(result.exit_code, kInternalError) << result.err;
  EXPECT_EQ(result.exit_code, kOutputError) << result.out << result.err;
  EXPECT_THAT(result.err, HasSubstr(temp_.path() + "/a-file/runs")) << result.err;
  EXPECT_THAT(result.err, Not(HasSubstr("internal error"))) << result.err;
}

}  // namespace
}  // namespace mlregress::e2e
