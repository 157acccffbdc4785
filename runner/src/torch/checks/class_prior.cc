#include "mlregress/checks/class_prior.h"

#include <fmt/format.h>

#include <stdexcept>

#include "binomial.h"

namespace mlregress::checks {
namespace {

std::vector<std::int64_t> class_indices(const torch::Tensor& classes, const char* what) {
  if (!classes.defined()) {
    throw std::invalid_argument(fmt::format("check_above_class_prior: no {} tensor", what));
  }
  if (classes.is_floating_point() || classes.is_complex()) {
    throw std::invalid_argument(fmt::format(
        "check_above_class_prior: the {} are {}, not class indices (take argmax of the logits)",
        what, c10::toString(classes.scalar_type())));
  }
  const torch::Tensor flat =
      classes.detach().reshape(-1).to(torch::kCPU, torch::kLong).contiguous();
  return {flat.data_ptr<std::int64_t>(), flat.data_ptr<std::int64_t>() + flat.numel()};
}

}  // namespace

ClassPriorResult check_above_class_prior(const std::vector<std::int64_t>& predicted,
                                         const std::vector<std::int64_t>& target,
                                         const ClassPriorOptions& options) {
  if (target.empty()) throw std::invalid_argument("check_above_class_prior: no examples");
  ClassPriorResult result;
  result.confusion = confusion_matrix(predicted, target);
  result.min_margin = options.min_margin;
  result.alpha = options.alpha;
  const ConfusionMatrix& m = result.confusion;
  result.margin = m.accuracy - m.majority_rate;
  result.p_value = detail::binomial_upper_tail(m.correct, m.examples, m.majority_rate);
  result.passed = result.margin > options.min_margin && result.p_value <= options.alpha;
  return result;
}

ClassPriorResult check_above_class_prior(const torch::Tensor& predicted,
                                         const torch::Tensor& target,
                                         const ClassPriorOptions& options) {
  return check_above_class_prior(class_indices(predicted, "predictions"),
                                 class_indices(target, "targets"), options);
}

::testing::AssertionResult ClassPriorResult::assertion() const {
  const ConfusionMatrix& m = confusion;
  const std::string numbers = fmt::format(
      "accuracy {:.4f} ({} of {}) against the majority rate {:.4f} (always class {}): margin "
      "{:+.4f}, needs more than {:g}; one-sided binomial p = {:.3g}, alpha {:g}",
      m.accuracy, m.correct, m.examples, m.majority_rate, m.majority_class, margin, min_margin,
      p_value, alpha);
  if (passed) return ::testing::AssertionSuccess() << "above the class prior: " << numbers;
  return ::testing::AssertionFailure()
         << "no better than the class prior: " << numbers << "; predicts class "
         << m.top_predicted_class << " for "
         << fmt::format("{:.0f}%", 100.0 * m.top_predicted_share) << " of examples\n"
         << m.table();
}

}  // namespace mlregress::checks
