// history end to end: runs of several commits of a small generated git repository become one
// series per (test, metric, profile) with one point per commit, in commit order (git's, when
// the repository is given; else the runs' order), seeded samples pooled per commit, shards and
// incomplete runs left out.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "process.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace mlregress::e2e {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

class HistoryE2eTest : public ::testing::Test {
 protected:
  std::string repo() const { return temp_.path() + "/repo"; }
  std::string runs() const { return temp_.path() + "/runs"; }
  void git(const std::string& args, const std::string& date = "2026-01-01T00:00:00") {
    const ProcessResult r =
        run_command("cd " + repo() + " && GIT_COMMITTER_DATE=" + date + " GIT_AUTHOR_DATE=" + date +
                    " git -c user.email=e@x -c user.name=e " + args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  ProcessResult binary(const char* path, const std::string& args) {
    return run_command("cd " + temp_.path() + " && MLREGRESS_REPO=" + repo() + " " + path + " " +
                       args);
  }
  json history(const std::string& args) {
    const ProcessResult r = binary(MLREGRESS_FIXTURE_BINARY, "history " + args + " --format json");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out);
  }
  void SetUp() override {
    std::filesystem::create_directories(repo());
    ASSERT_EQ(run_command("git init -q " + repo()).exit_code, 0);
  }
  test_support::TempDir temp_;
};

TEST_F(HistoryE2eTest, OnePointPerCommitInGitsOrder) {
  // Commit "late" is made first (and run first) but dated after commit "early".
  git("commit -q --allow-empty -m late", "2030-01-01T00:00:00");
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(binary(MLREGRESS_FIXTURE_BINARY,
                     "run --filter Passes --set Passes.value=9 --out " + runs() + " --color never")
                  .exit_code,
              0);
  }
  git("commit -q --allow-empty -m early", "2020-01-01T00:00:00");
  ASSERT_EQ(binary(MLREGRESS_FIXTURE_BINARY,
                   "run --filter Passes --set Passes.value=1 --out " + runs() + " --color never")
                .exit_code,
            0);
  // A shard and a filtered-out test do not count.
  ASSERT_EQ(binary(MLREGRESS_FIXTURE_BINARY, "run --filter Passes --shard 0/1 --out " +
                                                 temp_.path() + "/runs/shard --color never")
                .exit_code,
            0);

  const json by_git = history(runs() + " --metric value --repo " + repo());
  ASSERT_EQ(by_git.at("series").size(), 1u);
  const json& points = by_git.at("series")[0].at("points");
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].at("value"), 1.0);  // the 2020 commit first
  EXPECT_EQ(points[1].at("value"), 9.0);
  EXPECT_EQ(points[1].at("n"), 2);  // both runs of that commit
  EXPECT_EQ(by_git.at("runs"), 3);  // the shard is left out

  // Without a repository that knows the commits: the order of their first runs.
  const ProcessResult no_repo = run_command("cd / && " + std::string(MLREGRESS_FIXTURE_BINARY) +
                                            " history " + runs() + " --metric value --format json");
  ASSERT_EQ(no_repo.exit_code, 0) << no_repo.err;
  const json by_time = json::parse(no_repo.out).at("series")[0].at("points");
  EXPECT_EQ(by_time[0].at("value"), 9.0);

  const ProcessResult text =
      binary(MLREGRESS_FIXTURE_BINARY, "history " + runs() + " --repo " + repo());
  EXPECT_THAT(text.out, HasSubstr("Fast.Passes  value"));
  EXPECT_THAT(text.out, HasSubstr("history: 1 series from 3 runs"));
}

TEST_F(HistoryE2eTest, AStepAcrossCommitsIsAChangePointAtItsCommit) {
  // Eight commits, a day apart; from the fifth on, the value (lower is better) doubles.
  std::string fifth;
  for (int i = 0; i < 8; ++i) {
    git("commit -q --allow-empty -m c" + std::to_string(i),
        "2026-01-0" + std::to_string(i + 1) + "T00:00:00");
    if (i == 4) fifth = run_command("git -C " + repo() + " rev-parse HEAD").out.substr(0, 12);
    ASSERT_EQ(binary(MLREGRESS_FIXTURE_BINARY,
                     "run --filter Passes --set Passes.value=" + std::string(i < 4 ? "1" : "2") +
                         " --out " + runs() + " --color never")
                  .exit_code,
              0);
  }
  const json series = history(runs() + " --metric value --repo " + repo()).at("series")[0];
  ASSERT_EQ(series.at("change_points").size(), 1u) << series.dump(2);
  const json& change = series.at("change_points")[0];
  EXPECT_EQ(change.at("index"), 4);
  EXPECT_EQ(change.at("commit").get<std::string>().substr(0, 12), fifth);
  EXPECT_EQ(change.at("kind"), "regression");
  EXPECT_EQ(change.at("relative_change"), 1.0);
  const ProcessResult text =
      binary(MLREGRESS_FIXTURE_BINARY, "history " + runs() + " --metric value --repo " + repo());
  EXPECT_THAT(text.out, HasSubstr("CHANGE at " + fifth + ": 1 -> 2 (+100.0%"));
  // The page: one chart per series, the change marked at its commit, the runs linked to their
  // reports relative to the page.
  const std::string page = temp_.path() + "/history.html";
  ASSERT_EQ(binary(MLREGRESS_FIXTURE_BINARY, "history " + runs() + " --metric value --repo " +
                                                 repo() + " --format html --out " + page)
                .exit_code,
            0);
  const std::string html = test_support::read_file(page);
  EXPECT_THAT(html, HasSubstr("data-plot=\"history\""));
  EXPECT_THAT(html, HasSubstr("<line class=\"cp-regression\" x1=\"4\""));
  EXPECT_THAT(html, HasSubstr("data-kind=\"regression\" data-column=\"5\">regression at <a "
                              "href=\"#c5\">#5 " +
                              fifth.substr(0, 7)));
  EXPECT_THAT(html, HasSubstr("<a href=\"runs/"));
  EXPECT_THAT(html, HasSubstr("/report.html\">"));
  // --out with a text format is a usage error (exit 4, usage_error), and writes nothing.
  const ProcessResult text_out =
      binary(MLREGRESS_FIXTURE_BINARY, "history " + runs() + " --out " + temp_.path() + "/t.txt");
  EXPECT_EQ(text_out.exit_code, 4) << text_out.err;
  EXPECT_THAT(text_out.err, HasSubstr("--out writes the page of --format html"));
  EXPECT_FALSE(std::filesystem::exists(temp_.path() + "/t.txt"));
}

TEST_F(HistoryE2eTest, SeededSamplesArePooledPerCommit) {
  git("commit -q --allow-empty -m one");
  for (const char* seed : {"0", "100"}) {
    ASSERT_EQ(
        binary(MLREGRESS_SEED_FIXTURE_BINARY, std::string("run --filter NoisyAccuracy --seed ") +
                                                  seed + " --out " + runs() + " --color never")
            .exit_code,
        0);
  }
  const ProcessResult r =
      binary(MLREGRESS_SEED_FIXTURE_BINARY, "history " + runs() +
                                                " --test NoisyAccuracy --metric accuracy "
                                                "--format json --repo " +
                                                repo());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json point = json::parse(r.out).at("series")[0].at("points")[0];
  EXPECT_EQ(point.at("n"), 16);  // 8 seeds in each of 2 runs
  EXPECT_GT(point.at("sd").get<double>(), 0.0);
  EXPECT_EQ(binary(MLREGRESS_FIXTURE_BINARY, "history " + temp_.path() + "/nope").exit_code, 7);
}

}  // namespace
}  // namespace mlregress::e2e
