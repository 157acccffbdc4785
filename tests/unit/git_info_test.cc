// The git state a run records: the commit, and whether the tree holds code the commit does not.
// Planted, and caught here: an untracked test source beside the committed ones (recorded as a
// clean tree at a commit that does not hold it, and so promotable, before); and what must not
// count: an untracked file outside the sources' folder, an ignored one inside it, and run folders
// under the run's output folder.
#include "environment/git_info.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "baselines/promotion.h"
#include "support/errors.h"
#include "tests/support/temp_dir.h"

namespace mlregress::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

void write(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

// A work tree with one committed test source, suites/fast/a_test.cc, and a .gitignore.
class GitInfoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write(repo() + "/suites/fast/a_test.cc", "// a test\n");
    write(repo() + "/.gitignore", "*.o\n");
    const std::string git = "git -C '" + repo() + "' ";
    ASSERT_EQ(std::system((git + "init -q && " + git + "add -A && " + git +
                           "-c user.name=t -c user.email=t@t commit -qm first")
                              .c_str()),
              0);
  }
  std::string repo() const { return temp_.path() + "/repo"; }
  std::string sources() const { return repo() + "/suites"; }
  test_support::TempDir temp_;
};

TEST_F(GitInfoTest, ACleanTreeIsClean) {
  const GitInfo git = probe_git(repo(), sources(), repo() + "/runs");
  EXPECT_EQ(git.commit.size(), 40u);
  EXPECT_FALSE(git.dirty);
  EXPECT_TRUE(git.untracked.empty());
}

TEST_F(GitInfoTest, AnUntrackedTestSourceMakesTheTreeDirtyAndIsNamed) {
  write(repo() + "/suites/fast/new_test.cc", "// not added yet\n");
  write(repo() + "/suites/common/helper.h", "// beside the tests\n");
  const GitInfo git = probe_git(repo(), sources(), repo() + "/runs");
  EXPECT_TRUE(git.dirty);
  EXPECT_EQ(git.untracked_count, 2u);
  EXPECT_THAT(git.untracked, ElementsAre("suites/common/helper.h", "suites/fast/new_test.cc"));

  // Recorded in environment.json's git part, read back, and promote refuses the run by name.
  const nlohmann::json environment = {{"git",
                                       {{"commit", git.commit},
                                        {"dirty", git.dirty},
                                        {"untracked", git.untracked},
                                        {"untracked_count", git.untracked_count}}}};
  const GitInfo recorded = recorded_git(environment);
  EXPECT_TRUE(recorded.dirty);
  EXPECT_EQ(recorded.untracked, git.untracked);
  RunRecord run;
  run.run.info.run_id = "r1";
  run.run.info.environment = environment;
  try {
    refuse_unpromotable(run, /*force=*/false, "promote", /*needs_every_seed=*/false);
    ADD_FAILURE() << "promote accepted a run with an untracked test source";
  } catch (const PromotionRefused& refused) {
    EXPECT_THAT(refused.what(), HasSubstr("2 untracked files among the test sources"));
    EXPECT_THAT(refused.what(), HasSubstr("suites/fast/new_test.cc"));
  }
  EXPECT_NO_THROW(refuse_unpromotable(run, /*force=*/true, "promote", false));
}

TEST_F(GitInfoTest, UntrackedFilesOutsideTheSourcesIgnoredOnesAndRunFoldersDoNotCount) {
  write(repo() + "/notes.txt", "outside the sources' folder\n");
  write(repo() + "/suites/fast/a_test.o", "ignored by .gitignore\n");
  write(repo() + "/suites/runs/20261205T000000Z/results.json", "{}\n");
  const GitInfo git = probe_git(repo(), sources(), repo() + "/suites/runs");
  EXPECT_FALSE(git.dirty) << ::testing::PrintToString(git.untracked);
  EXPECT_EQ(git.untracked_count, 0u);
  // Without a sources' folder (a caller that does not ask), untracked files are not looked at.
  write(repo() + "/suites/fast/new_test.cc", "// not added yet\n");
  EXPECT_FALSE(probe_git(repo()).dirty);
}

TEST(SourcesFolder, IsTheDeepestFolderHoldingEverySource) {
  EXPECT_EQ(sources_folder({"/w/suites/fast/a_test.cc", "/w/suites/medium/b_test.cc",
                            "/w/suites/fast/c_test.cc"}),
            "/w/suites");
  EXPECT_EQ(sources_folder({"/w/tests/ml/a_test.cc"}), "/w/tests/ml");
  EXPECT_EQ(sources_folder({"relative/a_test.cc"}), "");
  EXPECT_EQ(sources_folder({}), "");
}

}  // namespace
}  // namespace mlregress::internal
