#include "mlregress/checks/initial_loss.h"

#include <fmt/format.h>

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
  if (passed) return ::testing::AssertionSuccess() << text;
  return ::testing::AssertionFailure()
         << text
         << ". Inspect output scale, bias initialisation, class balance and the loss wiring "
            "(CrossEntropyLoss wants logits, not probabilities)";
}

}  // namespace mlregress::checks
