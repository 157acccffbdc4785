// Above the class prior: predicting the majority class for everything scores the majority rate
// and must fail with the matrix in the message; a classifier that learned passes; an accuracy a
// point above the majority rate on 100 examples is chance, not learning, and fails on p.
#include "mlregress/checks/class_prior.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

namespace mlregress::checks {
namespace {

using ::testing::HasSubstr;

// n examples, the first `zeros` of class 0 and the rest class 1.
std::vector<std::int64_t> labels(std::size_t n, std::size_t zeros) {
  std::vector<std::int64_t> y(n, 1);
  for (std::size_t i = 0; i < zeros; ++i) y[i] = 0;
  return y;
}

TEST(ClassPrior, ConstantPredictionsAtTheMajorityFail) {
  const std::vector<std::int64_t> target = labels(100, 15);
  const ClassPriorResult r = check_above_class_prior(std::vector<std::int64_t>(100, 1), target);
  EXPECT_FALSE(r.passed);
  EXPECT_DOUBLE_EQ(r.confusion.accuracy, 0.85);
  EXPECT_DOUBLE_EQ(r.confusion.majority_rate, 0.85);
  const ::testing::AssertionResult a = r;
  EXPECT_FALSE(a);
  EXPECT_THAT(a.message(), HasSubstr("no better than the class prior"));
  EXPECT_THAT(a.message(), HasSubstr("accuracy 0.8500 (85 of 100)"));
  EXPECT_THAT(a.message(), HasSubstr("predicts class 1 for 100% of examples"));
  EXPECT_THAT(a.message(), HasSubstr("         0      0     15\n"));  // the matrix's row 0
}

TEST(ClassPrior, AClassifierThatLearnedPasses) {
  std::vector<std::int64_t> target = labels(200, 60);
  std::vector<std::int64_t> predicted = target;
  for (std::size_t i = 0; i < 10; ++i) predicted[i * 20] = 1 - predicted[i * 20];  // 95% right
  const ClassPriorResult r = check_above_class_prior(predicted, target);
  EXPECT_TRUE(r.passed) << r.assertion().message();
  EXPECT_TRUE(r.assertion());
  EXPECT_NEAR(r.margin, 0.25, 1e-12);
  EXPECT_LT(r.p_value, 1e-6);
}

TEST(ClassPrior, APointAboveTheMajorityOnFewExamplesIsChance) {
  // 90/10 labels, 91 of 100 right: the margin alone (0.01) would pass with min_margin 0; the
  // binomial test does not: P(X >= 91), X ~ Binomial(100, 0.9), is about 0.45.
  std::vector<std::int64_t> target = labels(100, 10);
  std::vector<std::int64_t> predicted(100, 1);
  predicted[0] = 0;
  const ClassPriorResult r = check_above_class_prior(predicted, target, {.min_margin = 0.0});
  EXPECT_DOUBLE_EQ(r.confusion.accuracy, 0.91);
  EXPECT_GT(r.p_value, 0.3);
  EXPECT_FALSE(r.passed);
  EXPECT_THAT(r.assertion().message(), HasSubstr("one-sided binomial p = "));
  // The same three points on 10000 examples are evidence; the margin (0.03) clears 0.02.
  std::vector<std::int64_t> many_target = labels(10000, 1000);
  std::vector<std::int64_t> many_predicted(10000, 1);
  for (std::size_t i = 0; i < 300; ++i) many_predicted[i] = 0;
  EXPECT_TRUE(check_above_class_prior(many_predicted, many_target).passed);
}

TEST(ClassPrior, TensorsOfClassIndices) {
  const torch::Tensor target = torch::tensor({0, 1, 2, 2, 1, 0, 2, 1}, torch::kLong);
  EXPECT_EQ(check_above_class_prior(target.view({2, 4}), target).confusion.correct, 8);
  EXPECT_THROW(check_above_class_prior(torch::randn({8, 3}), target), std::invalid_argument);
  EXPECT_THROW(check_above_class_prior(target.narrow(0, 0, 7), target), std::invalid_argument);
  EXPECT_THROW(
      check_above_class_prior(torch::empty({0}, torch::kLong), torch::empty({0}, torch::kLong)),
      std::invalid_argument);
}

}  // namespace
}  // namespace mlregress::checks
