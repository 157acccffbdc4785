// Train/eval mode: evaluation must be deterministic and must differ from training-mode output
// only through layers that are meant to (dropout, batch norm). A validation number that changes
// from call to call means validation ran in train mode, with dropout still on.
#pragma once

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

namespace mlregress::checks {

/// A forward pass of the model under test: the checks cannot call Module::forward generically.
using ForwardFunction = std::function<torch::Tensor(const torch::Tensor&)>;

struct TrainEvalResult {
  /// torch::nn submodules whose output depends on is_training() (Dropout*, AlphaDropout,
  /// BatchNorm*, InstanceNorm*), as "name (Type)".
  std::vector<std::string> mode_dependent_layers;
  bool eval_deterministic = false;  ///< two eval-mode calls gave bit-identical output
  double eval_max_abs_difference = 0.0;
  bool train_differs_from_eval = false;
  double train_eval_max_abs_difference = 0.0;
  bool passed = false;

  /// Explains a nondeterministic eval output, or a train/eval difference that no dropout or
  /// batch-norm layer accounts for.
  ::testing::AssertionResult assertion() const;
  operator ::testing::AssertionResult() const {
    return assertion();
  }  // NOLINT(google-explicit-constructor)
};

/// Runs `forward(input)` twice in eval mode and once in train mode, without gradients. The
/// module's training flag, its buffers (batch-norm running statistics) and the CPU generator's
/// state are restored afterwards, so the check leaves no trace on the run it sits in. The module
/// may be held any way: by value (`Net net; check_train_eval_modes(net, forward, x)`), through a
/// shared_ptr or a module holder (`*model`). Every check of mlregress/checks that takes a
/// torch::nn::Module& accepts a module held by value.
TrainEvalResult check_train_eval_modes(torch::nn::Module& module, const ForwardFunction& forward,
                                       const torch::Tensor& input);

/// The same for a module holder with forward(Tensor), e.g. torch::nn::Sequential.
template <typename ModuleHolder>
TrainEvalResult check_train_eval_modes(ModuleHolder& model, const torch::Tensor& input) {
  return check_train_eval_modes(
      *model, [&model](const torch::Tensor& x) { return model->forward(x); }, input);
}

struct ValidationRepeatabilityResult {
  double first = 0.0;
  double second = 0.0;
  bool passed = false;  ///< bit-identical, NaN never passes

  ::testing::AssertionResult assertion() const;
  operator ::testing::AssertionResult() const {
    return assertion();
  }  // NOLINT(google-explicit-constructor)
};

/// Calls the user's validation function twice; a frozen evaluation of a frozen model must give
/// the same number both times. It differs when dropout is left on (validation in train mode),
/// when batch-norm statistics are updated by validation, or when the evaluation set is resampled.
ValidationRepeatabilityResult check_validation_repeatable(const std::function<double()>& validate);

}  // namespace mlregress::checks
