#include "mlregress/checks/train_eval_mode.h"

#include <gtest/gtest.h>

#include "tiny_models.h"

namespace mlregress::checks {
namespace {

using test_models::explains;
using test_models::kFeatures;
using test_models::make_mlp;
using test_models::make_tiny_batch;

TEST(TrainEvalModes, ModelWithoutModeDependentLayersPasses) {
  torch::manual_seed(0);
  auto model = make_mlp();
  const TrainEvalResult result = check_train_eval_modes(model, torch::randn({8, kFeatures}));
  EXPECT_TRUE(result);
  EXPECT_TRUE(result.eval_deterministic);
  EXPECT_FALSE(result.train_differs_from_eval);
  EXPECT_TRUE(result.mode_dependent_layers.empty());
}

TEST(TrainEvalModes, DropoutAndBatchNormExplainTheDifference) {
  torch::manual_seed(0);
  auto model = make_mlp(/*dropout=*/true, /*batch_norm=*/true);
  const TrainEvalResult result = check_train_eval_modes(model, torch::randn({8, kFeatures}));
  EXPECT_TRUE(result);
  EXPECT_TRUE(result.train_differs_from_eval);
  EXPECT_EQ(result.mode_dependent_layers,
            (std::vector<std::string>{"1 (BatchNorm1d)", "3 (Dropout)"}));
}

TEST(TrainEvalModes, CheckLeavesNoTraceOnModeBuffersOrGenerator) {
  torch::manual_seed(0);
  auto model = make_mlp(/*dropout=*/true, /*batch_norm=*/true);
  const torch::Tensor input = torch::randn({8, kFeatures});
  model->train();
  const torch::Tensor running_mean = model->named_buffers()["1.running_mean"].clone();
  torch::manual_seed(7);
  const torch::Tensor expected_next = torch::rand({4});
  torch::manual_seed(7);
  EXPECT_TRUE(check_train_eval_modes(model, input));
  EXPECT_TRUE(torch::equal(torch::rand({4}), expected_next));
  EXPECT_TRUE(model->is_training());
  EXPECT_TRUE(torch::equal(model->named_buffers()["1.running_mean"], running_mean));
}

// A model held by value, as much third-party code holds it (no shared_ptr owns it): the check
// works on it (planted: the root looked up through named_modules(include_self = true), which
// throws c10::Error "shared_from_this" for such a module).
struct ValueNet : torch::nn::Module {
  ValueNet()
      : fc(register_module("fc", torch::nn::Linear(kFeatures, 3))),
        drop(register_module("drop", torch::nn::Dropout(0.5))) {}
  torch::Tensor forward(const torch::Tensor& x) { return drop->forward(fc->forward(x)); }
  torch::nn::Linear fc;
  torch::nn::Dropout drop;
};

TEST(TrainEvalModes, AModelHeldByValueIsChecked) {
  torch::manual_seed(0);
  ValueNet net;
  const TrainEvalResult result = check_train_eval_modes(
      net, [&net](const torch::Tensor& x) { return net.forward(x); }, torch::randn({8, kFeatures}));
  EXPECT_TRUE(result);
  EXPECT_EQ(result.mode_dependent_layers, (std::vector<std::string>{"drop (Dropout)"}));
  EXPECT_TRUE(result.train_differs_from_eval);
  // A mode-dependent layer that is itself the root, held by value.
  torch::nn::DropoutImpl dropout(0.5);
  const TrainEvalResult root = check_train_eval_modes(
      dropout, [&dropout](const torch::Tensor& x) { return dropout.forward(x); },
      torch::randn({8, kFeatures}));
  EXPECT_EQ(root.mode_dependent_layers, (std::vector<std::string>{"(root) (Dropout)"}));
}

// Planted bug: dropout applied through the functional form with training hard-wired to true.
struct AlwaysDropoutImpl : torch::nn::Module {
  AlwaysDropoutImpl() : fc(register_module("fc", torch::nn::Linear(kFeatures, 3))) {}
  torch::Tensor forward(const torch::Tensor& x) {
    return fc->forward(torch::dropout(x, 0.5, /*train=*/true));
  }
  torch::nn::Linear fc;
};
TORCH_MODULE(AlwaysDropout);

// The check on a planted module built and fed from seed 0.
template <typename PlantedModule>
TrainEvalResult check_planted_module() {
  torch::manual_seed(0);
  PlantedModule model;
  return check_train_eval_modes(model, torch::randn({8, kFeatures}));
}

TEST(TrainEvalModes, SamplingInEvalModeIsCaught) {
  const TrainEvalResult result = check_planted_module<AlwaysDropout>();
  EXPECT_FALSE(result.passed);
  EXPECT_FALSE(result.eval_deterministic);
  EXPECT_GT(result.eval_max_abs_difference, 0.0);
  EXPECT_TRUE(result.mode_dependent_layers.empty()) << "a custom module is not a dropout layer";
  EXPECT_TRUE(explains(result, "eval-mode forward is not deterministic"));
}

// Planted bug: a module that changes its output in training without any dropout or batch norm.
struct ModeBranchImpl : torch::nn::Module {
  ModeBranchImpl() : fc(register_module("fc", torch::nn::Linear(kFeatures, 3))) {}
  torch::Tensor forward(const torch::Tensor& x) {
    const torch::Tensor y = fc->forward(x);
    return is_training() ? 2 * y : y;
  }
  torch::nn::Linear fc;
};
TORCH_MODULE(ModeBranch);

TEST(TrainEvalModes, UnexplainedTrainEvalDifferenceIsCaught) {
  const TrainEvalResult result = check_planted_module<ModeBranch>();
  EXPECT_FALSE(result.passed);
  EXPECT_TRUE(result.eval_deterministic);
  EXPECT_TRUE(explains(result, "no dropout or batch-norm layer to explain it"));
}

double accuracy(torch::nn::Sequential& model, const test_models::TinyBatch& batch) {
  torch::NoGradGuard no_grad;
  return model->forward(batch.inputs)
      .argmax(1)
      .eq(batch.labels)
      .to(torch::kFloat64)
      .mean()
      .item<double>();
}

double mean_loss(torch::nn::Sequential& model, const test_models::TinyBatch& batch) {
  torch::NoGradGuard no_grad;
  return torch::nn::functional::cross_entropy(model->forward(batch.inputs), batch.labels)
      .item<double>();
}

TEST(ValidationRepeatable, EvalModeValidationIsRepeatable) {
  torch::manual_seed(0);
  const auto validation = make_tiny_batch(64);
  auto model = make_mlp(/*dropout=*/true);
  const ValidationRepeatabilityResult result = check_validation_repeatable([&] {
    model->eval();
    const double loss = mean_loss(model, validation);
    model->train();
    return loss;
  });
  EXPECT_TRUE(result);
  EXPECT_EQ(result.first, result.second);
}

TEST(ValidationRepeatable, ValidationInTrainModeIsCaught) {
  // Planted bug: validation forgets model->eval(), so dropout stays on.
  torch::manual_seed(0);
  const auto validation = make_tiny_batch(64);
  auto model = make_mlp(/*dropout=*/true);
  model->train();
  const ValidationRepeatabilityResult result =
      check_validation_repeatable([&] { return mean_loss(model, validation); });
  EXPECT_FALSE(result.passed);
  EXPECT_NE(result.first, result.second);
  EXPECT_TRUE(explains(result, "eval() mode"));
}

TEST(ValidationRepeatable, NonFiniteValidationFails) {
  EXPECT_FALSE(check_validation_repeatable([] { return std::nan(""); }).passed);
  torch::manual_seed(0);
  const auto validation = make_tiny_batch(64);
  auto model = make_mlp();
  EXPECT_TRUE(check_validation_repeatable([&] { return accuracy(model, validation); }));
}

}  // namespace
}  // namespace mlregress::checks
