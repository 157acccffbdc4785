// bisect's record (bisect.json) and its report, end to end in generated git repositories of
// N = 16 and N = 100 commits whose loss.txt steps from 1.0 to 1.2 at a planted culprit (first,
// middle and last commit after GOOD). The bisect fixture's test records the checked-out
// commit's loss; the --build command counts itself in a file outside the repository, so the
// builds the record claims are checked against the builds that ran.
//
// Measured: bisect names the culprit with at most ⌈log₂ N⌉ + 2 commits measured, GOOD and BAD
// included. A linear scan would measure up to N (a planted record of one shows the bound check
// fails on it), and skipped commits cost a build each (a planted run of un-buildable commits
// shows the record counts them).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "process.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace mlregress::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr int kBisectFailed = 10, kRunFolderError = 7;

// ⌈log₂ N⌉ + 2, computed here independently of mlregress.
int commit_bound(int commits) { return static_cast<int>(std::ceil(std::log2(commits))) + 2; }

// The bound as a check: the record names `culprit` and measured at most ⌈log₂ N⌉ + 2 commits.
::testing::AssertionResult found_within_bound(const nlohmann::json& record,
                                              const std::string& culprit) {
  const int commits = record.at("commits").get<int>();
  const std::size_t tried = record.at("tried").size();
  if (record.at("culprit").is_null() || record.at("culprit").at("commit") != culprit) {
    return ::testing::AssertionFailure()
           << "culprit " << record.at("culprit").dump() << ", expected " << culprit;
  }
  if (static_cast<int>(tried) > commit_bound(commits)) {
    return ::testing::AssertionFailure()
           << tried << " commits measured for " << commits
           << " commits, more than ⌈log₂ N⌉ + 2 = " << commit_bound(commits);
  }
  return ::testing::AssertionSuccess();
}

class BisectCulpritE2eTest : public ::testing::Test {
 protected:
  // A repository of `n` commits ("commit 0" … "commit n-1"); loss.txt is 1.2 from commit
  // `culprit` on, 1.0 before; the commits in `broken` do not build.
  void make_repository(int n, int culprit, const std::set<int>& broken = {}) {
    std::string broken_list = " ";
    for (int b : broken) broken_list += std::to_string(b) + " ";
    const ProcessResult made = run_command(
        "set -e; mkdir " + repo() + " && cd " + repo() + " && git init -q -b main . && " +
        "for i in $(seq 0 " + std::to_string(n - 1) + "); do " + "if [ $i -ge " +
        std::to_string(culprit) + " ]; then echo 1.2 > loss.txt; else echo 1.0 > loss.txt; fi; " +
        "case '" + broken_list + "' in *\" $i \"*) touch broken;; *) rm -f broken;; esac; " +
        "git add -A; subject=\"commit $i\"; [ $i -eq " + std::to_string(culprit) +
        " ] && subject=\"commit $i: loss 20% higher\"; " +
        "git -c user.email=ci@example.com -c user.name=ci commit -q --allow-empty -m \"$subject\"; "
        "done");
    ASSERT_EQ(made.exit_code, 0) << made.err;
    const ProcessResult list = run_command("git -C " + repo() + " rev-list --reverse HEAD");
    std::istringstream in(list.out);
    for (std::string id; std::getline(in, id);) commits_.push_back(id);
    ASSERT_EQ(static_cast<int>(commits_.size()), n);
  }
  std::string repo() const { return temp_.path() + "/repo"; }
  std::string out() const { return temp_.path() + "/bisect-runs"; }
  std::string counter() const { return temp_.path() + "/builds.txt"; }
  std::string folder() const {
    return out() + "/" + commits_.front().substr(0, 12) + ".." + commits_.back().substr(0, 12);
  }
  // The builds that ran: one line each in the counter.
  int builds_counted() const {
    if (!test_support::file_exists(counter())) return 0;
    const std::string text = test_support::read_file(counter());
    return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  }
  // bisect GOOD (the first commit) .. BAD (the last) on the fixture's LossAtCommit.
  ProcessResult bisect(const std::string& extra = "--no-rebuild") {
    const std::string fixture = MLREGRESS_BISECT_FIXTURE_BINARY;
    return run_command("cd " + repo() + " && BISECT_FIXTURE_LOSS_FILE=" + repo() + "/loss.txt " +
                       fixture + " bisect " + commits_.front() + " " + commits_.back() +
                       " --test LossAtCommit --metric loss --binary " + fixture +
                       " --build 'echo built >> " + counter() + " && test ! -e broken' --out " +
                       out() + " " + extra);
  }
  nlohmann::json record() const {
    return nlohmann::json::parse(test_support::read_file(folder() + "/bisect.json"));
  }
  // Bisects a fresh repository of `n` commits with the culprit at `culprit` and checks the
  // record against what happened.
  void expect_culprit_found(int n, int culprit) {
    ASSERT_NO_FATAL_FAILURE(make_repository(n, culprit));
    const ProcessResult result = bisect();
    ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
    EXPECT_THAT(result.out, HasSubstr("first bad commit: " + commits_[culprit]));
    const nlohmann::json r = record();
    EXPECT_TRUE(found_within_bound(r, commits_[culprit])) << result.out;
    EXPECT_EQ(r.at("culprit").at("subject"),
              "commit " + std::to_string(culprit) + ": loss 20% higher");
    EXPECT_EQ(r.at("commits"), n);
    // Every build that ran is in the record, and nothing else: none was cached.
    EXPECT_EQ(r.at("builds"), builds_counted());
    EXPECT_EQ(r.at("builds"), r.at("tried").size());
    // GOOD first, then BAD, then the steps git picked, each once, each answered by its loss.
    const nlohmann::json& tried = r.at("tried");
    ASSERT_GE(tried.size(), 2u);
    EXPECT_EQ(tried[0].at("commit"), commits_.front());
    EXPECT_EQ(tried[0].at("role"), "good");
    EXPECT_EQ(tried[1].at("commit"), commits_.back());
    EXPECT_EQ(tried[1].at("role"), "bad");
    EXPECT_EQ(tried[1].at("verdict"), "REGRESSION");
    std::set<std::string> seen;
    for (const nlohmann::json& t : tried) {
      EXPECT_TRUE(seen.insert(t.at("commit").get<std::string>()).second) << t.dump();
      const auto at = std::find(commits_.begin(), commits_.end(), t.at("commit"));
      ASSERT_NE(at, commits_.end()) << t.dump();
      const bool regressed = at - commits_.begin() >= culprit;
      EXPECT_EQ(t.at("answer"), regressed ? "bad" : "good") << t.dump();
      EXPECT_EQ(t.at("value"), regressed ? 1.2 : 1.0) << t.dump();
      EXPECT_TRUE(t.at("built").get<bool>());
      ASSERT_TRUE(t.at("run").is_string()) << t.dump();
      EXPECT_TRUE(test_support::file_exists(folder() + "/" + t.at("run").get<std::string>() +
                                            "/results.json"))
          << t.dump();
    }
    std::printf("N = %d, culprit at %d: %zu commits measured (bound %d)\n", n, culprit,
                tried.size(), commit_bound(n));
  }

  test_support::TempDir temp_;
  std::vector<std::string> commits_;
};

TEST_F(BisectCulpritE2eTest, SixteenCommitsCulpritRightAfterGood) { expect_culprit_found(16, 1); }
TEST_F(BisectCulpritE2eTest, SixteenCommitsCulpritInTheMiddle) { expect_culprit_found(16, 8); }
TEST_F(BisectCulpritE2eTest, SixteenCommitsCulpritIsBad) { expect_culprit_found(16, 15); }
TEST_F(BisectCulpritE2eTest, HundredCommitsCulpritRightAfterGood) { expect_culprit_found(100, 1); }
TEST_F(BisectCulpritE2eTest, HundredCommitsCulpritInTheMiddle) { expect_culprit_found(100, 50); }
TEST_F(BisectCulpritE2eTest, HundredCommitsCulpritIsBad) { expect_culprit_found(100, 99); }

// The bound check fails on what a linear scan would record: every commit measured in turn.
TEST_F(BisectCulpritE2eTest, TheBoundCheckFailsOnALinearScan) {
  nlohmann::json scan = {{"commits", 16}, {"culprit", {{"commit", "c9"}}}, {"tried", {}}};
  for (int i = 0; i <= 9; ++i) scan["tried"].push_back({{"commit", "c" + std::to_string(i)}});
  EXPECT_FALSE(found_within_bound(scan, "c9"));  // 10 > ⌈log₂ 16⌉ + 2 = 6
  scan["tried"] = nlohmann::json::array({{{"commit", "c0"}}, {{"commit", "c15"}}});
  EXPECT_TRUE(found_within_bound(scan, "c9"));
  EXPECT_FALSE(found_within_bound(scan, "c8"));  // a wrong culprit fails too
}

// Commits that do not build say nothing: each is a build, recorded as a skip, and counted. Only
// GOOD, BAD, the culprit (8) and its parent (7) build, so whichever commit git picks first (7 or
// 8: it may take either middle of an even range), its next pick is a broken one, and the culprit
// can still be named once both 7 and 8 are measured.
TEST_F(BisectCulpritE2eTest, SkippedCommitsAreMeasuredAndCounted) {
  ASSERT_NO_FATAL_FAILURE(make_repository(16, 8, {1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14}));
  const ProcessResult result = bisect();
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  const nlohmann::json r = record();
  EXPECT_EQ(r.at("culprit").at("commit"), commits_[8]);
  int skips = 0;
  for (const nlohmann::json& t : r.at("tried")) {
    if (t.at("answer") != "skip") continue;
    ++skips;
    EXPECT_THAT(t.at("reason").get<std::string>(), HasSubstr("the build failed"));
    EXPECT_TRUE(t.at("run").is_null()) << t.dump();
  }
  EXPECT_GE(skips, 1) << r.dump(2);
  std::printf(
      "N = 16, culprit at 8, all but 0, 7, 8, 15 broken: %zu commits measured, %d skipped\n",
      r.at("tried").size(), skips);
  EXPECT_EQ(r.at("builds"), builds_counted());
  EXPECT_EQ(r.at("builds"), r.at("tried").size());
}

// The same bisect again measures nothing: every outcome is cached, and the record says so.
TEST_F(BisectCulpritE2eTest, ASecondBisectBuildsNothingAndSaysItWasCached) {
  ASSERT_NO_FATAL_FAILURE(make_repository(16, 8));
  ASSERT_EQ(bisect().exit_code, 0);
  const int first = builds_counted();
  const ProcessResult again = bisect();
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_EQ(builds_counted(), first);
  const nlohmann::json r = record();
  EXPECT_EQ(r.at("builds"), 0);
  EXPECT_EQ(static_cast<int>(r.at("tried").size()), first);
  for (const nlohmann::json& t : r.at("tried")) EXPECT_FALSE(t.at("built").get<bool>());
  EXPECT_THAT(again.out, HasSubstr("0 builds for 16 commits"));
}

// Without --no-rebuild the starting point is built once more afterwards: a build the record does
// not count as a measurement, and the console says so.
TEST_F(BisectCulpritE2eTest, TheRebuildOfTheStartIsOneMoreBuildOutsideTheRecord) {
  ASSERT_NO_FATAL_FAILURE(make_repository(16, 8));
  const ProcessResult result = bisect("");
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_EQ(builds_counted(), record().at("builds").get<int>() + 1);
  EXPECT_THAT(result.out, HasSubstr("(+1 to rebuild main)"));
}

// report renders the record: the culprit at the top, a row per commit tried, in HTML and
// Markdown; the bisect wrote the same page into its folder.
TEST_F(BisectCulpritE2eTest, ReportNamesTheCulpritAndTheCommitsTried) {
  ASSERT_NO_FATAL_FAILURE(make_repository(16, 8));
  ASSERT_EQ(bisect().exit_code, 0);
  const nlohmann::json r = record();
  const std::string fixture = MLREGRESS_BISECT_FIXTURE_BINARY;
  const ProcessResult html =
      run_command(fixture + " report " + folder() + " --out " + temp_.path() + "/bisect.html");
  ASSERT_EQ(html.exit_code, 0) << html.out << html.err;
  EXPECT_THAT(html.out, HasSubstr("culprit " + commits_[8].substr(0, 12)));
  const std::string page = test_support::read_file(temp_.path() + "/bisect.html");
  const std::string header = page.substr(0, page.find("</header>"));
  EXPECT_THAT(header, HasSubstr("Culprit: <code>" + commits_[8].substr(0, 12) +
                                "</code> commit 8: loss 20% higher"));
  EXPECT_THAT(header, HasSubstr(commits_[8]));
  EXPECT_THAT(page, HasSubstr("id=\"culprit\" class=\"differs\" data-commit=\"" + commits_[8]));
  std::size_t rows = 0;
  for (std::size_t at = page.find("<tr "); at != std::string::npos; at = page.find("<tr ", at + 1))
    ++rows;
  EXPECT_EQ(rows, r.at("tried").size());
  // The run folders link from where the page is: bisect.html is beside bisect-runs/.
  const std::string run = r.at("tried")[0].at("run");
  EXPECT_THAT(page, HasSubstr("href=\"bisect-runs/" + folder().substr(out().size() + 1) + "/" +
                              run + "/report.html\""));
  EXPECT_EQ(test_support::read_file(folder() + "/report.html")
                .find("Culprit: <code>" + commits_[8].substr(0, 12)),
            page.find("Culprit: <code>" + commits_[8].substr(0, 12)))
      << "the bisect's own report.html names another culprit";

  const ProcessResult markdown =
      run_command(fixture + " report " + folder() + " --format markdown");
  ASSERT_EQ(markdown.exit_code, 0) << markdown.err;
  EXPECT_THAT(markdown.out,
              HasSubstr("culprit `" + commits_[8].substr(0, 12) + "` commit 8: loss 20% higher"));
  EXPECT_THAT(markdown.out, HasSubstr("`" + commits_[8].substr(0, 12) + "` **culprit**"));
}

// A bisect that names no culprit still leaves its record, saying why.
TEST_F(BisectCulpritE2eTest, ARangeWithoutARegressionIsRecordedWithItsReason) {
  ASSERT_NO_FATAL_FAILURE(make_repository(16, 16));  // the loss never changes
  const ProcessResult result = bisect();
  EXPECT_EQ(result.exit_code, kBisectFailed) << result.out << result.err;
  const nlohmann::json r = record();
  EXPECT_TRUE(r.at("culprit").is_null());
  EXPECT_THAT(r.at("error").get<std::string>(), HasSubstr("is no regression against GOOD"));
  EXPECT_EQ(r.at("tried").size(), 2u);
  const std::string fixture = MLREGRESS_BISECT_FIXTURE_BINARY;
  const ProcessResult html =
      run_command(fixture + " report " + folder() + " --out " + temp_.path() + "/bisect.html");
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_THAT(test_support::read_file(temp_.path() + "/bisect.html"),
              HasSubstr("No culprit named"));
}

// A damaged record: report names the file and the line, exits run_folder_error, writes nothing.
TEST_F(BisectCulpritE2eTest, ADamagedRecordIsNamedWithItsLine) {
  ASSERT_NO_FATAL_FAILURE(make_repository(16, 8));
  ASSERT_EQ(bisect().exit_code, 0);
  const std::string fixture = MLREGRESS_BISECT_FIXTURE_BINARY;
  const std::string text = test_support::read_file(folder() + "/bisect.json");
  // Cut in the middle of the tried list: not valid JSON.
  std::ofstream(folder() + "/bisect.json", std::ios::trunc) << text.substr(0, text.size() / 2);
  const ProcessResult cut =
      run_command(fixture + " report " + folder() + " --out " + temp_.path() + "/bisect.html");
  EXPECT_EQ(cut.exit_code, kRunFolderError) << cut.out << cut.err;
  EXPECT_THAT(cut.err, HasSubstr(folder() + "/bisect.json"));
  EXPECT_THAT(cut.err, HasSubstr("line "));
  EXPECT_FALSE(test_support::file_exists(temp_.path() + "/bisect.html"));

  // Valid JSON with a field of the wrong kind: named by its path.
  std::string wrong_answer = text;
  const std::string good_answer = "\"answer\": \"good\"";
  ASSERT_NE(wrong_answer.find(good_answer), std::string::npos) << text;
  wrong_answer.replace(wrong_answer.find(good_answer), good_answer.size(), "\"answer\": \"maybe\"");
  std::ofstream(folder() + "/bisect.json", std::ios::trunc) << wrong_answer;
  const ProcessResult wrong = run_command(fixture + " report " + folder() + " --format markdown");
  EXPECT_EQ(wrong.exit_code, kRunFolderError) << wrong.out << wrong.err;
  EXPECT_THAT(wrong.err,
              HasSubstr("tried[0].answer: expected one of good, bad, skip, got \"maybe\""));
  EXPECT_THAT(wrong.out, Not(HasSubstr("culprit")));
}

}  // namespace
}  // namespace mlregress::e2e
