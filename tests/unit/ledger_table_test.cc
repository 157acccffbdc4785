// `ledger`: per run its criteria, keep or reject, the chosen metrics' values and the change, from
// ledger.jsonl lines that carry them; older lines without them still read. Planted: a run whose
// criteria failed marked keep, a failed run with met criteria kept, a metric column that shows
// another test's value, columns that drift out of line, a new field that breaks old lines.
#include "renderers/ledger_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "builders.h"
#include "storage/run_ledger.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;

LedgerEntry entry(const std::string& id, const std::string& criteria, ExitCode exit_code,
                  double value) {
  LedgerEntry e;
  e.run_id = id;
  e.criteria = criteria;
  e.exit_code = exit_code;
  e.change = "lr " + id;
  e.summary = RunSummary{};
  e.metrics["T"]["value"] = value;
  e.metrics["U"]["value"] = 10 * value;
  return e;
}

TEST(LedgerTable, KeepOnlyWhenTheCriteriaWereMetAndTheRunPassed) {
  EXPECT_EQ(ledger_decision(entry("a", "met", ExitCode::kPassed, 1)), "keep");
  EXPECT_EQ(ledger_decision(entry("a", "not met", ExitCode::kPassed, 1)), "reject");
  EXPECT_EQ(ledger_decision(entry("a", "met", ExitCode::kRegression, 1)), "reject");
  EXPECT_EQ(ledger_decision(entry("a", "not evaluated", ExitCode::kPassed, 1)), "");
  EXPECT_EQ(ledger_decision(entry("a", "", ExitCode::kPassed, 1)), "");
}

TEST(LedgerTable, TheEntryCarriesCriteriaChangeAndValuesAndOldLinesRead) {
  RunResult run;
  run.info.run_id = "r1";
  run.info.change = "lr 0.02 -> 0.05";
  MetricRecord value{"value", 1.25, LowerIsBetter, {}, {}, {}};
  run.tests.push_back(finished_test("T", "Fast.T", "t.cc", {value}));
  run.criteria = {{"value < 2", CriterionStatus::kMet, {}, ""}};
  const LedgerEntry written = ledger_entry(run);
  const LedgerEntry read = nlohmann::json(written).get<LedgerEntry>();
  EXPECT_EQ(read.change, "lr 0.02 -> 0.05");
  EXPECT_EQ(read.criteria, "met");
  EXPECT_EQ(read.metrics.at("T").at("value"), 1.25);

  const LedgerEntry old =
      nlohmann::json::parse(R"({"run_id": "old", "exit_code": 0})").get<LedgerEntry>();
  EXPECT_EQ(old.criteria, "");
  EXPECT_TRUE(old.metrics.empty());
  EXPECT_EQ(ledger_decision(old), "");
}

TEST(LedgerTable, AMetricGetsAColumnPerTestOrTheOneTestAsked) {
  RunLedger ledger;
  ledger.entries = {entry("r1", "met", ExitCode::kPassed, 1.5),
                    entry("r2", "not met", ExitCode::kPassed, 1.25)};
  const std::vector<LedgerMetricColumn> both = ledger_metric_columns(ledger, {"value"}, "");
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].header, "T.value");
  EXPECT_EQ(both[1].header, "U.value");
  const std::vector<LedgerMetricColumn> u = ledger_metric_columns(ledger, {"value"}, "Fast.U");
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].header, "value");
  const std::string text = ledger_text(ledger, u);
  EXPECT_THAT(text, HasSubstr("15")) << text;
  EXPECT_THAT(text, HasSubstr("12.5")) << text;
  EXPECT_THAT(text, ::testing::Not(HasSubstr("1.25"))) << "T's value is not U's: " << text;
}

TEST(LedgerTable, ColumnsLineUpAndMissingValuesShowADash) {
  RunLedger ledger;
  ledger.entries = {entry("r1", "met", ExitCode::kPassed, 1.5),
                    entry("run-with-a-long-id", "not met", ExitCode::kRegression, 1.25)};
  ledger.entries[0].metrics.clear();
  const std::string text =
      ledger_text(ledger, ledger_metric_columns(ledger, {"value", "nobody_recorded"}, "T"));
  std::istringstream lines(text);
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(line);
  ASSERT_EQ(rows.size(), 3u) << text;
  EXPECT_THAT(rows[0], HasSubstr("criteria"));
  EXPECT_EQ(rows[0].find("status"), rows[2].find("regression")) << text;
  EXPECT_EQ(rows[1].find("keep"), rows[2].find("reject")) << text;
  EXPECT_EQ(rows[0].find("decision"), rows[1].find("keep")) << text;
  EXPECT_THAT(rows[1], HasSubstr("—")) << "r1 recorded no value: " << text;
  EXPECT_THAT(rows[2], HasSubstr("1.25")) << text;
  EXPECT_THAT(rows[0], HasSubstr("nobody_recorded")) << text;

  const nlohmann::json json =
      nlohmann::json::parse(ledger_json(ledger, ledger_metric_columns(ledger, {"value"}, "T")));
  EXPECT_TRUE(json.at(0).at("metrics").at("value").is_null());
  EXPECT_EQ(json.at(1).at("metrics").at("value"), 1.25);
  EXPECT_EQ(json.at(1).at("decision"), "reject");
  EXPECT_EQ(json.at(0).at("decision"), "keep");
}

}  // namespace
}  // namespace mlregress::internal
