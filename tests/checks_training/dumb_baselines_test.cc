// Dumb baselines: the majority comes from the training labels and is scored on the evaluation
// labels (a majority taken from evaluation would see the answers), a linear model separates what
// is linearly separable and not XOR, and a model no better than either fails with the numbers.
#include "mlregress/checks/dumb_baselines.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

namespace mlregress::checks {
namespace {

using ::testing::HasSubstr;

torch::Tensor labels_of(std::int64_t zeros, std::int64_t ones) {
  return torch::cat({torch::zeros({zeros}, torch::kLong), torch::ones({ones}, torch::kLong)});
}

TEST(DumbBaselines, ImbalancedLabelsGiveTheMajorityRate) {
  torch::manual_seed(0);
  const torch::Tensor train_y = labels_of(90, 10);
  const torch::Tensor eval_y = labels_of(90, 10);
  const DumbBaselines b =
      dumb_baselines(torch::randn({100, 3}), train_y, torch::randn({100, 3}), eval_y, {.steps = 5});
  EXPECT_EQ(b.classes, 2);
  EXPECT_EQ(b.majority_class, 0);
  EXPECT_DOUBLE_EQ(b.majority_accuracy, 0.9);
}

TEST(DumbBaselines, MajorityComesFromTrainingNotEvaluation) {
  // The planted leak: evaluation's own majority (class 1, 70%) would score 0.7; the training
  // majority (class 0) scores what answering it really gets on evaluation, 0.3.
  torch::manual_seed(0);
  const DumbBaselines b = dumb_baselines(torch::randn({100, 2}), labels_of(80, 20),
                                         torch::randn({100, 2}), labels_of(30, 70), {.steps = 5});
  EXPECT_EQ(b.majority_class, 0);
  EXPECT_DOUBLE_EQ(b.majority_accuracy, 0.3);
}

TEST(DumbBaselines, LinearModelSeparatesBlobs) {
  torch::manual_seed(1);
  const torch::Tensor y = torch::randint(0, 2, {400});
  const torch::Tensor x = torch::randn({400, 2}) * 0.3 + (y.to(torch::kFloat) * 4 - 2).unsqueeze(1);
  const DumbBaselines b = dumb_baselines(x.narrow(0, 0, 200), y.narrow(0, 0, 200),
                                         x.narrow(0, 200, 200), y.narrow(0, 200, 200));
  EXPECT_GT(b.linear_accuracy, 0.98);
  EXPECT_LT(b.linear_loss, 0.2);
}

TEST(DumbBaselines, LinearModelCannotLearnXor) {
  torch::manual_seed(2);
  const torch::Tensor x = torch::randn({800, 2});
  const torch::Tensor y = (x.select(1, 0) * x.select(1, 1)).gt(0).to(torch::kLong);
  const DumbBaselines b = dumb_baselines(x.narrow(0, 0, 400), y.narrow(0, 0, 400),
                                         x.narrow(0, 400, 400), y.narrow(0, 400, 400));
  EXPECT_NEAR(b.linear_accuracy, 0.5, 0.1);
}

TEST(DumbBaselines, ImagesAreFlattened) {
  // The label is the sign of one pixel: a linear model on the flattened image finds it.
  torch::manual_seed(3);
  const torch::Tensor images = torch::randn({600, 1, 4, 4});
  const torch::Tensor labels = images.select(1, 0).select(1, 2).select(1, 3).gt(0).to(torch::kLong);
  const DumbBaselines b = dumb_baselines(images.narrow(0, 0, 400), labels.narrow(0, 0, 400),
                                         images.narrow(0, 400, 200), labels.narrow(0, 400, 200));
  EXPECT_GT(b.linear_accuracy, 0.9);
  EXPECT_THROW(dumb_baselines(torch::randn({20, 4}), torch::randint(0, 2, {20}),
                              torch::randn({10, 5}), torch::randint(0, 2, {10})),
               std::invalid_argument);
  EXPECT_THROW(dumb_baselines(torch::randn({20, 4}), torch::randint(0, 2, {19}),
                              torch::randn({10, 4}), torch::randint(0, 2, {10})),
               std::invalid_argument);
}

TEST(BeatsDumbBaselines, AccuracyAtTheMajorityFailsWithTheNumbers) {
  const DumbBaselines b{.classes = 2,
                        .majority_class = 0,
                        .majority_accuracy = 0.9,
                        .linear_accuracy = 0.5,
                        .linear_loss = 0.69};
  const ::testing::AssertionResult r = beats_dumb_baselines(0.9, b);
  EXPECT_FALSE(r);
  EXPECT_THAT(r.message(), HasSubstr("no better than the majority class"));
  EXPECT_THAT(r.message(), HasSubstr("model accuracy 0.9000"));
  EXPECT_THAT(r.message(), HasSubstr("0.9000, needs +0.05"));
  EXPECT_THAT(r.message(), HasSubstr("linear model 0.5000"));
  // Absolute points: 0.946 is 5% above 0.9 relatively (0.945) but not 0.05 above it.
  EXPECT_FALSE(beats_dumb_baselines(0.946, b));
  EXPECT_TRUE(beats_dumb_baselines(0.96, b));
}

TEST(BeatsDumbBaselines, NoBetterThanLinearFails) {
  const DumbBaselines b{.classes = 2,
                        .majority_class = 1,
                        .majority_accuracy = 0.5,
                        .linear_accuracy = 0.93,
                        .linear_loss = 0.2};
  const ::testing::AssertionResult r = beats_dumb_baselines(0.92, b);
  EXPECT_FALSE(r);
  EXPECT_THAT(r.message(), HasSubstr("no better than a linear model"));
  EXPECT_TRUE(beats_dumb_baselines(0.95, b));
  EXPECT_FALSE(beats_dumb_baselines(0.95, b, {.over_majority = 0.05, .over_linear = 0.03}));
}

}  // namespace
}  // namespace mlregress::checks
