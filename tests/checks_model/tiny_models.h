// Tiny models and one-batch training steps shared by the model-check tests: small enough that
// every test runs in milliseconds, built in statement order so the seed fixes every weight.
#pragma once

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace mlregress::checks::test_models {

inline constexpr std::int64_t kFeatures = 4;
inline constexpr std::int64_t kClasses = 3;

/// Linear -> ReLU -> Linear classifier; `dropout` adds a Dropout(0.5) after the ReLU and
/// `batch_norm` a BatchNorm1d before it.
inline torch::nn::Sequential make_mlp(bool dropout = false, bool batch_norm = false,
                                      std::int64_t hidden = 16) {
  torch::nn::Sequential model;
  model->push_back(torch::nn::Linear(kFeatures, hidden));
  if (batch_norm) model->push_back(torch::nn::BatchNorm1d(hidden));
  model->push_back(torch::nn::ReLU());
  if (dropout) model->push_back(torch::nn::Dropout(0.5));
  model->push_back(torch::nn::Linear(hidden, kClasses));
  return model;
}

struct TinyBatch {
  torch::Tensor inputs;  ///< [n, kFeatures]
  torch::Tensor labels;  ///< [n] in [0, kClasses)
};

inline TinyBatch make_tiny_batch(std::int64_t examples = 16) {
  return {torch::randn({examples, kFeatures}), torch::randint(0, kClasses, {examples})};
}

/// One cross-entropy step on the batch. `zero_grad` false plants the missing-zero_grad bug.
inline torch::Tensor train_step(torch::nn::Sequential& model, torch::optim::Optimizer& optimizer,
                                const TinyBatch& batch, bool zero_grad = true) {
  if (zero_grad) optimizer.zero_grad();
  torch::Tensor loss =
      torch::nn::functional::cross_entropy(model->forward(batch.inputs), batch.labels);
  loss.backward();
  optimizer.step();
  return loss;
}

/// The check's explanation mentions `text` (the messages are part of the contract: they must
/// name the step, the parameter, the value).
inline ::testing::AssertionResult explains(const ::testing::AssertionResult& result,
                                           std::string_view text) {
  const std::string message = result.message();
  if (message.find(text) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "message \"" << message << "\" does not mention \"" << text << "\"";
}

}  // namespace mlregress::checks::test_models

namespace mlregress::checks {

// The helpers every model-check test calls unqualified.
using test_models::explains;
using test_models::make_mlp;
using test_models::make_tiny_batch;
using test_models::train_step;

}  // namespace mlregress::checks
