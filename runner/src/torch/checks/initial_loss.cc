#include "mlregress/checks/initial_loss.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace mlregress::checks {

InitialLossResult check_initial_loss(double loss, std::int64_t classes,
                                     const InitialLossOptions& options) {
  TORCH_CHECK(classes >= 2, "check_initial_loss: needs at least 2 classes, got ", classes);
  TORCH_CHECK(options.relative_tolerance >= 0.0,
              "check_initial_loss: relative_tolerance must be >= 0, got ",
              options.relative_tolerance);
  InitialLossResult result;
  result.classes = classes;
  result.loss = loss;
  result.expected = std::log(static_cast<double>(classes));
  result.ratio = loss / result.expected;
  result.relative_tolerance = options.relative_tolerance;
  // Written so that a NaN ratio fails: every comparison with NaN is false.
  result.passed =
      std::isfinite(result.ratio) && std::abs(result.ratio - 1.0) <= options.relative_tolerance;
  return result;
}

InitialLossResult check_initial_loss(const torch::Tensor& logits, const torch::Tensor& labels,
                                     const InitialLossOptions& options) {
  TORCH_CHECK(logits.dim() == 2, "check_initial_loss: logits must be [N, C], got ", logits.sizes());
  TORCH_CHECK(labels.dim() == 1 && labels.size(0) == logits.size(0),
              "check_initial_loss: labels must be [N] with N = ", logits.size(0), ", got ",
              labels.sizes());
  torch::NoGradGuard no_grad;
  const torch::Tensor scores = logits.detach().to(torch::kFloat64);
  const double loss = torch::nn::functional::cross_entropy(scores, labels).item<double>();
  InitialLossResult result = check_initial_loss(loss, logits.size(1), options);
  const torch::Tensor mean_probability = torch::softmax(scores, 1).mean(0);
  const double uniform = 1.0 / static_cast<double>(logits.size(1));
  result.mean_prediction_distance = 0.5 * (mean_probability - uniform).abs().sum().item<double>();
  result.most_predicted_class = mean_probability.argmax().item<std::int64_t>();
  result.most_predicted_probability = mean_probability.max().item<double>();
  // loss - loss_explained_by_spread is the mean over examples of mean_k z_k - z_label, whose
  // variance for a label independent of z and uniform is z's variance across the classes.
  result.logit_variance = scores.var(1, /*unbiased=*/false).mean().item<double>();
  result.loss_explained_by_spread =
      (torch::logsumexp(scores, 1) - scores.mean(1)).mean().item<double>();
  result.spread_standard_error =
      std::sqrt(*result.logit_variance / static_cast<double>(logits.size(0)));
  return result;
}

::testing::AssertionResult InitialLossResult::assertion() const {
  std::string text =
      fmt::format("initial loss {:.6g} vs ln({}) = {:.6g}: ratio {:.4f}, allowed 1 +/- {:.4g}",
                  loss, classes, expected, ratio, relative_tolerance);
  if (mean_prediction_distance) {
    text += fmt::format(
        "; mean predicted distribution is {:.4f} (total variation) from uniform, most "
        "predicted class {} at {:.4f} vs uniform {:.4f}",
        *mean_prediction_distance, *most_predicted_class, *most_predicted_probability,
        1.0 / static_cast<double>(classes));
  }
  if (logit_variance && loss_explained_by_spread) {
    text += fmt::format(
        "; the logits vary across classes with mean variance {:.4g}, which alone explains a "
        "loss of {:.6g} on labels independent of them",
        *logit_variance, *loss_explained_by_spread);
  }
  if (passed) return ::testing::AssertionSuccess() << text;
  ::testing::AssertionResult failure = ::testing::AssertionFailure() << text << ". ";
  if (loss_explained_by_spread && spread_standard_error && std::isfinite(loss)) {
    const double excess = loss - *loss_explained_by_spread;
    const double errors = excess / std::max(*spread_standard_error, 1e-12);
    if (std::abs(errors) <= 3.0) {
      // The labels play no part: the logits start too wide (or biased) for the tolerance.
      return failure << fmt::format(
                 "The logits' spread explains the loss, not the labels: the output layer starts "
                 "too wide or biased (scale its initial weights down, zero its bias); if a spread "
                 "this wide is intended, relative_tolerance >= {:.3g} accepts it",
                 std::abs(*loss_explained_by_spread / expected - 1.0));
    }
    failure << fmt::format(
        "The loss is {:.1f} standard errors {} what the logits' spread explains: {}. ",
        std::abs(errors), errors < 0 ? "below" : "above",
        errors < 0 ? "the initial predictions already agree with the labels (labels leaking into "
                     "the inputs, or weights that were trained)"
                   : "the initial predictions disagree with the labels beyond chance (a biased "
                     "output against imbalanced labels, or labels mapped to the wrong classes)");
  }
  return failure << "Inspect output scale, bias initialisation, class balance and the loss "
                    "wiring (CrossEntropyLoss wants logits, not probabilities)";
}

}  // namespace mlregress::checks
