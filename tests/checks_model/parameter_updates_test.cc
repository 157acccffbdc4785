#include "mlregress/checks/parameter_updates.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tiny_models.h"

namespace mlregress::checks {
namespace {

bool lists(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(ParameterUpdates, HealthyStepMovesEveryParameter) {
  torch::manual_seed(0);
  const auto batch = make_tiny_batch();
  auto model = make_mlp();
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  const ParameterUpdateResult result =
      check_parameters_update(*model, [&] { train_step(model, optimizer, batch); });
  EXPECT_TRUE(result);
  EXPECT_EQ(result.parameters.size(), 4u);
  EXPECT_EQ(result.steps_run, 2);
  for (const ParameterUpdate& p : result.parameters) {
    EXPECT_TRUE(p.received_gradient) << p.name;
    EXPECT_TRUE(p.changed) << p.name;
    EXPECT_FALSE(p.gradient_accumulated) << p.name;
  }
}

TEST(ParameterUpdates, HealthySgdWithZeroGradAtTheEndIsNotAccumulation) {
  torch::manual_seed(0);
  const auto batch = make_tiny_batch();
  auto model = make_mlp();
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  const ParameterUpdateResult result = check_parameters_update(
      *model,
      [&] {
        torch::nn::functional::cross_entropy(model->forward(batch.inputs), batch.labels).backward();
        optimizer.step();
        optimizer.zero_grad();
      },
      {.steps = 3});
  EXPECT_TRUE(result);
}

TEST(ParameterUpdates, FrozenParameterIsNamed) {
  // Planted bug: one bias left with requires_grad=false.
  torch::manual_seed(0);
  const auto batch = make_tiny_batch();
  auto model = make_mlp();
  model->named_parameters()["0.bias"].set_requires_grad(false);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  const ParameterUpdateResult result =
      check_parameters_update(*model, [&] { train_step(model, optimizer, batch); });
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.unchanged, std::vector<std::string>{"0.bias"});
  EXPECT_EQ(result.without_gradient, std::vector<std::string>{"0.bias"});
  EXPECT_TRUE(explains(result, "0.bias [16] has requires_grad=false"));
}

TEST(ParameterUpdates, IntentionallyFrozenParameterPasses) {
  torch::manual_seed(0);
  const auto batch = make_tiny_batch();
  auto model = make_mlp();
  model->named_parameters()["0.bias"].set_requires_grad(false);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  const ParameterUpdateResult result = check_parameters_update(
      *model, [&] { train_step(model, optimizer, batch); }, {.frozen = {"0.bias"}});
  EXPECT_TRUE(result);
}

TEST(ParameterUpdates, OptimizerOverAnotherModelsParametersIsCaught) {
  // Planted bug: Adam(make_model().parameters()) -- gradients flow, nothing moves.
  torch::manual_seed(0);
  const auto batch = make_tiny_batch();
  auto model = make_mlp();
  auto other = make_mlp();
  torch::optim::Adam optimizer(other->parameters(), torch::optim::AdamOptions(1e-3));
  const ParameterUpdateResult result = check_parameters_update(
      *model,
      [&] {
        optimizer.zero_grad();
        torch::nn::functional::cross_entropy(model->forward(batch.inputs), batch.labels).backward();
        optimizer.step();
      },
      {.steps = 1});
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.unchanged.size(), 4u);
  EXPECT_TRUE(result.without_gradient.empty());
  EXPECT_TRUE(explains(result, "2.weight [3, 16] did not change"));
  EXPECT_TRUE(explains(result, "not in the optimizer's parameter list"));
}

TEST(ParameterUpdates, EveryParameterFrozenIsAClearFailureNotACrash) {
  // Planted bug: the whole model frozen; backward() throws a c10::Error.
  torch::manual_seed(0);
  const auto batch = make_tiny_batch();
  auto model = make_mlp();
  for (auto& p : model->parameters()) p.set_requires_grad(false);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  const ParameterUpdateResult result =
      check_parameters_update(*model, [&] { train_step(model, optimizer, batch); });
  EXPECT_FALSE(result.passed);
  ASSERT_TRUE(result.step_error.has_value());
  EXPECT_EQ(result.steps_run, 0);
  EXPECT_TRUE(explains(result, "training step 0 threw"));
  EXPECT_TRUE(explains(result, "does not require grad"));
  EXPECT_TRUE(explains(result, "every parameter is frozen"));
}

TEST(ParameterUpdates, MissingZeroGradIsCaughtOverTwoSteps) {
  // Planted bug: no zero_grad, so each step's gradient adds to the last one.
  torch::manual_seed(0);
  const auto batch = make_tiny_batch();
  auto model = make_mlp();
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  const ParameterUpdateResult result = check_parameters_update(
      *model, [&] { train_step(model, optimizer, batch, /*zero_grad=*/false); });
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.accumulated_gradient.size(), 4u);
  EXPECT_TRUE(result.unchanged.empty());
  EXPECT_TRUE(explains(result, "missing zero_grad"));
}

TEST(ParameterUpdates, MissingZeroGradUnderAdamIsCaught) {
  torch::manual_seed(0);
  const auto batch = make_tiny_batch();
  auto model = make_mlp();
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(1e-3).weight_decay(1e-2));
  const ParameterUpdateResult result = check_parameters_update(
      *model, [&] { train_step(model, optimizer, batch, /*zero_grad=*/false); });
  EXPECT_FALSE(result.passed);
  EXPECT_TRUE(lists(result.accumulated_gradient, "0.weight"));
}

// A model whose second head never reaches the loss.
struct TwoHeadsImpl : torch::nn::Module {
  TwoHeadsImpl()
      : used(register_module("used",
                             torch::nn::Linear(test_models::kFeatures, test_models::kClasses))),
        unused(register_module("unused", torch::nn::Linear(test_models::kFeatures, 1))) {}
  torch::Tensor forward(const torch::Tensor& x) { return used->forward(x); }
  torch::nn::Linear used;
  torch::nn::Linear unused;
};
TORCH_MODULE(TwoHeads);

TEST(ParameterUpdates, ParameterOutsideTheGraphHasNoGradient) {
  torch::manual_seed(0);
  const auto batch = make_tiny_batch();
  TwoHeads model;
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  const ParameterUpdateResult result = check_parameters_update(*model, [&] {
    optimizer.zero_grad();
    torch::nn::functional::cross_entropy(model->forward(batch.inputs), batch.labels).backward();
    optimizer.step();
  });
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.without_gradient, (std::vector<std::string>{"unused.weight", "unused.bias"}));
  EXPECT_TRUE(explains(result, "unused.weight [1, 4] received no gradient"));
}

TEST(ParameterUpdates, EpsilonIgnoresTinyChanges) {
  torch::manual_seed(0);
  const auto batch = make_tiny_batch();
  auto model = make_mlp();
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(1e-9));
  const ParameterUpdateResult result = check_parameters_update(
      *model, [&] { train_step(model, optimizer, batch); }, {.epsilon = 1e-6});
  EXPECT_FALSE(result.passed);
  EXPECT_EQ(result.unchanged.size(), 4u);
}

}  // namespace
}  // namespace mlregress::checks
