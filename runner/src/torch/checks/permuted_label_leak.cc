#include "mlregress/checks/permuted_label_leak.h"

#include <fmt/format.h>

#include <algorithm>

#include "binomial.h"

namespace mlregress::checks {
namespace {

double accuracy(const torch::Tensor& predictions, const torch::Tensor& labels) {
  if (labels.numel() == 0) return 0.0;
  return predictions.reshape(-1)
      .to(torch::kLong)
      .eq(labels.reshape(-1).to(torch::kLong))
      .to(torch::kDouble)
      .mean()
      .item<double>();
}

}  // namespace

double binomial_upper_tail_p(std::int64_t successes, std::int64_t trials, double rate) {
  return detail::binomial_upper_tail(successes, trials, rate);
}

LeakTestResult judge_permuted_labels(const torch::Tensor& train_predictions,
                                     const torch::Tensor& train_labels,
                                     const torch::Tensor& validation_predictions,
                                     const torch::Tensor& validation_labels,
                                     const LeakTestOptions& options) {
  TORCH_CHECK(validation_labels.numel() > 0, "permuted-label leak test: empty validation split");
  TORCH_CHECK(validation_predictions.numel() == validation_labels.numel(),
              "permuted-label leak test: ", validation_predictions.numel(),
              " validation predictions for ", validation_labels.numel(), " labels");
  TORCH_CHECK(train_predictions.numel() == train_labels.numel(),
              "permuted-label leak test: ", train_predictions.numel(), " training predictions for ",
              train_labels.numel(), " labels");
  LeakTestResult result;
  result.alpha = options.alpha;
  const torch::Tensor val_labels = validation_labels.reshape(-1).to(torch::kLong);
  std::int64_t largest = val_labels.max().item<std::int64_t>();
  if (train_labels.numel() > 0) {
    largest = std::max(largest, train_labels.max().item<std::int64_t>());
  }
  result.num_classes = options.num_classes.value_or(largest + 1);
  TORCH_CHECK(result.num_classes >= 2 && largest < result.num_classes,
              "permuted-label leak test: labels up to ", largest, " with ", result.num_classes,
              " classes");

  result.train_accuracy = accuracy(train_predictions, train_labels);
  result.validation_size = val_labels.numel();
  result.validation_correct =
      validation_predictions.reshape(-1).to(torch::kLong).eq(val_labels).sum().item<std::int64_t>();
  result.validation_accuracy =
      static_cast<double>(result.validation_correct) / static_cast<double>(result.validation_size);
  // Always answering validation's most common class needs no information from training, so the
  // chance a leak-free model must be held to is at least that rate, not just 1 / C.
  const std::int64_t majority =
      torch::bincount(val_labels, {}, result.num_classes).max().item<std::int64_t>();
  result.majority_rate =
      static_cast<double>(majority) / static_cast<double>(result.validation_size);
  result.chance_rate =
      std::max(1.0 / static_cast<double>(result.num_classes), result.majority_rate);
  result.p_value =
      binomial_upper_tail_p(result.validation_correct, result.validation_size, result.chance_rate);
  result.leak = result.p_value < result.alpha;
  return result;
}

LeakTestResult permuted_label_leak_test(const torch::Tensor& inputs, const torch::Tensor& labels,
                                        const SplitPipeline& pipeline,
                                        const TrainAndPredict& train_and_predict,
                                        const LeakTestOptions& options) {
  TORCH_CHECK(inputs.size(0) == labels.size(0), "permuted-label leak test: ", inputs.size(0),
              " inputs but ", labels.size(0), " labels");
  // Scrambled once, at the source, before the pipeline copies or splits anything: the labels
  // stay internally consistent (a duplicated example keeps its label) and mean nothing.
  const torch::Tensor scrambled = options.scramble_labels
                                      ? options.scramble_labels(labels)
                                      : labels.index_select(0, torch::randperm(labels.size(0)));
  const LabeledSplits splits = pipeline(inputs, scrambled);
  const SplitPredictions predictions = train_and_predict(splits);
  return judge_permuted_labels(predictions.train, splits.train_labels, predictions.validation,
                               splits.validation_labels, options);
}

::testing::AssertionResult no_leak(const LeakTestResult& r) {
  const std::string numbers = fmt::format(
      "train accuracy {:.4f}, validation accuracy {:.4f} ({} of {}) against chance {:.4f} "
      "(max of 1/{} and the majority rate {:.4f}); one-sided binomial p = {:.3g}, alpha {:g}",
      r.train_accuracy, r.validation_accuracy, r.validation_correct, r.validation_size,
      r.chance_rate, r.num_classes, r.majority_rate, r.p_value, r.alpha);
  if (!r.leak) return ::testing::AssertionSuccess() << "no leak: " << numbers;
  return ::testing::AssertionFailure()
         << "leak: a model trained on permuted labels scores above chance on validation, so "
            "validation examples reach training: "
         << numbers;
}

}  // namespace mlregress::checks
