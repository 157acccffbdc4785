#include "mlregress/checks/initial_loss.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tiny_models.h"

namespace mlregress::checks {
namespace {

using test_models::explains;
using test_models::kClasses;
using test_models::make_mlp;
using test_models::make_tiny_batch;

TEST(InitialLoss, FreshModelStartsNearLnClasses) {
  torch::manual_seed(0);
  const auto batch = make_tiny_batch(64);
  auto model = make_mlp();
  const InitialLossResult result = check_initial_loss(model->forward(batch.inputs), batch.labels);
  EXPECT_TRUE(result);
  EXPECT_TRUE(result.passed);
  EXPECT_EQ(result.classes, kClasses);
  EXPECT_DOUBLE_EQ(result.expected, std::log(3.0));
  EXPECT_NEAR(result.ratio, 1.0, 0.1);
  ASSERT_TRUE(result.mean_prediction_distance.has_value());
  EXPECT_LT(*result.mean_prediction_distance, 0.1);
}

TEST(InitialLoss, SeedsCnnNumbersPass) {
  // The seed's correct and double-softmax CNNs both start at 1.34-1.37 against ln(4) = 1.386.
  EXPECT_TRUE(check_initial_loss(1.3411, 4));
  EXPECT_TRUE(check_initial_loss(1.3746, 4));
}

TEST(InitialLoss, OverconfidentOutputScaleIsCaught) {
  // Planted bug: logits 30x too large (an output layer initialised far too wide).
  torch::manual_seed(0);
  const auto batch = make_tiny_batch(64);
  auto model = make_mlp();
  const torch::Tensor logits = 30.0 * model->forward(batch.inputs);
  const InitialLossResult result = check_initial_loss(logits, batch.labels);
  EXPECT_FALSE(result.passed);
  EXPECT_GT(result.ratio, 1.5);
  const ::testing::AssertionResult assertion = result;
  EXPECT_FALSE(assertion);
  EXPECT_TRUE(explains(assertion, "ratio"));
  EXPECT_TRUE(explains(assertion, "ln(3)"));
}

TEST(InitialLoss, BiasTowardOneClassIsMeasuredFromLogits) {
  // Planted bug: the output bias favours class 2, so the mean prediction is far from uniform.
  torch::manual_seed(0);
  const auto batch = make_tiny_batch(64);
  auto model = make_mlp();
  {
    torch::NoGradGuard no_grad;
    model->named_parameters()["2.bias"].copy_(torch::tensor({0.0, 0.0, 6.0}));
  }
  const InitialLossResult result = check_initial_loss(model->forward(batch.inputs), batch.labels);
  EXPECT_FALSE(result.passed);
  ASSERT_TRUE(result.most_predicted_class.has_value());
  EXPECT_EQ(*result.most_predicted_class, 2);
  EXPECT_GT(*result.mean_prediction_distance, 0.5);
  EXPECT_TRUE(explains(result.assertion(), "most predicted class 2"));
}

TEST(InitialLoss, NonFiniteLossNeverPasses) {
  EXPECT_FALSE(check_initial_loss(std::numeric_limits<double>::quiet_NaN(), 4).passed);
  EXPECT_FALSE(check_initial_loss(std::numeric_limits<double>::infinity(), 4).passed);
}

TEST(InitialLoss, ToleranceIsRelative) {
  const double ln4 = std::log(4.0);
  EXPECT_TRUE(check_initial_loss(ln4 * 1.19, 4, {.relative_tolerance = 0.2}).passed);
  EXPECT_FALSE(check_initial_loss(ln4 * 1.21, 4, {.relative_tolerance = 0.2}).passed);
  EXPECT_FALSE(check_initial_loss(ln4 * 0.79, 4, {.relative_tolerance = 0.2}).passed);
}

}  // namespace
}  // namespace mlregress::checks
