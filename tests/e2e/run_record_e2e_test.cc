// What the commands that read finished runs rely on: one decoder for results.json that names
// what is wrong with a damaged file, one judgement shared by `run --baselines` and `compare`, and
// the git state of the sources the binary was built from.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "fixture_runner.h"
#include "process.h"
#include "tests/support/files.h"

namespace mlregress::e2e {
namespace {

using nlohmann::json;
using test_support::read_file;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

class RunRecordE2eTest : public FixtureRunnerTest {
 protected:
  std::string latest_folder() const { return runs() + "/" + fs::read_symlink(latest()).string(); }
  void edit_json(const std::string& path, const std::function<void(json&)>& change) {
    json document = json::parse(read_file(path));
    change(document);
    std::ofstream(path) << document.dump(2);
  }
};

// The lines of a report that describe metrics and the environment, in order.
std::vector<std::string> metric_lines(const std::string& output) {
  std::vector<std::string> lines;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("METRIC ") || line.starts_with("DISTRIBUTION ") ||
        line.starts_with("ENVIRONMENT ")) {
      lines.push_back(line);
    }
  }
  return lines;
}

TEST_F(RunRecordE2eTest, ADamagedResultsJsonIsARunFolderErrorNamingTheFileAndTheField) {
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
  const std::string folder = latest_folder();
  edit_json(folder + "/results.json",
            [](json& d) { d["tests"][0]["metrics"][0]["value"] = "abc"; });
  const ProcessResult promoted = fixture("promote " + folder + " --baselines " + baselines());
  EXPECT_EQ(promoted.exit_code, kRunFolderError) << promoted.err;
  EXPECT_THAT(promoted.err,
              HasSubstr(folder + "/results.json: tests[0].metrics[0].value: expected a number"));
  const ProcessResult compared = fixture("compare " + folder + " " + folder);
  EXPECT_EQ(compared.exit_code, kRunFolderError) << compared.err;
  EXPECT_THAT(compared.err, HasSubstr("tests[0].metrics[0].value"));
  EXPECT_FALSE(fs::exists(baselines()));
}

TEST_F(RunRecordE2eTest, CompareAndRunGiveTheSamePerMetricReport) {
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
  const std::string a = latest_folder();
  ASSERT_EQ(fixture("promote " + a + " --baselines " + baselines() + " --reason e2e").exit_code,
            kPassed);
  const ProcessResult judged =
      run("--filter Passes --set Passes.value=2.5 --baselines " + baselines());
  ASSERT_EQ(judged.exit_code, kRegression) << judged.out;
  const std::string b = latest_folder();
  const ProcessResult compared = fixture("compare " + a + " " + b);
  EXPECT_EQ(compared.exit_code, kRegression) << compared.out;
  EXPECT_THAT(metric_lines(judged.out), ::testing::SizeIs(2)) << judged.out;
  EXPECT_EQ(metric_lines(compared.out), metric_lines(judged.out)) << compared.out;
}

TEST_F(RunRecordE2eTest, ADirectionChangeIsReportedAlikeByRunAndCompare) {
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
  const std::string a = latest_folder();
  // The baseline was promoted when the test said higher_is_better; the test now says lower.
  edit_json(a + "/results.json",
            [](json& d) { d["tests"][0]["metrics"][0]["direction"] = "higher_is_better"; });
  ASSERT_EQ(fixture("promote " + a + " --baselines " + baselines() + " --reason e2e").exit_code,
            kPassed);
  const ProcessResult judged = run("--filter Passes --baselines " + baselines());
  const std::string b = latest_folder();
  const ProcessResult compared = fixture("compare " + a + " " + b);
  const std::string note =
      "the test now says lower_is_better, the baseline higher_is_better; promote to adopt";
  EXPECT_THAT(judged.out, HasSubstr(note));
  EXPECT_THAT(compared.out, HasSubstr(note));
  EXPECT_EQ(metric_lines(compared.out), metric_lines(judged.out)) << compared.out;
  const json value =
      test_named(json::parse(read_file(b + "/results.json")), "Passes").at("metrics").at(0);
  EXPECT_EQ(value.at("baseline_direction"), "higher_is_better");
}

// git's answer for a work tree, or "unknown" when it has none.
std::string head_of(const std::string& dir) {
  const ProcessResult head = run_command("git -C " + dir + " rev-parse HEAD");
  if (head.exit_code != 0) return "unknown";
  return head.out.substr(0, head.out.find('\n'));
}

TEST_F(RunRecordE2eTest, TheRunRecordsTheGitStateOfTheTestSourcesWhereverItRuns) {
  // Run from a folder that is no git work tree, without MLREGRESS_REPO: the commit is that of
  // the repository holding the fixture's sources, known from the build.
  const ProcessResult plain = run_command(
      "cd " + temp_.path() + " && env -u MLREGRESS_REPO " + std::string(MLREGRESS_FIXTURE_BINARY) +
      " run --filter Passes --out " + runs() + " --color never");
  ASSERT_EQ(plain.exit_code, kPassed) << plain.err;
  const json environment = json::parse(read_file(latest() + "/environment.json"));
  EXPECT_EQ(environment.at("git").at("commit"), head_of(MLREGRESS_SOURCE_DIR));

  // --repo names another work tree; its uncommitted changes make the run dirty.
  const std::string repo = temp_.path() + "/repo";
  ASSERT_EQ(
      run_command("git init -q " + repo + " && cd " + repo + " && echo a > f && git add f && " +
                  "git -c user.name=t -c user.email=t@t commit -qm init")
          .exit_code,
      0);
  ASSERT_EQ(run("--filter Passes --repo " + repo).exit_code, kPassed);
  json recorded = json::parse(read_file(latest() + "/environment.json")).at("git");
  EXPECT_EQ(recorded.at("commit"), head_of(repo));
  EXPECT_EQ(recorded.at("dirty"), false);
  std::ofstream(repo + "/f") << "changed";
  ASSERT_EQ(run("--filter Passes --repo " + repo).exit_code, kPassed);
  recorded = json::parse(read_file(latest() + "/environment.json")).at("git");
  EXPECT_EQ(recorded.at("dirty"), true);
  EXPECT_THAT(fs::read_symlink(latest()).string(), HasSubstr(head_of(repo).substr(0, 7)));
}

}  // namespace
}  // namespace mlregress::e2e
