// The experiment's notes end to end: notes.md written from the flags or a file and completed
// with the run's result, a person's interpretation added later, the hypothesis in the ledger,
// and a bad notes file stopping the run before anything is written.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "fixture_runner.h"
#include "tests/support/files.h"

namespace mlregress::e2e {
namespace {

using test_support::read_file;
using ::testing::HasSubstr;
using ::testing::Not;

class NotesE2eTest : public FixtureRunnerTest {};

TEST_F(NotesE2eTest, TheRunWritesItsNotesWithTheResultAndThePersonAddsTheRest) {
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
  ASSERT_EQ(
      fixture("promote " + latest() + " --baselines " + temp_.path() + "/b --reason r").exit_code,
      kPassed);
  const ProcessResult result =
      run("--filter Passes --set Passes.value=3 --baselines " + temp_.path() +
          "/b --hypothesis 'doubling value regresses' --change 'value 1.5 -> 3' "
          "--criteria 'a REGRESSION on value'");
  ASSERT_EQ(result.exit_code, kRegression) << result.out << result.err;
  const std::string notes = read_file(latest() + "/notes.md");
  EXPECT_THAT(notes, HasSubstr("## Hypothesis\n\ndoubling value regresses\n"));
  EXPECT_THAT(notes, HasSubstr("## Single intentional change\n\nvalue 1.5 -> 3\n"));
  EXPECT_THAT(notes, HasSubstr("## Success criteria\n\na REGRESSION on value\n"));
  EXPECT_THAT(notes, HasSubstr("Exit status: regression (2)."));
  EXPECT_THAT(notes, HasSubstr("- Fast.Passes: value 3 vs baseline 1.5"));
  EXPECT_THAT(notes, HasSubstr("(for a person: BINARY notes RUN --interpretation TEXT)"));

  ASSERT_EQ(fixture("notes " + latest() + " --interpretation 'the band caught it'").exit_code,
            kPassed);
  ASSERT_EQ(fixture("notes " + latest() + " --next 'try 2.0'").exit_code, kPassed);
  const std::string updated = read_file(latest() + "/notes.md");
  EXPECT_THAT(updated, HasSubstr("## Interpretation\n\nthe band caught it\n"));
  EXPECT_THAT(updated, HasSubstr("## Next experiment\n\ntry 2.0\n"));
  EXPECT_THAT(updated, HasSubstr("doubling value regresses"));  // the rest is kept
  EXPECT_THAT(updated, HasSubstr("Exit status: regression (2)."));

  EXPECT_THAT(read_file(runs() + "/ledger.jsonl"),
              HasSubstr("\"hypothesis\":\"doubling value regresses\""));
  const ProcessResult ledger = fixture("ledger " + runs());
  EXPECT_EQ(ledger.exit_code, kPassed);
  EXPECT_THAT(ledger.out, HasSubstr("regression"));
  EXPECT_THAT(ledger.out, HasSubstr("doubling value regresses"));
}

TEST_F(NotesE2eTest, ANotesFileGivesTheSectionsAndTheFlagsOverrideIt) {
  const std::string file = temp_.path() + "/plan.md";
  std::ofstream(file) << "# Experiment\n\n## Hypothesis\nfrom the file\n\n## Success criteria\n"
                         "PASS everywhere\n";
  ASSERT_EQ(run("--filter Passes --notes " + file + " --hypothesis 'from the flag'").exit_code,
            kPassed);
  const std::string notes = read_file(latest() + "/notes.md");
  EXPECT_THAT(notes, HasSubstr("## Hypothesis\n\nfrom the flag\n"));
  EXPECT_THAT(notes, HasSubstr("## Success criteria\n\nPASS everywhere\n"));
  EXPECT_THAT(notes, HasSubstr("(not given: run --change TEXT)"));
}

TEST_F(NotesE2eTest, ABadNotesFileStopsTheRunBeforeAnythingIsWritten) {
  const std::string file = temp_.path() + "/plan.md";
  std::ofstream(file) << "## Hypothesis\nx\n\n## Method\ny\n";
  const ProcessResult result = run("--filter Passes --notes " + file);
  EXPECT_EQ(result.exit_code, kUsageError);
  EXPECT_THAT(result.err, HasSubstr(file + ":4: unknown section 'Method'"));
  EXPECT_FALSE(std::filesystem::exists(runs()));
  EXPECT_EQ(run("--filter Passes --notes " + temp_.path() + "/missing.md").exit_code, kUsageError);
}

TEST_F(NotesE2eTest, ARunWithoutNotesHasNoneUntilAPersonAddsThem) {
  ASSERT_EQ(run("--filter Passes").exit_code, kPassed);
  EXPECT_FALSE(std::filesystem::exists(latest() + "/notes.md"));
  EXPECT_THAT(read_file(runs() + "/ledger.jsonl"), Not(HasSubstr("hypothesis")));
  ASSERT_EQ(fixture("notes " + latest() + " --interpretation 'looked fine'").exit_code, kPassed);
  const std::string notes = read_file(latest() + "/notes.md");
  EXPECT_THAT(notes, HasSubstr("Exit status: passed (0)."));
  EXPECT_THAT(notes, HasSubstr("looked fine"));
  EXPECT_EQ(fixture("notes " + temp_.path() + "/nope").exit_code, kRunFolderError);
}

}  // namespace
}  // namespace mlregress::e2e
