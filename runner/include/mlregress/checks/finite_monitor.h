// Finite everything, every step: a monitor the training loop calls once per step with the loss
// and the module. It remembers the first step where the loss, a gradient or a parameter held a
// NaN or Inf, and which tensor (an lr far too high shows up here a few steps before the curve).
#pragma once

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdint>
#include <optional>

#include "mlregress/checks/finite.h"

namespace mlregress::checks {

/// The monitor's findings so far.
struct FiniteResult {
  std::int64_t steps_observed = 0;
  std::optional<std::int64_t> first_bad_step;  ///< the step number passed to observe()
  /// The first bad tensor of that step, in the order loss, gradients, parameters.
  std::optional<NonFiniteTensor> first_bad_tensor;
  std::int64_t bad_tensors_at_first_bad_step = 0;  ///< how many tensors were bad at that step
  bool passed = true;

  /// "step 7: gradient of 0.weight (shape [32, 1], Float) has 32 non-finite of 32 ..."
  ::testing::AssertionResult assertion() const;
  operator ::testing::AssertionResult() const {
    return assertion();
  }  // NOLINT(google-explicit-constructor)
};

/// Call observe() after optimizer.step() (or after backward(), to see gradients before they
/// reach the weights). Checks the loss, every defined gradient and every parameter.
///
///   checks::FiniteMonitor finite;
///   for (int step = 0; step < steps; ++step) {
///     ... loss.backward(); optimizer.step();
///     ASSERT_TRUE(finite.observe(step, loss, *model));
///   }
class FiniteMonitor {
 public:
  /// Returns false from the first bad step on; later steps are counted but no longer searched.
  ::testing::AssertionResult observe(std::int64_t step, const torch::Tensor& loss,
                                     const torch::nn::Module& module);
  /// The same, for a loss already read out as a number.
  ::testing::AssertionResult observe(std::int64_t step, double loss,
                                     const torch::nn::Module& module);

  const FiniteResult& result() const { return result_; }

 private:
  ::testing::AssertionResult check(std::int64_t step, const torch::Tensor& loss,
                                   const torch::nn::Module& module);
  FiniteResult result_;
};

}  // namespace mlregress::checks
