// record_predictions end to end: the predictions file in the run folder, promote storing it
// beside the baseline, and a later run compared example by example: an unchanged run has zero
// flips and passes; one class damaged shows as that class's flips and a McNemar REGRESSION in
// the console, JUnit and results.json, with every flip in a file; a changed evaluation set is
// NOT_COMPARABLE, never a silent comparison.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "fixture_runner.h"

namespace mlregress::e2e {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

class PredictionsE2eTest : public FixtureRunnerTest {
 protected:
  ProcessResult predictions(const std::string& args) {
    return run_fixture_in(temp_.path(), MLREGRESS_PREDICTIONS_FIXTURE_BINARY, args);
  }
  ProcessResult run_against_baselines(const std::string& args) {
    return predictions("run --color never --out " + runs() + " --baselines baselines " + args);
  }
  json eval_entry() const { return test_named(results(), "Predictions").at("predictions").at(0); }
  std::string baseline_csv() const {
    return temp_.path() +
           "/baselines/mlregress_predictions_fixture/predictions/Predictions.eval.csv";
  }
  void SetUp() override {
    std::filesystem::create_directories(temp_.path() + "/baselines");
    const ProcessResult first = run_against_baselines("");
    ASSERT_EQ(first.exit_code, kPassed) << first.out << first.err;
    ASSERT_EQ(eval_entry().at("verdict"), "NEW");
    ASSERT_EQ(eval_entry().at("examples"), 1000);
    // One line per example and a header, in the run folder.
    const std::string csv = test_support::read_file(latest() + "/predictions/Predictions.eval.csv");
    ASSERT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1001);
    const ProcessResult promoted =
        predictions("promote " + latest() + " --baselines baselines --reason first");
    ASSERT_EQ(promoted.exit_code, kPassed) << promoted.out << promoted.err;
    ASSERT_THAT(promoted.out, HasSubstr("Predictions.eval.csv (predictions)"));
    ASSERT_EQ(test_support::read_file(baseline_csv()), csv);
  }
};

TEST_F(PredictionsE2eTest, AnUnchangedRunHasNoFlipsAndPasses) {
  const ProcessResult again = run_against_baselines("");
  EXPECT_EQ(again.exit_code, kPassed) << again.out;
  const json eval = eval_entry();
  EXPECT_EQ(eval.at("verdict"), "PASS");
  EXPECT_EQ(eval.at("flips").at("correct_to_wrong"), 0);
  EXPECT_EQ(eval.at("flips").at("wrong_to_correct"), 0);
  EXPECT_EQ(eval.at("flips").at("p_worse"), 1.0);
  EXPECT_THAT(again.out, HasSubstr("0 correct→wrong, 0 wrong→correct on 1000 examples"));
}

TEST_F(PredictionsE2eTest, OneDamagedClassIsARegressionWithItsFlipsByClass) {
  const ProcessResult damaged = run_against_baselines("--set Predictions.shuffle_class=2");
  EXPECT_EQ(damaged.exit_code, kRegression) << damaged.out;
  const json eval = eval_entry();
  EXPECT_EQ(eval.at("verdict"), "REGRESSION");
  const json& flips = eval.at("flips");
  EXPECT_GT(flips.at("correct_to_wrong").get<int>(), 50);
  EXPECT_EQ(flips.at("wrong_to_correct"), 0);
  EXPECT_LT(flips.at("p_worse_holm").get<double>(), 1e-10);
  // Every example lost is of class 2: the by-class table names only it.
  ASSERT_EQ(flips.at("by_class").size(), 1u);
  EXPECT_EQ(flips.at("by_class")[0].at("class"), 2);
  EXPECT_EQ(flips.at("by_class")[0].at("correct_to_wrong"), flips.at("correct_to_wrong"));
  // The console names the class and the test; JUnit carries the same report.
  EXPECT_THAT(damaged.out, HasSubstr("by true class: 2:"));
  EXPECT_THAT(damaged.out, HasSubstr("McNemar p(worse)="));
  EXPECT_THAT(damaged.out, HasSubstr("first correct→wrong: id "));
  EXPECT_THAT(test_support::read_file(latest() + "/junit.xml"), HasSubstr("by true class: 2:"));
  // Every flip is in the flips file.
  const std::string file =
      test_support::read_file(latest() + "/predictions/Predictions.eval.flips.csv");
  EXPECT_EQ(static_cast<int>(std::count(file.begin(), file.end(), '\n')),
            flips.at("correct_to_wrong").get<int>() + 1);
  EXPECT_THAT(file, HasSubstr("correct_to_wrong,"));
  // The report page shows the verdict and the summary.
  EXPECT_THAT(test_support::read_file(latest() + "/report.html"), HasSubstr("by true class: 2:"));
}

TEST_F(PredictionsE2eTest, AChangedEvaluationSetIsNotComparableNamingTheDataset) {
  // The baseline keeps the dataset's hash.
  EXPECT_THAT(test_support::read_file(temp_.path() + "/baselines/mlregress_predictions_fixture/"
                                                     "predictions_fixture.toml"),
              HasSubstr("datasets = { eval = \"sha256:"));
  for (const char* change :
       {"--set Predictions.drop_examples=3", "--set Predictions.relabel=true"}) {
    SCOPED_TRACE(change);
    // Fewer examples would even look better (accuracy), and relabelled ones worse: neither is
    // judged; every value of the test is NOT_COMPARABLE and says which dataset changed.
    const ProcessResult changed = run_against_baselines(change);
    EXPECT_EQ(changed.exit_code, kPassed) << changed.out;
    const json accuracy = test_named(results(), "Predictions").at("metrics").at(0);
    for (const json& compared : {accuracy, eval_entry()}) {
      EXPECT_EQ(compared.at("verdict"), "NOT_COMPARABLE");
      EXPECT_THAT(compared.at("note").get<std::string>(),
                  HasSubstr("the dataset 'eval' changed (sha256:"));
    }
    EXPECT_THAT(changed.out, HasSubstr("the dataset 'eval' changed"));
  }
  // Three examples fewer: the baseline shown is the stored set's accuracy on its 1000 examples,
  // not the candidate's or the shared examples' (planted: the accuracy of the examples both
  // have, which was printed as the baseline).
  const ProcessResult fewer = run_against_baselines("--set Predictions.drop_examples=3");
  ASSERT_EQ(fewer.exit_code, kPassed) << fewer.out;
  const std::string stored = test_support::read_file(baseline_csv());
  int examples = 0, correct = 0;
  std::istringstream lines(stored);
  std::string line;
  std::getline(lines, line);  // the header: id,predicted,target
  while (std::getline(lines, line)) {
    long long id = 0, predicted = 0, target = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lld,%lld,%lld", &id, &predicted, &target), 3) << line;
    ++examples;
    correct += predicted == target ? 1 : 0;
  }
  ASSERT_EQ(examples, 1000);
  const json entry = eval_entry();
  EXPECT_DOUBLE_EQ(entry.at("baseline").get<double>(), static_cast<double>(correct) / examples);
  EXPECT_THAT(entry.at("note").get<std::string>(), HasSubstr("on 1000 examples, this run's"));
  EXPECT_THAT(entry.at("note").get<std::string>(), HasSubstr(" on 997"));
}

TEST_F(PredictionsE2eTest, CompareUsesTheOtherRunsPredictionsAndNamesADamagedFile) {
  const std::string a = std::filesystem::canonical(latest()).string();
  ASSERT_EQ(run_against_baselines("--set Predictions.shuffle_class=1").exit_code, kRegression);
  const std::string b = std::filesystem::canonical(latest()).string();
  const ProcessResult compared = predictions("compare " + a + " " + b);
  EXPECT_EQ(compared.exit_code, kRegression) << compared.out << compared.err;
  EXPECT_THAT(compared.out, HasSubstr("by true class: 1:"));

  std::ofstream(b + "/predictions/Predictions.eval.csv") << "id,predicted,target\n1,x,2\n";
  const ProcessResult damaged = predictions("compare " + a + " " + b);
  EXPECT_EQ(damaged.exit_code, kRunFolderError);
  EXPECT_THAT(damaged.err, HasSubstr("Predictions.eval.csv:2"));
}

// Predictions recorded with per-example attributes: the file has their columns; a bug that hits
// only the longest examples is a REGRESSION whose losses results.json, the console and the flips
// file place in the slice length [12, 16); the other slices lost nothing, and the examples
// without a size form the slice "missing".
TEST_F(PredictionsE2eTest, FlipsAreSlicedByTheRecordedAttributes) {
  const std::string csv =
      test_support::read_file(latest() + "/predictions/SlicedPredictions.eval.csv");
  EXPECT_THAT(csv, ::testing::StartsWith("id,predicted,target,length,size\n"));
  const ProcessResult damaged = run_against_baselines("--set SlicedPredictions.late_damage=true");
  EXPECT_EQ(damaged.exit_code, kRegression) << damaged.out;
  const json eval = test_named(results(), "SlicedPredictions").at("predictions").at(0);
  EXPECT_EQ(eval.at("verdict"), "REGRESSION");
  const json& flips = eval.at("flips");
  ASSERT_GT(flips.at("correct_to_wrong").get<int>(), 20);
  std::map<std::string, json> length_slices;
  bool size_missing = false;
  for (const json& slice : flips.at("by_attribute")) {
    if (slice.at("attribute") == "length") length_slices[slice.at("slice")] = slice;
    if (slice.at("attribute") == "size" && slice.at("slice") == "missing") {
      size_missing = true;
      EXPECT_EQ(slice.at("compared"), 8);  // ids 0, 50, ..., 350
      EXPECT_FALSE(slice.contains("low"));
    }
  }
  EXPECT_TRUE(size_missing);
  ASSERT_EQ(length_slices.size(), 4u);  // quartiles of 16 values
  const json& late = length_slices.at("[12, 16)");
  EXPECT_EQ(late.at("low"), 12.0);
  EXPECT_EQ(late.at("high"), 16.0);
  EXPECT_EQ(late.at("compared"), 100);
  EXPECT_EQ(late.at("correct_to_wrong"), flips.at("correct_to_wrong"));
  EXPECT_LT(late.at("p_holm").get<double>(), 1e-6);
  for (const char* early : {"[0, 4)", "[4, 8)", "[8, 12)"}) {
    EXPECT_EQ(length_slices.at(early).at("correct_to_wrong"), 0) << early;
  }
  EXPECT_THAT(eval.at("note").get<std::string>(), HasSubstr("lost mostly in length [12, 16)"));
  EXPECT_THAT(damaged.out, HasSubstr("by length: [12, 16) lost most, "));
  // The flips file has one column per attribute: every lost example is of length 12 to 15.
  const std::string file =
      test_support::read_file(latest() + "/predictions/SlicedPredictions.eval.flips.csv");
  std::istringstream lines(file);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "kind,id,target,baseline_predicted,candidate_predicted,length,size");
  int rows = 0;
  while (std::getline(lines, line)) {
    long long id = 0, target = 0, before = 0, after = 0;
    double length = -1;
    ASSERT_EQ(std::sscanf(line.c_str(), "correct_to_wrong,%lld,%lld,%lld,%lld,%lf", &id, &target,
                          &before, &after, &length),
              5)
        << line;
    EXPECT_GE(length, 12.0) << line;
    ++rows;
  }
  EXPECT_EQ(rows, flips.at("correct_to_wrong").get<int>());
  // The Markdown report, from results.json read back, has the slice in its "by attribute" column.
  const ProcessResult report = predictions("report " + latest() + " --format markdown --out -");
  ASSERT_EQ(report.exit_code, kPassed) << report.err;
  const std::string& markdown = report.out;
  EXPECT_THAT(markdown, HasSubstr("| by true class | by attribute | McNemar p(worse) |"));
  EXPECT_THAT(markdown, HasSubstr("by length: [12, 16) lost most, "));
}

// Every recorded set carries its confusion matrix: in results.json (rows summing to the label
// balance, the diagonal to the correct count), in report.html's Predictions block and in the
// Markdown report read back from the run folder. Planted: the matrix lost between the event and
// the file, or between the file and a report.
TEST_F(PredictionsE2eTest, TheConfusionMatrixReachesResultsJsonAndTheReports) {
  const json confusion = eval_entry().at("confusion");
  EXPECT_EQ(confusion.at("classes"), 4);
  EXPECT_EQ(confusion.at("examples"), 1000);
  EXPECT_EQ(confusion.at("target_counts"), json::parse("[250, 250, 250, 250]"));
  EXPECT_EQ(confusion.at("majority_class"), 0);
  EXPECT_EQ(confusion.at("majority_rate"), 0.25);
  std::int64_t diagonal = 0;
  for (std::size_t t = 0; t < 4; ++t) {
    const json& row = confusion.at("counts").at(t);
    std::int64_t sum = 0;
    for (const json& cell : row) sum += cell.get<std::int64_t>();
    EXPECT_EQ(sum, 250) << "row " << t;
    diagonal += row.at(t).get<std::int64_t>();
  }
  EXPECT_EQ(diagonal, confusion.at("correct").get<std::int64_t>());
  EXPECT_DOUBLE_EQ(eval_entry().at("accuracy").get<double>(),
                   static_cast<double>(diagonal) / 1000.0);

  const std::string html = test_support::read_file(latest() + "/report.html");
  EXPECT_THAT(html, HasSubstr("<h3>Predictions</h3>"));
  EXPECT_THAT(html, HasSubstr("data-at-prior=\"false\""));
  EXPECT_THAT(html, HasSubstr("vs majority rate 0.2500 (class 0)"));
  const ProcessResult markdown = predictions("report " + latest() + " --format markdown --out -");
  ASSERT_EQ(markdown.exit_code, kPassed) << markdown.err;
  EXPECT_THAT(markdown.out, HasSubstr("<details><summary>Predictions of 2 tests</summary>"));
  EXPECT_THAT(markdown.out, HasSubstr("labels 0: 25%, 1: 25%, 2: 25%, 3: 25%"));
}

}  // namespace
}  // namespace mlregress::e2e
