// Initial loss near ln(C): with roughly uniform predictions over C classes, cross-entropy starts
// at ln(C). A large departure points at output scale, initialisation, class balance or the loss
// wiring (a softmax before CrossEntropyLoss), before any training time is spent.
//
// What the default tolerance (10%) assumes. Before training, the predictions carry no
// information about the labels, so the expected loss depends on the logits alone: for logits z
// of an example, cross-entropy averaged over labels drawn independently of z is
// logsumexp(z) - mean_k z_k, which to second order is ln(C) + v/2, v the variance of z across
// the C classes. Label balance does not enter while the mean prediction is near uniform (at
// uniform predictions every label costs ln C); class-imbalanced labels against a biased output do.
// So the check passes a model whose initial logits vary across classes by
//     v <= 2 * 0.1 * ln(C):  v <= 0.14 (C = 2), 0.28 (C = 4), 0.46 (C = 10),
// i.e. a logit standard deviation up to about 0.53 (C = 2), 0.61 (C = 4), 0.71 (C = 10) with
// independent logits. PyTorch's default Linear initialisation gives a last layer whose logits
// have variance E[h^2] / 3 over inputs h; inputs with E[h^2] above about 1.2 (C = 2) — features
// after max-pooling, unnormalised embeddings, sums over tokens — start wider than that and a
// healthy model can fail on some seeds. The result reports v and the loss it alone explains, so
// a failure says whether the logits' spread or their relation to the labels is the cause; such a
// model needs relative_tolerance >= v / (2 ln C) or a narrower last-layer initialisation.
// Measured on the example suites and on real-sized text models: runner/docs/checks.md#initial-loss.
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
  /// Only from logits: the variance of an example's logits across the classes, averaged over
  /// the batch (v above).
  std::optional<double> logit_variance;
  /// Only from logits: the loss these logits would have on labels independent of them, drawn
  /// uniformly (mean over examples of logsumexp(z) - mean_k z_k; about ln C + v/2). The spread
  /// of the logits explains a loss near it; a loss far from it comes from how the predictions
  /// relate to the labels (labels leaking into the inputs; imbalance against a biased output).
  std::optional<double> loss_explained_by_spread;
  /// Only from logits: the standard error of the loss around loss_explained_by_spread when the
  /// labels are independent of the logits and uniform (sqrt(v / N) over N examples). The
  /// explanation calls the spread the cause when the loss lies within 3 of them.
  std::optional<double> spread_standard_error;
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
