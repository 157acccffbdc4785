// The files a bisect keeps for its steps: settings.json and outcome.json are written as the
// bisect always wrote them (the text to the byte) and read back unchanged, a missing value as
// null; tried.jsonl keeps the order of the commits and whether each was built; a planted broken
// settings.json is a RunFolderError naming the file (the step stops the bisect), a broken line
// of tried.jsonl is BisectFailed naming the file and the line, a broken cached outcome is
// measured again.
#include "storage/bisect_steps.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "support/errors.h"
#include "tests/support/temp_dir.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::trunc) << text;
}

BisectState sample_state(const std::string& folder) {
  return {.folder = folder,
          .repo = "/src/model",
          .build = "cmake --build build",
          .binary = "/src/model/build/model_tests",
          .test = "Fast.Step",
          .metric = "loss",
          .run_args = {"--repeat", "3"},
          .good = "c0",
          .bad = "c15"};
}

BisectOutcome outcome(const std::string& commit, BisectAnswer answer, std::optional<double> value,
                      bool built) {
  BisectOutcome o;
  o.commit = commit;
  o.answer = answer;
  o.reason = answer == BisectAnswer::kBad ? "REGRESSION: 20% higher" : "measured as the baseline";
  o.metric = value ? "loss" : "";
  o.value = value;
  o.verdict = answer == BisectAnswer::kBad ? "REGRESSION" : "";
  o.built = built;
  return o;
}

TEST(BisectSteps, TheAnswersAreGitBisectRunsExitCodes) {
  EXPECT_EQ(static_cast<int>(BisectAnswer::kGood), 0);
  EXPECT_EQ(static_cast<int>(BisectAnswer::kBad), 1);
  EXPECT_EQ(static_cast<int>(BisectAnswer::kSkip), 125);
  EXPECT_EQ(bisect_answer_name(BisectAnswer::kGood), "good");
  EXPECT_EQ(bisect_answer_name(BisectAnswer::kBad), "bad");
  EXPECT_EQ(bisect_answer_name(BisectAnswer::kSkip), "skip");
}

TEST(BisectSteps, SettingsAreWrittenAsBeforeAndReadBack) {
  const test_support::TempDir dir;
  const BisectState written = sample_state(dir.path());
  write_bisect_settings(written);
  EXPECT_EQ(read_text(dir / "settings.json"),
            "{\n"
            "  \"bad\": \"c15\",\n"
            "  \"binary\": \"/src/model/build/model_tests\",\n"
            "  \"build\": \"cmake --build build\",\n"
            "  \"good\": \"c0\",\n"
            "  \"metric\": \"loss\",\n"
            "  \"repo\": \"/src/model\",\n"
            "  \"run_args\": [\n"
            "    \"--repeat\",\n"
            "    \"3\"\n"
            "  ],\n"
            "  \"test\": \"Fast.Step\"\n"
            "}\n");
  const BisectState read = read_bisect_settings(dir.path());
  EXPECT_EQ(read.folder, dir.path());
  EXPECT_EQ(read.repo, written.repo);
  EXPECT_EQ(read.build, written.build);
  EXPECT_EQ(read.binary, written.binary);
  EXPECT_EQ(read.test, written.test);
  EXPECT_EQ(read.metric, written.metric);
  EXPECT_EQ(read.run_args, written.run_args);
  EXPECT_EQ(read.good, written.good);
  EXPECT_EQ(read.bad, written.bad);
}

TEST(BisectSteps, AnOutcomeIsWrittenAsBeforeAndReadBackWithAMissingValueAsNull) {
  const test_support::TempDir dir;
  BisectOutcome written = outcome("c8", BisectAnswer::kBad, 1.25, /*built=*/true);
  written.baseline = std::nullopt;  // none: written as null, read back as none
  write_outcome(dir.path(), written);
  EXPECT_EQ(read_text(dir / "outcome.json"),
            "{\n"
            "  \"answer\": \"bad\",\n"
            "  \"baseline\": null,\n"
            "  \"commit\": \"c8\",\n"
            "  \"metric\": \"loss\",\n"
            "  \"reason\": \"REGRESSION: 20% higher\",\n"
            "  \"value\": 1.25,\n"
            "  \"verdict\": \"REGRESSION\"\n"
            "}\n");
  const std::optional<BisectOutcome> read = read_outcome(dir.path());
  ASSERT_TRUE(read);
  EXPECT_EQ(read->commit, "c8");
  EXPECT_EQ(read->answer, BisectAnswer::kBad);
  EXPECT_EQ(read->reason, written.reason);
  EXPECT_EQ(read->metric, "loss");
  EXPECT_EQ(read->value, 1.25);
  EXPECT_FALSE(read->baseline);
  EXPECT_EQ(read->verdict, "REGRESSION");
  EXPECT_FALSE(read->built);  // a cached outcome was not built by the step that reads it

  const BisectOutcome skipped = outcome("c4", BisectAnswer::kSkip, std::nullopt, true);
  write_outcome(dir.path(), skipped);
  ASSERT_TRUE(read_outcome(dir.path()));
  EXPECT_FALSE(read_outcome(dir.path())->value);
  EXPECT_EQ(read_outcome(dir.path())->answer, BisectAnswer::kSkip);
}

TEST(BisectSteps, NoOrABrokenCachedOutcomeIsMeasuredAgain) {
  const test_support::TempDir dir;
  EXPECT_FALSE(read_outcome(dir.path()));
  write_text(dir / "outcome.json", "{\"commit\": \"c8\", \"answer\": ");
  EXPECT_FALSE(read_outcome(dir.path()));
  write_text(dir / "outcome.json", "{\"commit\": \"c8\", \"answer\": \"bad\"}\n");  // no reason
  EXPECT_FALSE(read_outcome(dir.path()));
}

TEST(BisectSteps, TriedKeepsTheOrderAndWhatWasBuilt) {
  const test_support::TempDir dir;
  EXPECT_TRUE(read_tried(dir.path()).empty());  // no file yet: nothing tried
  append_tried(dir.path(), outcome("c0", BisectAnswer::kGood, 1.0, true));
  append_tried(dir.path(), outcome("c15", BisectAnswer::kBad, 1.25, false));
  append_tried(dir.path(), outcome("c7", BisectAnswer::kSkip, std::nullopt, true));
  EXPECT_THAT(read_text(dir / "tried.jsonl"),
              StartsWith("{\"answer\":\"good\",\"baseline\":null,\"built\":true,\"commit\":\"c0\","
                         "\"metric\":\"loss\",\"reason\":\"measured as the baseline\","
                         "\"value\":1.0,\"verdict\":\"\"}\n"));
  const std::vector<BisectOutcome> tried = read_tried(dir.path());
  ASSERT_EQ(tried.size(), 3u);
  EXPECT_EQ(tried[0].commit, "c0");
  EXPECT_EQ(tried[0].answer, BisectAnswer::kGood);
  EXPECT_EQ(tried[0].value, 1.0);
  EXPECT_TRUE(tried[0].built);
  EXPECT_EQ(tried[1].commit, "c15");
  EXPECT_EQ(tried[1].answer, BisectAnswer::kBad);
  EXPECT_FALSE(tried[1].built);
  EXPECT_EQ(tried[2].commit, "c7");
  EXPECT_EQ(tried[2].answer, BisectAnswer::kSkip);
  EXPECT_FALSE(tried[2].value);
  EXPECT_TRUE(tried[2].built);

  clear_tried(dir.path());  // a new bisect of the range starts its own order
  EXPECT_TRUE(read_tried(dir.path()).empty());
}

TEST(BisectSteps, BrokenSettingsAreARunFolderErrorNamingTheFile) {
  const test_support::TempDir dir;
  const std::string path = dir / "settings.json";
  const auto refused = [&](const std::string& text) -> std::string {
    write_text(path, text);
    try {
      read_bisect_settings(dir.path());
    } catch (const RunFolderError& error) {
      EXPECT_EQ(error.exit_code(), ExitCode::kRunFolderError);
      return error.what();
    }
    ADD_FAILURE() << "accepted: " << text;
    return "";
  };
  EXPECT_THAT(refused("{\"repo\": \"/src/model\","), StartsWith(path + ": not valid JSON"));
  EXPECT_THAT(refused("{\"repo\": \"/src/model\"}"), StartsWith(path + ": "));
  EXPECT_THAT(refused("{\"repo\": \"/src/model\"}"), HasSubstr("build"));  // the missing key
  EXPECT_THAT(refused(""), StartsWith(path + ": not valid JSON"));
}

TEST(BisectSteps, MissingSettingsAreARunFolderError) {
  const test_support::TempDir dir;
  try {
    read_bisect_settings(dir.path());
    ADD_FAILURE() << "no settings.json accepted";
  } catch (const RunFolderError& error) {
    EXPECT_EQ(std::string(error.what()), dir / "settings.json" + ": cannot be read");
    EXPECT_EQ(error.exit_code(), ExitCode::kRunFolderError);
  }
}

TEST(BisectSteps, ABrokenTriedLineIsBisectFailedNamingTheFileAndLine) {
  const test_support::TempDir dir;
  append_tried(dir.path(), outcome("c0", BisectAnswer::kGood, 1.0, true));
  std::ofstream(dir / "tried.jsonl", std::ios::app) << "{\"commit\": \"c15\", \"answ\n";
  try {
    read_tried(dir.path());
    ADD_FAILURE() << "a broken tried.jsonl accepted";
  } catch (const BisectFailed& error) {
    EXPECT_THAT(error.what(), StartsWith(dir / "tried.jsonl" + ":2: not a measured commit: "));
    EXPECT_EQ(error.exit_code(), ExitCode::kBisectFailed);
  }
}

}  // namespace
}  // namespace mlregress::internal
