#include "mlregress/checks/permuted_label_leak.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

namespace mlregress::checks {
namespace {

// Expected values are exact tails computed independently in Python with rational arithmetic:
//   from fractions import Fraction as F; from math import comb
//   tail = lambda k, n, p: float(sum(comb(n, i) * F(p)**i * (1 - F(p))**(n - i)
//                                    for i in range(k, n + 1)))
TEST(BinomialUpperTail, MatchesExactSums) {
  EXPECT_DOUBLE_EQ(binomial_upper_tail_p(8, 10, 0.5), 0.0546875);  // 56 / 1024
  // tail(60, 100, F(1, 2))
  EXPECT_NEAR(binomial_upper_tail_p(60, 100, 0.5), 0.028443966820490395, 1e-14);
  // tail(30, 100, F(1, 4))
  EXPECT_NEAR(binomial_upper_tail_p(30, 100, 0.25), 0.14954104656657347, 1e-13);
  // tail(1, 5, F(1, 3)) = 1 - (2/3)^5
  EXPECT_NEAR(binomial_upper_tail_p(1, 5, 1.0 / 3.0), 0.8683127572016461, 1e-14);
  // The seed's leaky pipeline: 255 of 400 against its majority rate 215 / 400.
  // tail(255, 400, F(215, 400))
  EXPECT_NEAR(binomial_upper_tail_p(255, 400, 215.0 / 400.0), 3.2687648692813306e-05, 1e-16);
}

TEST(BinomialUpperTail, Edges) {
  EXPECT_EQ(binomial_upper_tail_p(0, 10, 0.5), 1.0);
  EXPECT_EQ(binomial_upper_tail_p(11, 10, 0.5), 0.0);
  EXPECT_EQ(binomial_upper_tail_p(3, 10, 0.0), 0.0);
  EXPECT_EQ(binomial_upper_tail_p(10, 10, 1.0), 1.0);
}

TEST(JudgePermutedLabels, ChanceLevelPredictionsAreNoLeak) {
  torch::manual_seed(1);
  const torch::Tensor labels = torch::randint(0, 2, {1000});
  const torch::Tensor guesses = torch::randint(0, 2, {1000});
  const LeakTestResult r = judge_permuted_labels(labels, labels, guesses, labels);
  EXPECT_DOUBLE_EQ(r.train_accuracy, 1.0);
  EXPECT_NEAR(r.validation_accuracy, 0.5, 0.05);
  EXPECT_EQ(r.num_classes, 2);
  EXPECT_FALSE(r.leak) << "p = " << r.p_value;
  EXPECT_TRUE(no_leak(r));
}

TEST(JudgePermutedLabels, MajorityClassIsChanceNotALeak) {
  // 70% of validation is class 0; always answering 0 needs no leak. Against 1/C = 0.5 it would
  // look like p < 1e-30.
  const torch::Tensor labels =
      torch::cat({torch::zeros({700}, torch::kLong), torch::ones({300}, torch::kLong)});
  const torch::Tensor always_zero = torch::zeros({1000}, torch::kLong);
  const LeakTestResult r = judge_permuted_labels(always_zero, labels, always_zero, labels);
  EXPECT_DOUBLE_EQ(r.majority_rate, 0.7);
  EXPECT_DOUBLE_EQ(r.chance_rate, 0.7);
  EXPECT_NEAR(r.p_value, 0.5155935198141199, 1e-12);  // tail(700, 1000, F(7, 10))
  EXPECT_TRUE(no_leak(r));
}

TEST(JudgePermutedLabels, PlantedAboveChanceIsALeak) {
  // 240 of 400 right on balanced labels. tail(240, 400, F(1, 2)) = 3.7132840381863195e-05
  const torch::Tensor labels = torch::arange(400) % 2;
  torch::Tensor predictions = labels.clone();
  predictions.slice(0, 0, 160) = 1 - predictions.slice(0, 0, 160);
  const LeakTestResult r = judge_permuted_labels(predictions, labels, predictions, labels);
  EXPECT_EQ(r.validation_correct, 240);
  EXPECT_NEAR(r.p_value, 3.7132840381863195e-05, 1e-17);
  EXPECT_TRUE(r.leak);
  const auto result = no_leak(r);
  EXPECT_FALSE(result);
  EXPECT_THAT(std::string(result.message()), ::testing::HasSubstr("240 of 400"))
      << result.message();
}

// A perfect memoriser: 1-nearest-neighbour on the training split.
SplitPredictions nearest_neighbour(const LabeledSplits& s) {
  const auto predict = [&](const torch::Tensor& x) {
    return s.train_labels.index_select(0, torch::cdist(x, s.train_inputs).argmin(1));
  };
  return {predict(s.train_inputs), predict(s.validation_inputs)};
}

LabeledSplits rows(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& order,
                   std::int64_t n_train) {
  const torch::Tensor tr = order.slice(0, 0, n_train);
  const torch::Tensor va = order.slice(0, n_train);
  return {x.index_select(0, tr), y.index_select(0, tr), x.index_select(0, va),
          y.index_select(0, va)};
}

// The leak test of `pipeline` and the memoriser on 400 XOR points drawn after seeding with 0.
LeakTestResult leak_test_on_xor(const SplitPipeline& pipeline) {
  torch::manual_seed(0);
  const torch::Tensor x = torch::randn({400, 2});
  const torch::Tensor y = (x.select(1, 0) * x.select(1, 1) > 0).to(torch::kLong);
  return permuted_label_leak_test(x, y, pipeline, nearest_neighbour);
}

TEST(PermutedLabelLeakTest, HealthyPipelineMemorisesButStaysAtChance) {
  const LeakTestResult r = leak_test_on_xor([](const torch::Tensor& xs, const torch::Tensor& ys) {
    return rows(xs, ys, torch::randperm(xs.size(0)), 200);
  });
  EXPECT_DOUBLE_EQ(r.train_accuracy, 1.0);
  EXPECT_TRUE(no_leak(r));
}

TEST(PermutedLabelLeakTest, PlantedOversampleBeforeSplitIsALeak) {
  const LeakTestResult r = leak_test_on_xor([](const torch::Tensor& xs, const torch::Tensor& ys) {
    const torch::Tensor xd = torch::cat({xs, xs});
    const torch::Tensor yd = torch::cat({ys, ys});
    return rows(xd, yd, torch::randperm(xd.size(0)), 400);
  });
  EXPECT_DOUBLE_EQ(r.train_accuracy, 1.0);
  EXPECT_GT(r.validation_accuracy, 0.65);
  EXPECT_TRUE(r.leak);
  EXPECT_FALSE(no_leak(r));
}

TEST(PermutedLabelLeakTest, LabelsAreScrambledOnceBeforeThePipeline) {
  torch::manual_seed(0);
  const torch::Tensor x = torch::randn({10, 2});
  const torch::Tensor y = torch::arange(10) % 2;
  int scrambles = 0;
  LeakTestOptions options;
  options.scramble_labels = [&](const torch::Tensor& labels) {
    ++scrambles;
    return 1 - labels;  // a stand-in scramble the pipeline can recognise
  };
  permuted_label_leak_test(
      x, y,
      [&](const torch::Tensor& xs, const torch::Tensor& ys) {
        EXPECT_TRUE(torch::equal(ys, 1 - y));
        return rows(xs, ys, torch::arange(10), 5);
      },
      nearest_neighbour, options);
  EXPECT_EQ(scrambles, 1);
}

}  // namespace
}  // namespace mlregress::checks
