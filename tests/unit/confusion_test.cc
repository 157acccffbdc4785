// A prediction set's confusion matrix: cells by (true, predicted), rows that add up to the label
// balance, the majority rate an accuracy must be read against, classes no example has, a
// vocabulary-sized class count kept as totals only, and the results.json form that must read
// back to the same matrix.
#include "mlregress/confusion.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>
#include <stdexcept>

#include "builders.h"
#include "storage/confusion_json.h"
#include "storage/results_json.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;

TEST(ConfusionMatrix, CountsByTrueAndPredictedClass) {
  //                      true:  0  0  0  1  1  2  2  2  2  2
  const ConfusionMatrix m =
      confusion_matrix({0, 0, 1, 1, 1, 2, 2, 2, 0, 1}, {0, 0, 0, 1, 1, 2, 2, 2, 2, 2});
  ASSERT_EQ(m.classes, 3);
  EXPECT_EQ(m.counts, (std::vector<std::vector<std::int64_t>>{{2, 1, 0}, {0, 2, 0}, {1, 1, 3}}));
  for (std::size_t t = 0; t < 3; ++t) {
    EXPECT_EQ(std::accumulate(m.counts[t].begin(), m.counts[t].end(), std::int64_t{0}),
              m.target_counts[t])
        << "row " << t;
  }
  EXPECT_EQ(m.target_counts, (std::vector<std::int64_t>{3, 2, 5}));
  EXPECT_EQ(m.predicted_counts, (std::vector<std::int64_t>{3, 4, 3}));
  EXPECT_EQ(m.correct_counts, (std::vector<std::int64_t>{2, 2, 3}));
  EXPECT_EQ(m.correct, 7);
  EXPECT_DOUBLE_EQ(m.accuracy, 0.7);
  EXPECT_EQ(m.majority_class, 2);
  EXPECT_DOUBLE_EQ(m.majority_rate, 0.5);
  EXPECT_EQ(m.top_predicted_class, 1);
  EXPECT_DOUBLE_EQ(m.top_predicted_share, 0.4);
  EXPECT_DOUBLE_EQ(m.recall[2], 0.6);
  EXPECT_DOUBLE_EQ(m.precision[1], 0.5);
}

TEST(ConfusionMatrix, MajorityTiesGoToTheLowestClass) {
  const ConfusionMatrix m = confusion_matrix({1, 1, 0, 0}, {1, 1, 0, 0});
  EXPECT_EQ(m.majority_class, 0);
  EXPECT_EQ(m.top_predicted_class, 0);
  EXPECT_DOUBLE_EQ(m.majority_rate, 0.5);
}

TEST(ConfusionMatrix, ClassesNoExampleHasKeepTheirRows) {
  const ConfusionMatrix m = confusion_matrix({0, 1}, {0, 1}, 5);
  ASSERT_EQ(m.classes, 5);
  EXPECT_EQ(m.counts.size(), 5u);
  EXPECT_EQ(m.target_counts[4], 0);
  EXPECT_TRUE(std::isnan(m.recall[4]));
  EXPECT_TRUE(std::isnan(m.precision[3]));
  // An index above the declared count widens the matrix instead of being dropped.
  EXPECT_EQ(confusion_matrix({0, 6}, {0, 1}, 2).classes, 7);
}

TEST(ConfusionMatrix, ManyClassesKeepOnlyTheTotals) {
  std::vector<std::int64_t> ids(200);
  std::iota(ids.begin(), ids.end(), 0);
  const ConfusionMatrix m = confusion_matrix(ids, ids);
  EXPECT_EQ(m.classes, 200);
  EXPECT_TRUE(m.counts.empty());
  EXPECT_EQ(m.target_counts.size(), 200u);
  EXPECT_DOUBLE_EQ(m.accuracy, 1.0);
  EXPECT_THAT(m.table(), HasSubstr("200 classes: more than 50"));
  EXPECT_THROW((void)confusion_matrix({kConfusionMaxClasses}, {0}), std::invalid_argument);
}

TEST(ConfusionMatrix, MalformedSetsAreRefused) {
  EXPECT_THROW((void)confusion_matrix({0, 1}, {0}), std::invalid_argument);
  EXPECT_THROW((void)confusion_matrix({0, -1}, {0, 1}), std::invalid_argument);
  // The largest index: refused before `largest + 1` overflows into a matrix of 0 classes that the
  // counting loop would then write past.
  constexpr std::int64_t kLargest = std::numeric_limits<std::int64_t>::max();
  EXPECT_THROW((void)confusion_matrix({kLargest}, {0}), std::invalid_argument);
  EXPECT_THROW((void)confusion_matrix({0}, {kLargest}), std::invalid_argument);
}

TEST(ConfusionMatrix, TableAndSummaryShowTheMatrixAndThePrior) {
  std::vector<std::int64_t> target(100, 1), predicted(100, 1);
  for (int i = 0; i < 15; ++i) target[static_cast<std::size_t>(i)] = 0;
  const ConfusionMatrix m = confusion_matrix(predicted, target);
  EXPECT_EQ(m.table(),
            " true\\pred      0      1\n"
            "         0      0     15\n"
            "         1      0     85\n");
  EXPECT_EQ(m.summary(),
            "accuracy 0.8500 vs majority rate 0.8500 (class 1); predicts class 1 for 100% of 100 "
            "examples; labels 0: 15%, 1: 85%");
  EXPECT_THAT(confusion_matrix({0, 1, 2}, {0, 1, 2}).table(2), HasSubstr("(2 of 3 classes shown)"));
}

TEST(ConfusionJson, ReadsBackToTheSameMatrix) {
  const ConfusionMatrix m = confusion_matrix({0, 0, 1, 2, 2, 2}, {0, 1, 1, 2, 2, 0});
  const nlohmann::json written = confusion_to_json(m);
  EXPECT_EQ(written["counts"], nlohmann::json::parse("[[1,0,1],[1,1,0],[0,0,2]]"));
  EXPECT_EQ(written["majority_rate"], nlohmann::json(1.0 / 3.0));
  const ConfusionMatrix read = confusion_from_json(written);
  EXPECT_EQ(read.counts, m.counts);
  EXPECT_EQ(read.target_counts, m.target_counts);
  EXPECT_EQ(read.majority_class, m.majority_class);
  EXPECT_EQ(read.top_predicted_class, m.top_predicted_class);
  EXPECT_DOUBLE_EQ(read.accuracy, m.accuracy);
  EXPECT_EQ(confusion_to_json(read), written);
}

TEST(ConfusionJson, AVocabularySizedSetKeepsOnlyItsScalars) {
  std::vector<std::int64_t> classes(kConfusionTotalsMaxClasses + 1);
  std::iota(classes.begin(), classes.end(), 0);
  const nlohmann::json written = confusion_to_json(confusion_matrix(classes, classes));
  EXPECT_FALSE(written.contains("counts"));
  EXPECT_FALSE(written.contains("target_counts"));
  const ConfusionMatrix read = confusion_from_json(written);
  EXPECT_EQ(read.classes, kConfusionTotalsMaxClasses + 1);
  EXPECT_DOUBLE_EQ(read.accuracy, 1.0);
  EXPECT_EQ(confusion_to_json(read), written);
}

TEST(ConfusionJson, PredictionsInResultsJsonCarryTheirMatrix) {
  RunResult run;
  run.info.run_id = "r";
  TestResult test = finished_test("Cnn", "Medium.Cnn", "suites/medium/cnn_test.cc", {});
  RecordedPredictions p;
  p.name = "eval";
  p.csv_file = "predictions/Cnn.eval.csv";
  p.examples = 4;
  p.accuracy = 0.75;
  p.confusion = confusion_matrix({1, 1, 1, 1}, {1, 1, 1, 0});
  test.predictions.push_back(p);
  run.tests.push_back(test);
  const nlohmann::json written = run;
  EXPECT_EQ(written["tests"][0]["predictions"][0]["confusion"]["majority_rate"],
            nlohmann::json(0.75));
  const RunResult read = written.get<RunResult>();
  ASSERT_TRUE(read.tests[0].predictions[0].confusion.has_value());
  EXPECT_EQ(read.tests[0].predictions[0].confusion->counts, p.confusion->counts);
  EXPECT_EQ(nlohmann::json(read), written);
}

}  // namespace
}  // namespace mlregress::internal
