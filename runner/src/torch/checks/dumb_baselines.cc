#include "mlregress/checks/dumb_baselines.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "mlregress/ml_test.h"

namespace mlregress::checks {
namespace {

void check_split(const torch::Tensor& inputs, const torch::Tensor& labels, const char* split) {
  if (!inputs.defined() || !labels.defined() || labels.numel() == 0) {
    throw std::invalid_argument(fmt::format("dumb_baselines: the {} split is empty", split));
  }
  if (inputs.size(0) != labels.numel()) {
    throw std::invalid_argument(fmt::format("dumb_baselines: {} {} inputs for {} labels", split,
                                            inputs.size(0), labels.numel()));
  }
}

// The most common label; ties go to the lowest class.
std::int64_t most_common(const torch::Tensor& labels, std::int64_t classes) {
  const torch::Tensor counts = torch::bincount(labels, {}, classes);
  std::int64_t best = 0;
  for (std::int64_t k = 1; k < classes; ++k) {
    if (counts[k].item<std::int64_t>() > counts[best].item<std::int64_t>()) best = k;
  }
  return best;
}

struct LinearScore {
  double accuracy = 0.0;
  double loss = 0.0;
};

// Softmax regression on the flattened inputs, trained full batch.
LinearScore linear_baseline(const torch::Tensor& train_x, const torch::Tensor& train_y,
                            const torch::Tensor& eval_x, const torch::Tensor& eval_y,
                            std::int64_t classes, const LinearBaselineOptions& options) {
  torch::nn::Linear model(train_x.size(1), classes);
  torch::optim::Adam optimizer(
      model->parameters(),
      torch::optim::AdamOptions(options.learning_rate).weight_decay(options.weight_decay));
  for (std::int64_t step = 0; step < options.steps; ++step) {
    optimizer.zero_grad();
    torch::nn::functional::cross_entropy(model->forward(train_x), train_y).backward();
    optimizer.step();
  }
  torch::NoGradGuard no_grad;
  const torch::Tensor logits = model->forward(eval_x);
  return {logits.argmax(1).eq(eval_y).to(torch::kDouble).mean().item<double>(),
          torch::nn::functional::cross_entropy(logits, eval_y).item<double>()};
}

}  // namespace

DumbBaselines dumb_baselines(const torch::Tensor& train_inputs, const torch::Tensor& train_labels,
                             const torch::Tensor& eval_inputs, const torch::Tensor& eval_labels,
                             const LinearBaselineOptions& options) {
  check_split(train_inputs, train_labels, "training");
  check_split(eval_inputs, eval_labels, "evaluation");
  const torch::Tensor train_y = train_labels.reshape(-1).to(torch::kCPU, torch::kLong);
  const torch::Tensor eval_y = eval_labels.reshape(-1).to(torch::kCPU, torch::kLong);
  if (std::min(train_y.min().item<std::int64_t>(), eval_y.min().item<std::int64_t>()) < 0) {
    throw std::invalid_argument("dumb_baselines: a negative class index");
  }
  DumbBaselines result;
  result.classes =
      1 + std::max(train_y.max().item<std::int64_t>(), eval_y.max().item<std::int64_t>());
  // The majority comes from training only: taking it from the evaluation labels would let the
  // baseline see the answers it is scored on.
  result.majority_class = most_common(train_y, result.classes);
  result.majority_accuracy =
      eval_y.eq(result.majority_class).to(torch::kDouble).mean().item<double>();
  const torch::Tensor train_x =
      train_inputs.detach().to(torch::kCPU, torch::kFloat).reshape({train_y.numel(), -1});
  const torch::Tensor eval_x =
      eval_inputs.detach().to(torch::kCPU, torch::kFloat).reshape({eval_y.numel(), -1});
  if (train_x.size(1) != eval_x.size(1)) {
    throw std::invalid_argument(
        fmt::format("dumb_baselines: {} features in training, {} in evaluation", train_x.size(1),
                    eval_x.size(1)));
  }
  const LinearScore linear =
      linear_baseline(train_x, train_y, eval_x, eval_y, result.classes, options);
  result.linear_accuracy = linear.accuracy;
  result.linear_loss = linear.loss;
  return result;
}

::testing::AssertionResult beats_dumb_baselines(double model_accuracy,
                                                const DumbBaselines& baselines,
                                                const BaselineMargin& margin) {
  const bool over_majority = model_accuracy > baselines.majority_accuracy + margin.over_majority;
  const bool over_linear = model_accuracy > baselines.linear_accuracy + margin.over_linear;
  const std::string numbers = fmt::format(
      "model accuracy {:.4f}; always class {} (the training majority) {:.4f}, needs +{:g}; "
      "linear model {:.4f}, needs +{:g}",
      model_accuracy, baselines.majority_class, baselines.majority_accuracy, margin.over_majority,
      baselines.linear_accuracy, margin.over_linear);
  if (over_majority && over_linear) {
    return ::testing::AssertionSuccess() << "beats the dumb baselines: " << numbers;
  }
  const char* lost = !over_majority && !over_linear ? "the majority class or a linear model"
                     : !over_majority               ? "the majority class"
                                                    : "a linear model";
  return ::testing::AssertionFailure() << "no better than " << lost << ": " << numbers;
}

void record_dumb_baselines(std::string_view name, const DumbBaselines& baselines,
                           double model_accuracy, TolerancePolicy policy) {
  MlTest::record(fmt::format("{}.majority_accuracy", name), baselines.majority_accuracy,
                 Direction::MustEqual, policy);
  MlTest::record(fmt::format("{}.linear_accuracy", name), baselines.linear_accuracy,
                 Direction::MustEqual, policy);
  MlTest::record(fmt::format("{}.margin_over_linear", name),
                 model_accuracy - baselines.linear_accuracy, Direction::HigherIsBetter, policy);
}

}  // namespace mlregress::checks
