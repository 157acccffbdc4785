// The typed readers of config.json and ledger.jsonl that rerun, merge and ledger read run folders
// through. Planted: a config.json that is not JSON, one whose test lacks its config hash, one
// with a seed of the wrong type, a ledger line that is not JSON and one without its run id, and
// a runs folder without a ledger: each error names the file (and the field) instead of letting
// nlohmann's exception fall through as an internal error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "record/json_text.h"
#include "storage/results_json.h"
#include "storage/run_config.h"
#include "storage/run_ledger.h"
#include "support/errors.h"
#include "tests/support/temp_dir.h"

namespace mlregress::internal {
namespace {

using test_support::TempDir;
using ::testing::HasSubstr;

constexpr const char* kConfig = R"({
  "schema_version": 1, "seed": 7, "threads": 2, "jobs": 1, "overrides": [],
  "order": ["Fast.Plain", "Full.Study"],
  "tests": {
    "Plain": {"tier": "fast", "params": {"lr": 0.1, "name": "x"}, "config_hash": "abc"},
    "Study": {"tier": "full", "params": {}, "config_hash": "def", "seeds": [40, 41],
              "seed_block": 1, "pass_spending": "pocock",
              "variants": [{"name": "", "params": {}, "config_hash": "def"}]}
  }
})";

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// The message of the RunFolderError `read` throws, or "" when it throws none.
template <typename Read>
std::string run_folder_error(Read read) {
  try {
    read();
  } catch (const RunFolderError& error) {
    return error.what();
  }
  return "";
}

TEST(RunConfigReader, ReadsThePlanTyped) {
  TempDir dir;
  write(dir / "config.json", kConfig);
  const RunConfig config = read_run_config(dir.path());
  EXPECT_EQ(config.seed, 7u);
  EXPECT_EQ(config.threads, 2);
  EXPECT_THAT(config.order, ::testing::ElementsAre("Fast.Plain", "Full.Study"));
  const RunConfigTest* plain = config.find("Plain");
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(plain->tier, Tier::Fast);
  EXPECT_EQ(plain->config_hash, "abc");
  EXPECT_EQ(plain->params.at("lr"), 0.1);
  EXPECT_FALSE(plain->seeded());
  const RunConfigTest* study = config.find("Study");
  ASSERT_NE(study, nullptr);
  EXPECT_THAT(study->seeds, ::testing::ElementsAre(40u, 41u));
  EXPECT_EQ(study->seed_block, 1);
  EXPECT_EQ(study->pass_spending, stats::SpendingFunction::kPocock);
  EXPECT_THAT(study->variants, ::testing::ElementsAre(""));
  EXPECT_EQ(config.find("Nope"), nullptr);
}

TEST(RunConfigReader, ADamagedFileIsARunFolderErrorNamingTheFileAndTheField) {
  TempDir dir;
  const std::string path = dir / "config.json";
  write(path, "{\"seed\": 7,");
  EXPECT_THAT(run_folder_error([&] { read_run_config(dir.path()); }),
              HasSubstr(path + ": not valid JSON"));

  std::string text = kConfig;
  text.replace(text.find("\"config_hash\": \"abc\""), 20, "\"hash\": \"abc\"");
  write(path, text);
  EXPECT_THAT(run_folder_error([&] { read_run_config(dir.path()); }),
              HasSubstr(path + ": tests.Plain.config_hash: missing"));

  text = kConfig;
  text.replace(text.find("\"seed\": 7"), 9, "\"seed\": \"7\"");
  write(path, text);
  EXPECT_THAT(run_folder_error([&] { read_run_config(dir.path()); }),
              HasSubstr(path + ": seed: expected an integer"));

  // A spending this build does not know would judge the looks by another design.
  text = kConfig;
  text.replace(text.find("\"pocock\""), 8, "\"linear\"");
  write(path, text);
  EXPECT_THAT(run_folder_error([&] { read_run_config(dir.path()); }),
              HasSubstr(path + ": tests.Study.pass_spending: unknown value \"linear\""));

  std::filesystem::remove(path);
  EXPECT_THAT(run_folder_error([&] { read_run_config(dir.path()); }),
              HasSubstr(path + ": cannot be read"));
}

// A seeded metric's covariate in results.json is absent or the name of a metric: an empty or
// non-string one would read as "no covariate" and silently drop the pre-registered adjustment.
// Refused naming the file and the field; planted: the same file with the name reads back.
TEST(ResultsJsonReader, AnEmptyOrNonStringCovariateIsRefusedNamingFileAndField) {
  TempDir dir;
  const std::string path = dir / "results.json";
  RunResult run;
  TestResult test;
  test.name = "Study";
  test.full_name = "Full.Study";
  test.finished = true;
  test.metrics.push_back({"accuracy", 0.87, Direction::HigherIsBetter, Margin{0.01, "difficulty"}});
  run.tests.push_back(test);
  nlohmann::json json = run;
  write(path, json_text(json));
  const RunResult read = read_results_json(path);
  ASSERT_EQ(read.tests.size(), 1u);
  EXPECT_EQ(std::get<Margin>(read.tests[0].metrics[0].policy).covariate, "difficulty");
  for (const nlohmann::json& bad : {nlohmann::json(""), nlohmann::json(3)}) {
    json["tests"][0]["metrics"][0]["policy"]["covariate"] = bad;
    write(path, json_text(json));
    const std::string error = run_folder_error([&] { read_results_json(path); });
    EXPECT_THAT(error, HasSubstr(path + ": ")) << error;
    EXPECT_THAT(error, HasSubstr("policy.covariate: expected the name of a metric (a non-empty "
                                 "string), got " +
                                 json_text(bad)))
        << error;
  }
}

TEST(RunLedgerReader, ReadsEntriesAndSkipsDamagedLinesNamingFileAndLine) {
  TempDir dir;
  const std::string path = dir / "ledger.jsonl";
  write(path, R"({"run_id": "r1", "binary": "b", "exit_code": 2, "exit_status": "regression", )"
              R"("summary": {"tests": 3, "passed": 2}, "hypothesis": "h"})"
              "\n"
              "{\"run_id\": \"half-writ\n"
              R"({"binary": "b", "exit_code": 0})"
              "\n"
              R"({"run_id": "r2", "kind": "ab", "other_binary": "o", "exit_code": 0})"
              "\n");
  const RunLedger ledger = read_run_ledger(dir.path());
  ASSERT_EQ(ledger.entries.size(), 2u);
  EXPECT_EQ(ledger.entries[0].run_id, "r1");
  EXPECT_EQ(ledger.entries[0].exit_code, ExitCode::kRegression);
  ASSERT_TRUE(ledger.entries[0].summary.has_value());
  EXPECT_EQ(ledger.entries[0].summary->tests, 3u);
  EXPECT_EQ(ledger.entries[0].summary->passed, 2u);
  EXPECT_EQ(ledger.entries[0].hypothesis, "h");
  EXPECT_EQ(ledger.entries[1].kind, "ab");
  ASSERT_EQ(ledger.damaged.size(), 2u);
  EXPECT_THAT(ledger.damaged[0], HasSubstr(path + ":2: skipped, not a ledger line"));
  EXPECT_THAT(ledger.damaged[1],
              HasSubstr(path + ":3: skipped, not a ledger line (run_id: missing"));
}

TEST(RunLedgerReader, ARunsFolderWithoutALedgerIsARunFolderErrorNamingTheFile) {
  TempDir dir;
  EXPECT_THAT(run_folder_error([&] { read_run_ledger(dir.path()); }),
              HasSubstr(dir / "ledger.jsonl" + ": cannot be read"));
}

}  // namespace
}  // namespace mlregress::internal
