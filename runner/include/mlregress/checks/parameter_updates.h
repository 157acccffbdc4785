// Parameters reach the optimizer: after a training step every trainable parameter has a
// gradient and has moved. Catches frozen parameters, detached outputs, an optimizer built over
// another model's parameters and (over two steps) gradients carried over by a missing zero_grad.
#pragma once

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlregress::checks {

struct ParameterUpdateOptions {
  /// A parameter counts as changed when max |after - before| > epsilon (0: any change).
  double epsilon = 0.0;
  /// Calls of the training step. With two or more, a gradient that still holds the previous
  /// step's contribution (no zero_grad between steps) is detected.
  int steps = 2;
  /// Relative tolerance when comparing a parameter's .grad with the gradient backward delivered.
  double gradient_rtol = 1e-4;
  /// Names (as in named_parameters()) meant to stay frozen, e.g. a pretrained trunk: they must
  /// not change, and are not reported for lacking a gradient.
  std::vector<std::string> frozen;
};

/// What happened to one parameter over the steps.
struct ParameterUpdate {
  std::string name;
  std::vector<std::int64_t> shape;
  bool requires_grad = false;
  bool received_gradient = false;     ///< backward delivered a gradient to it in every step
  double max_abs_change = 0.0;        ///< over all steps; NaN if a value became non-finite
  bool changed = false;               ///< max_abs_change > epsilon
  bool gradient_accumulated = false;  ///< .grad held the previous step's gradient plus this one's
  bool expected_frozen = false;       ///< listed in ParameterUpdateOptions::frozen
};

struct ParameterUpdateResult {
  std::vector<ParameterUpdate> parameters;        ///< every parameter, in named_parameters() order
  std::vector<std::string> unchanged;             ///< names that moved by at most epsilon
  std::vector<std::string> without_gradient;      ///< names no gradient reached in some step
  std::vector<std::string> accumulated_gradient;  ///< names whose .grad was never cleared
  std::vector<std::string> frozen_but_changed;    ///< listed as frozen, yet moved
  /// The training step threw (e.g. backward() with every parameter frozen): its message.
  std::optional<std::string> step_error;
  int steps_run = 0;
  double epsilon = 0.0;
  bool passed = false;

  /// Names every parameter that did not change, got no gradient or accumulated gradients.
  ::testing::AssertionResult assertion() const;
  operator ::testing::AssertionResult() const {
    return assertion();
  }  // NOLINT(google-explicit-constructor)
};

/// Snapshots the module's parameters, calls `training_step` (forward, backward, optimizer step)
/// options.steps times, and reports every parameter that did not change or received no
/// gradient. Clipping inside the step hides an accumulated gradient (its .grad is rescaled).
/// A step that throws (c10::Error or any std::exception) is reported, not rethrown.
ParameterUpdateResult check_parameters_update(torch::nn::Module& module,
                                              const std::function<void()>& training_step,
                                              const ParameterUpdateOptions& options = {});

}  // namespace mlregress::checks
