// The permuted-label leak test: labels scrambled once at the source carry no information, so a
// model trained on them must score at chance on validation data. Validation accuracy above
// chance (one-sided exact binomial test) means validation examples reach training: a leak.
#pragma once

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <optional>

namespace mlregress::checks {

/// What the user's pipeline hands to training: the splits, with labels as class indices.
struct LabeledSplits {
  torch::Tensor train_inputs;
  torch::Tensor train_labels;
  torch::Tensor validation_inputs;
  torch::Tensor validation_labels;
};

/// Predicted class indices for the training and the validation inputs.
struct SplitPredictions {
  torch::Tensor train;
  torch::Tensor validation;
};

/// The pipeline under test: builds train/validation splits from the source (inputs, labels),
/// exactly as it does in production (oversampling, grouping, splitting...).
using SplitPipeline =
    std::function<LabeledSplits(const torch::Tensor& inputs, const torch::Tensor& labels)>;
/// Trains a fresh model on the training split and predicts both splits.
using TrainAndPredict = std::function<SplitPredictions(const LabeledSplits& splits)>;
/// Scrambles the labels at the unit the leak would copy; the default permutes examples.
using LabelScrambler = std::function<torch::Tensor(const torch::Tensor& labels)>;

struct LeakTestOptions {
  double alpha = 0.01;                      ///< one-sided significance level
  std::optional<std::int64_t> num_classes;  ///< default: 1 + the largest label seen
  /// Default: labels[torch::randperm(n)] with torch's global generator (the test's seed). Use a
  /// per-group permutation or a shift of the whole sequence when the leak copies groups or time.
  LabelScrambler scramble_labels;
};

struct LeakTestResult {
  double train_accuracy = 0.0;       ///< high: the model memorised the meaningless labels
  double validation_accuracy = 0.0;  ///< must be at chance
  std::int64_t validation_correct = 0;
  std::int64_t validation_size = 0;
  std::int64_t num_classes = 0;
  double majority_rate = 0.0;  ///< always answering validation's most common class
  double chance_rate = 0.0;    ///< max(1 / num_classes, majority_rate)
  double p_value = 1.0;        ///< P(X >= validation_correct), X ~ Binomial(n, chance)
  double alpha = 0.01;
  bool leak = false;  ///< p_value < alpha
};

/// One-sided exact binomial test: P(X >= successes) for X ~ Binomial(trials, rate).
double binomial_upper_tail_p(std::int64_t successes, std::int64_t trials, double rate);

/// Judges predictions already made on splits built from scrambled labels.
LeakTestResult judge_permuted_labels(const torch::Tensor& train_predictions,
                                     const torch::Tensor& train_labels,
                                     const torch::Tensor& validation_predictions,
                                     const torch::Tensor& validation_labels,
                                     const LeakTestOptions& options = {});

/// The whole test: scramble the source labels once, run the pipeline, train and predict, judge.
LeakTestResult permuted_label_leak_test(const torch::Tensor& inputs, const torch::Tensor& labels,
                                        const SplitPipeline& pipeline,
                                        const TrainAndPredict& train_and_predict,
                                        const LeakTestOptions& options = {});

/// EXPECT_TRUE(no_leak(result)): explains train and validation accuracy, the chance rate, the
/// number correct, the p-value and alpha.
::testing::AssertionResult no_leak(const LeakTestResult& result);

}  // namespace mlregress::checks
