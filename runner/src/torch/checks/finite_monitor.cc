#include "mlregress/checks/finite_monitor.h"

#include <fmt/format.h>

namespace mlregress::checks {

::testing::AssertionResult FiniteResult::assertion() const {
  if (!first_bad_step) {
    return ::testing::AssertionSuccess() << fmt::format(
               "loss, gradients and parameters finite in all {} observed steps", steps_observed);
  }
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << fmt::format("first non-finite value at step {}: {}", *first_bad_step,
                         first_bad_tensor ? first_bad_tensor->describe() : "unknown tensor");
  if (bad_tensors_at_first_bad_step > 1) {
    failure << fmt::format(" ({} tensors non-finite at that step)", bad_tensors_at_first_bad_step);
  }
  return failure << ". Suspect the learning rate, an unstable operation (log/exp/division), or "
                    "exploding gradients (monitor the gradient norm)";
}

::testing::AssertionResult FiniteMonitor::observe(std::int64_t step, const torch::Tensor& loss,
                                                  const torch::nn::Module& module) {
  return check(step, loss, module);
}

::testing::AssertionResult FiniteMonitor::observe(std::int64_t step, double loss,
                                                  const torch::nn::Module& module) {
  return check(step, torch::tensor(loss, torch::kFloat64), module);
}

::testing::AssertionResult FiniteMonitor::check(std::int64_t step, const torch::Tensor& loss,
                                                const torch::nn::Module& module) {
  ++result_.steps_observed;
  if (result_.first_bad_step) return result_.assertion();
  std::int64_t bad = 0;
  auto note = [&](std::optional<NonFiniteTensor> found) {
    if (!found) return;
    if (bad++ == 0) result_.first_bad_tensor = std::move(found);
  };
  note(find_non_finite(loss, "loss"));
  const auto parameters = module.named_parameters();
  for (const auto& item : parameters) {
    note(find_non_finite(item.value().grad(), "gradient of " + item.key()));
  }
  for (const auto& item : parameters)
    note(find_non_finite(item.value(), "parameter " + item.key()));
  if (bad > 0) {
    result_.first_bad_step = step;
    result_.bad_tensors_at_first_bad_step = bad;
    result_.passed = false;
  }
  return result_.assertion();
}

}  // namespace mlregress::checks
