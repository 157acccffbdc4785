// Dumb baselines: before a model's accuracy means anything, it must beat what needs no model.
// Two are computed on the test's own data: always answering the most common class of the
// *training* labels (scored on the evaluation labels), and a linear model (softmax regression on
// the flattened inputs) trained on the training split. A model that does no better than these
// learned nothing its architecture was for: a hidden layer lost, features the model never sees.
#pragma once

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdint>
#include <string_view>

#include "mlregress/metric.h"

namespace mlregress::checks {

/// The linear baseline's training: full-batch Adam on cross-entropy, from torch's global RNG
/// (the weights are drawn after whatever the caller seeded; nothing is seeded here).
struct LinearBaselineOptions {
  std::int64_t steps = 300;
  double learning_rate = 0.05;
  double weight_decay = 0.0;
};

struct DumbBaselines {
  std::int64_t classes = 0;         ///< 1 + the largest label of either split
  std::int64_t majority_class = 0;  ///< the most common training label (ties: the lowest)
  double majority_accuracy = 0.0;   ///< share of evaluation labels equal to majority_class
  double linear_accuracy = 0.0;     ///< the linear model's accuracy on the evaluation split
  double linear_loss = 0.0;         ///< its cross-entropy on the evaluation split
};

/// Both baselines. Inputs are [N, ...] (flattened to [N, F]); labels are class indices [N].
/// Throws std::invalid_argument for empty splits or sizes that do not match.
DumbBaselines dumb_baselines(const torch::Tensor& train_inputs, const torch::Tensor& train_labels,
                             const torch::Tensor& eval_inputs, const torch::Tensor& eval_labels,
                             const LinearBaselineOptions& options = {});

/// How far above each baseline the model must be, in absolute accuracy points: a margin of 0.05
/// over a majority rate of 0.9 asks for 0.95, not 0.945 (a relative margin would shrink exactly
/// where the majority is large and easy to mistake for learning).
struct BaselineMargin {
  double over_majority = 0.05;
  double over_linear = 0.0;
};

/// EXPECT_TRUE(beats_dumb_baselines(accuracy, baselines)): passes when the model's accuracy is
/// above majority_accuracy + over_majority and above linear_accuracy + over_linear; the message
/// gives the three accuracies and the margins either way.
::testing::AssertionResult beats_dumb_baselines(double model_accuracy,
                                                const DumbBaselines& baselines,
                                                const BaselineMargin& margin = {});

/// Records <name>.majority_accuracy and <name>.linear_accuracy (MustEqual) and
/// <name>.margin_over_linear = model_accuracy - linear_accuracy (HigherIsBetter), each with
/// `policy` (default Band atol 0.03; `Exact{}` keeps one value per numerics profile, for a
/// baseline committed before the band's spread has been measured on other CPUs).
void record_dumb_baselines(std::string_view name, const DumbBaselines& baselines,
                           double model_accuracy, TolerancePolicy policy = Band{.atol = 0.03});

}  // namespace mlregress::checks
