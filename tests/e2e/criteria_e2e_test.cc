// Success criteria checked, not just written; the ledger with keep/reject and the chosen
// metrics; "config changed" naming the parameters. Each plants the mistake it guards against: a
// run whose value misses the criterion (notes.md must say NOT met with the numbers, the exit code
// must stay the gate's), a sentence and a metric no test recorded (never reported met), the
// ledger's keep and reject on the wrong runs, a --set change the ENVIRONMENT line does not name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fixture_runner.h"
#include "tests/support/files.h"

namespace mlregress::e2e {
namespace {

namespace fs = std::filesystem;
using test_support::read_file;
using ::testing::HasSubstr;
using ::testing::Not;

class CriteriaE2eTest : public FixtureRunnerTest {
 protected:
  // Fast.Passes records value = 1.5 by default (band rtol 0.1, atol 0.01: 1.4 and 1.6 PASS);
  // that run is promoted into b/.
  void promote_default() {
    ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
    ASSERT_EQ(fixture("promote " + latest() + " --baselines " + b() + " --reason r").exit_code,
              kPassed);
  }
  std::string b() const { return temp_.path() + "/b"; }
  std::string current() const { return runs() + "/" + fs::read_symlink(latest()).string(); }
};

// The line of `text` that holds `what`, or "".
std::string line_with(const std::string& text, const std::string& what) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(what) != std::string::npos) return line;
  }
  return "";
}

TEST_F(CriteriaE2eTest, AValueThatMissesTheCriterionIsNotMetWithTheNumbers) {
  promote_default();
  const ProcessResult missed =
      run("--filter Passes --set Passes.value=1.6 --baselines " + b() +
          " --change 'value 1.5 -> 1.6' --criteria 'value <= 0.98x baseline; value < 2'");
  EXPECT_EQ(missed.exit_code, kPassed) << "criteria are the hypothesis, not a gate: " << missed.out;
  EXPECT_THAT(missed.out, HasSubstr("criteria: not met (1 of 2)")) << missed.out;
  const std::string notes = read_file(latest() + "/notes.md");
  EXPECT_THAT(notes, HasSubstr("criteria: not met (1 of 2)")) << notes;
  EXPECT_THAT(notes, HasSubstr("- NOT met: value <= 0.98x baseline — Fast.Passes value 1.6 vs "
                               "baseline 1.5 (1.067x; allowed <= 1.47)"))
      << notes;
  EXPECT_THAT(notes, HasSubstr("- met: value < 2 — Fast.Passes value 1.6 vs baseline 1.5"))
      << notes;
  EXPECT_THAT(notes, HasSubstr("## Success criteria\n\nvalue <= 0.98x baseline; value < 2\n"))
      << "the text a person wrote stays as written";
  const json criteria = results().at("criteria");
  ASSERT_EQ(criteria.size(), 2u);
  EXPECT_EQ(criteria.at(0).at("status"), "not_met");
  EXPECT_EQ(criteria.at(0).at("checks").at(0).at("observed"), 1.6);
  EXPECT_EQ(criteria.at(0).at("checks").at(0).at("baseline"), 1.5);
  EXPECT_EQ(criteria.at(1).at("status"), "met");
  EXPECT_THAT(fixture("notes " + latest()).out, HasSubstr("criteria: not met (1 of 2)"))
      << "notes checks them again from the record";

  ASSERT_EQ(run("--filter Passes --set Passes.value=1.4 --baselines " + b() +
                " --change 'value 1.5 -> 1.4' --criteria 'value <= 0.98x baseline; value < 2'")
                .exit_code,
            kPassed);
  const std::string met = read_file(latest() + "/notes.md");
  EXPECT_THAT(met, HasSubstr("criteria: met\n")) << met;
  EXPECT_THAT(met, HasSubstr("- met: value <= 0.98x baseline — Fast.Passes value 1.4 vs baseline "
                             "1.5 (0.9333x; allowed <= 1.47)"))
      << met;
  EXPECT_THAT(met, Not(HasSubstr("NOT met"))) << met;
}

TEST_F(CriteriaE2eTest, ASentenceStaysTextAndAnUnknownMetricIsNeverMet) {
  promote_default();
  ASSERT_EQ(run("--filter Passes --baselines " + b() +
                " --criteria 'no REGRESSION anywhere; val_loss <= 0.98x baseline'")
                .exit_code,
            kPassed);
  const std::string notes = read_file(latest() + "/notes.md");
  EXPECT_THAT(notes, HasSubstr("- not machine-checkable: no REGRESSION anywhere\n")) << notes;
  EXPECT_THAT(notes, HasSubstr("- not evaluated: val_loss <= 0.98x baseline — no test recorded "
                               "val_loss\n"))
      << notes;
  EXPECT_THAT(notes, HasSubstr("criteria: not evaluated (1 of 1)")) << notes;
  EXPECT_THAT(notes, Not(HasSubstr("criteria: met"))) << notes;

  // Without a baseline a ratio has nothing to be a ratio of.
  ASSERT_EQ(run("--filter Passes --criteria 'value <= 0.98x'").exit_code, kPassed);
  EXPECT_THAT(read_file(latest() + "/notes.md"),
              HasSubstr("- not evaluated: value <= 0.98x — no baseline value for Fast.Passes"));
}

// Planted: a mistyped criterion (an operator the syntax does not have) must not be kept as a
// sentence nobody checks: the run stops before it starts, exit 4, naming it.
TEST_F(CriteriaE2eTest, AMistypedCriterionIsAUsageErrorNotText) {
  const ProcessResult typo = run("--filter Passes --criteria 'value == 1.5; no REGRESSION'");
  EXPECT_EQ(typo.exit_code, kUsageError) << typo.out << typo.err;
  EXPECT_THAT(typo.err, HasSubstr("'value == 1.5' is not a criterion: expected METRIC OP VALUE"));
  EXPECT_FALSE(std::filesystem::exists(temp_.path() + "/runs/latest"));
}

TEST_F(CriteriaE2eTest, TheLedgerShowsTheMetricKeepAndRejectPerRun) {
  promote_default();
  const std::string criteria = " --criteria 'value <= 0.98x baseline'";
  ASSERT_EQ(run("--filter Passes --set Passes.value=1.6 --baselines " + b() +
                " --change 'value to 1.6'" + criteria)
                .exit_code,
            kPassed);
  ASSERT_EQ(run("--filter Passes --set Passes.value=1.4 --baselines " + b() +
                " --change 'value to 1.4'" + criteria)
                .exit_code,
            kPassed);
  const ProcessResult ledger = fixture("ledger " + runs() + " --metric value");
  ASSERT_EQ(ledger.exit_code, kPassed) << ledger.err;
  const std::string header = line_with(ledger.out, "decision");
  EXPECT_THAT(header, HasSubstr("value")) << ledger.out;
  const std::string rejected = line_with(ledger.out, "value to 1.6");
  EXPECT_THAT(rejected, HasSubstr("reject")) << ledger.out;
  EXPECT_THAT(rejected, HasSubstr("not met")) << ledger.out;
  EXPECT_THAT(rejected, HasSubstr(" 1.6 ")) << ledger.out;
  const std::string kept = line_with(ledger.out, "value to 1.4");
  EXPECT_THAT(kept, HasSubstr("keep")) << ledger.out;
  EXPECT_THAT(kept, HasSubstr(" 1.4 ")) << ledger.out;
  EXPECT_EQ(header.find("decision"), kept.find("keep")) << "columns line up:\n" << ledger.out;

  const ProcessResult as_json = fixture("ledger " + runs() + " --metric value --format json");
  ASSERT_EQ(as_json.exit_code, kPassed) << as_json.err;
  const json rows = json::parse(as_json.out);
  ASSERT_EQ(rows.size(), 3u) << as_json.out;
  EXPECT_TRUE(rows.at(0).at("decision").is_null()) << "the promoted run had no criteria";
  EXPECT_EQ(rows.at(1).at("decision"), "reject");
  EXPECT_EQ(rows.at(1).at("metrics").at("value"), 1.6);
  EXPECT_EQ(rows.at(2).at("decision"), "keep");
  EXPECT_EQ(rows.at(2).at("change"), "value to 1.4");

  // A line written before these fields still reads, with nothing to show for them.
  std::ofstream(runs() + "/ledger.jsonl", std::ios::app)
      << R"({"run_id": "old-run", "exit_code": 0, "exit_status": "passed"})"
      << "\n";
  const ProcessResult with_old = fixture("ledger " + runs() + " --metric value");
  EXPECT_EQ(with_old.exit_code, kPassed);
  EXPECT_THAT(line_with(with_old.out, "old-run"), HasSubstr("—")) << with_old.out;
  EXPECT_THAT(with_old.err, Not(HasSubstr("skipped"))) << with_old.err;
}

TEST_F(CriteriaE2eTest, AChangedParameterIsNamedWithBothValues) {
  promote_default();
  const std::string a = current();
  EXPECT_THAT(read_file(a + "/results.json"), HasSubstr("\"config\""));
  ASSERT_EQ(run("--filter Passes --set Passes.value=2.5 --baselines " + b()).exit_code,
            kRegression);
  const std::string note =
      test_named(results(), "Passes").at("baseline").at("environment").get<std::string>();
  EXPECT_THAT(note, HasSubstr("config changed: value 1.5 → 2.5")) << note;
  EXPECT_THAT(note, Not(HasSubstr("points"))) << "only what changed: " << note;

  const ProcessResult compared = fixture("compare " + a + " " + current());
  EXPECT_THAT(compared.out, HasSubstr("config changed: value 1.5 → 2.5")) << compared.out;

  // A baseline promoted before the values were kept: the note says no more than it knows.
  for (const auto& entry : fs::recursive_directory_iterator(b())) {
    if (entry.path().extension() != ".toml") continue;
    std::istringstream lines(read_file(entry.path().string()));
    std::string kept;
    for (std::string line; std::getline(lines, line);) {
      if (!line.starts_with("config = {")) kept += line + "\n";
    }
    std::ofstream(entry.path()) << kept;
  }
  ASSERT_EQ(run("--filter Passes --set Passes.value=2.5 --baselines " + b()).exit_code,
            kRegression);
  const std::string old =
      test_named(results(), "Passes").at("baseline").at("environment").get<std::string>();
  EXPECT_THAT(old, HasSubstr("config changed")) << old;
  EXPECT_THAT(old, Not(HasSubstr("value 1.5"))) << old;
}

}  // namespace
}  // namespace mlregress::e2e
