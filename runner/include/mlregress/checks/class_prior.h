// Above the class prior: a classifier that answers the most common class scores the majority
// rate without looking at its inputs. On labels that are 85% one class, 0.85 accuracy is what a
// model that learned nothing gets (inputs zeroed by a broken preprocessing step, a feature
// column dropped), and the loss still falls: from ln C to the entropy of the label prior. The
// check asks for accuracy clearly above the majority rate, by a margin and by an exact one-sided
// binomial test, and shows the confusion matrix: a model that learned the prior predicts one
// class for nearly every example.
#pragma once

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "mlregress/confusion.h"

namespace mlregress::checks {

struct ClassPriorOptions {
  /// Accuracy must exceed the majority rate by more than this many absolute points.
  double min_margin = 0.02;
  /// ... and P(X >= correct), X ~ Binomial(examples, majority rate), must be at most alpha.
  double alpha = 0.01;
};

struct ClassPriorResult {
  ConfusionMatrix confusion;
  double margin = 0.0;   ///< accuracy - majority rate
  double p_value = 1.0;  ///< one-sided exact binomial, against the majority rate
  double min_margin = 0.02;
  double alpha = 0.01;
  bool passed = false;
  /// The verdict with the accuracy, the majority rate, the margin, p, the class the predictions
  /// crowd into ("predicts class 1 for 97% of examples") and the matrix.
  ::testing::AssertionResult assertion() const;
  operator ::testing::AssertionResult() const { return assertion(); }  // NOLINT
};

/// Judges class predictions against their targets (any shapes with the same number of
/// elements, integer class indices). Throws std::invalid_argument for an empty set, sizes that
/// differ or a negative class.
ClassPriorResult check_above_class_prior(const torch::Tensor& predicted,
                                         const torch::Tensor& target,
                                         const ClassPriorOptions& options = {});
ClassPriorResult check_above_class_prior(const std::vector<std::int64_t>& predicted,
                                         const std::vector<std::int64_t>& target,
                                         const ClassPriorOptions& options = {});

}  // namespace mlregress::checks
