#include "mlregress/checks/finite_monitor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tiny_models.h"

namespace mlregress::checks {
namespace {

// A linear regression trained with plain SGD; lr 0.05 converges, lr x1000 diverges to inf/NaN.
struct Regression {
  torch::nn::Linear model{test_models::kFeatures, 1};
  torch::Tensor inputs = torch::randn({32, test_models::kFeatures});
  torch::Tensor targets = inputs.sum(1, /*keepdim=*/true);
};

FiniteResult train_regression(double lr, int steps) {
  torch::manual_seed(0);
  Regression problem;
  torch::optim::SGD optimizer(problem.model->parameters(), torch::optim::SGDOptions(lr));
  FiniteMonitor finite;
  for (int step = 0; step < steps; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss =
        torch::nn::functional::mse_loss(problem.model->forward(problem.inputs), problem.targets);
    loss.backward();
    optimizer.step();
    if (!finite.observe(step, loss, *problem.model)) break;
  }
  return finite.result();
}

TEST(FiniteMonitor, HealthyTrainingStaysFinite) {
  const FiniteResult result = train_regression(0.05, 100);
  EXPECT_TRUE(result);
  EXPECT_EQ(result.steps_observed, 100);
  EXPECT_FALSE(result.first_bad_step.has_value());
}

TEST(FiniteMonitor, HealthyClassifierStaysFinite) {
  torch::manual_seed(0);
  const auto batch = make_tiny_batch();
  auto model = make_mlp();
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-2));
  FiniteMonitor finite;
  for (int step = 0; step < 30; ++step) {
    const torch::Tensor loss = train_step(model, optimizer, batch);
    ASSERT_TRUE(finite.observe(step, loss, *model));
  }
}

TEST(FiniteMonitor, LearningRateTimesThousandIsCaught) {
  // Planted bug: lr 50 instead of 0.05. The weights overflow within a few dozen steps.
  const FiniteResult result = train_regression(50.0, 200);
  EXPECT_FALSE(result.passed);
  ASSERT_TRUE(result.first_bad_step.has_value());
  EXPECT_LT(*result.first_bad_step, 200);
  ASSERT_TRUE(result.first_bad_tensor.has_value());
  EXPECT_GT(result.first_bad_tensor->non_finite_count, 0);
  EXPECT_TRUE(explains(result, "step " + std::to_string(*result.first_bad_step) + ": "));
}

TEST(FiniteMonitor, NamesTheFirstBadTensorShapeCountAndIndex) {
  // Planted: two NaNs in one weight after step 3; the loss of that step is still finite.
  torch::manual_seed(0);
  const auto batch = make_tiny_batch();
  auto model = make_mlp();
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  FiniteMonitor finite;
  for (int step = 0; step < 6; ++step) {
    const torch::Tensor loss = train_step(model, optimizer, batch);
    if (step == 3) {
      torch::NoGradGuard no_grad;
      model->named_parameters()["2.weight"].index_put_({1, 5}, std::nanf(""));
      model->named_parameters()["2.weight"].index_put_({2, 0},
                                                       std::numeric_limits<float>::infinity());
    }
    finite.observe(step, loss, *model);
  }
  const FiniteResult& result = finite.result();
  EXPECT_EQ(result.steps_observed, 6);
  ASSERT_EQ(result.first_bad_step, 3);
  ASSERT_TRUE(result.first_bad_tensor.has_value());
  const NonFiniteTensor& bad = *result.first_bad_tensor;
  EXPECT_EQ(bad.name, "parameter 2.weight");
  EXPECT_EQ(bad.shape, (std::vector<std::int64_t>{3, 16}));
  EXPECT_EQ(bad.non_finite_count, 2);
  EXPECT_EQ(bad.first_index, (std::vector<std::int64_t>{1, 5}));
  EXPECT_TRUE(std::isnan(bad.first_value));
  EXPECT_TRUE(explains(result,
                       "step 3: parameter 2.weight (shape [3, 16], Float) has 2 "
                       "non-finite of 48 elements; first at [1, 5] = nan"));
}

TEST(FiniteMonitor, LossIsCheckedFirst) {
  torch::manual_seed(0);
  auto model = make_mlp();
  FiniteMonitor finite;
  EXPECT_TRUE(finite.observe(0, 1.5, *model));
  EXPECT_FALSE(finite.observe(1, std::numeric_limits<double>::quiet_NaN(), *model));
  EXPECT_EQ(finite.result().first_bad_step, 1);
  EXPECT_EQ(finite.result().first_bad_tensor->name, "loss");
  // Later steps are counted; the first bad step stays the first.
  EXPECT_FALSE(finite.observe(2, 1.0, *model));
  EXPECT_EQ(finite.result().steps_observed, 3);
  EXPECT_EQ(finite.result().first_bad_step, 1);
}

TEST(FiniteMonitor, NonFiniteGradientIsNamed) {
  torch::manual_seed(0);
  auto model = make_mlp();
  const torch::Tensor loss = (model->forward(torch::randn({2, test_models::kFeatures})) *
                              std::numeric_limits<float>::infinity())
                                 .sum();
  loss.backward();
  FiniteMonitor finite;
  EXPECT_FALSE(finite.observe(0, 0.0, *model));
  ASSERT_TRUE(finite.result().first_bad_tensor.has_value());
  EXPECT_EQ(finite.result().first_bad_tensor->name.rfind("gradient of ", 0), 0u);
}

}  // namespace
}  // namespace mlregress::checks
