// Initial loss near ln(C): with roughly uniform predictions over C classes, cross-entropy starts
// at ln(C). A large departure points at output scale, initialisation, class balance or the loss
// wiring (a softmax before CrossEntropyLoss), before any training time is spent.
#pragma once

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdint>
#include <optional>

namespace mlregress::checks {

struct InitialLossOptions {
  double relative_tolerance = 0.1;  ///< pass when |loss / ln(C) - 1| <= this
};

/// What the initial loss was, what ln(C) predicts, and, from logits, how far the model's mean
/// predicted distribution is from uniform.
struct InitialLossResult {
  std::int64_t classes = 0;
  double loss = 0.0;
  double expected = 0.0;  ///< ln(classes)
  double ratio = 0.0;     ///< loss / expected
  double relative_tolerance = 0.0;
  /// Only from logits: total variation distance between the batch-mean softmax and uniform,
  /// 0 (uniform) to 1 - 1/C (all mass on one class).
  std::optional<double> mean_prediction_distance;
  std::optional<std::int64_t> most_predicted_class;  ///< argmax of the batch-mean softmax
  std::optional<double> most_predicted_probability;
  bool passed = false;

  /// Explains the verdict: loss, ln(C), ratio, tolerance and (from logits) the distribution.
  ::testing::AssertionResult assertion() const;
  /// EXPECT_TRUE(check_initial_loss(...)) in one line.
  operator ::testing::AssertionResult() const {
    return assertion();
  }  // NOLINT(google-explicit-constructor)
};

/// Judges a loss value computed before any training step for a C-class problem.
InitialLossResult check_initial_loss(double loss, std::int64_t classes,
                                     const InitialLossOptions& options = {});

/// Computes cross-entropy of `logits` [N, C] against `labels` [N] (C = logits.size(1)) and
/// judges it; also measures how far the mean predicted distribution is from uniform.
InitialLossResult check_initial_loss(const torch::Tensor& logits, const torch::Tensor& labels,
                                     const InitialLossOptions& options = {});

}  // namespace mlregress::checks
