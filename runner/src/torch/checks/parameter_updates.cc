#include "mlregress/checks/parameter_updates.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>

#include "tensor_text.h"

namespace mlregress::checks {
namespace {

// Gradient hooks see what backward delivers to a parameter before it is added to .grad; they
// must be removed even when the step throws.
class GradientRecorder {
 public:
  explicit GradientRecorder(const std::vector<torch::Tensor>& parameters)
      : parameters_(parameters), delivered_(parameters.size()), hooks_(parameters.size(), kNoHook) {
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
      if (!parameters_[i].requires_grad()) continue;
      hooks_[i] = parameters_[i].register_hook([this, i](const torch::Tensor& grad) {
        torch::NoGradGuard no_grad;
        delivered_[i] = delivered_[i].defined() ? delivered_[i] + grad : grad.detach().clone();
      });
    }
  }
  GradientRecorder(const GradientRecorder&) = delete;
  GradientRecorder& operator=(const GradientRecorder&) = delete;
  ~GradientRecorder() {
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
      if (hooks_[i] != kNoHook) parameters_[i].remove_hook(hooks_[i]);
    }
  }

  void clear() { std::fill(delivered_.begin(), delivered_.end(), torch::Tensor()); }
  /// The sum of what backward delivered to parameter i since clear(); undefined if nothing.
  const torch::Tensor& delivered(std::size_t i) const { return delivered_[i]; }

 private:
  static constexpr unsigned kNoHook = ~0U;
  std::vector<torch::Tensor> parameters_;
  std::vector<torch::Tensor> delivered_;
  std::vector<unsigned> hooks_;
};

torch::Tensor copy_of_grad(const torch::Tensor& parameter) {
  const torch::Tensor& grad = parameter.grad();
  return grad.defined() ? grad.detach().clone() : torch::Tensor();
}

// .grad after the step equals the previous .grad plus this step's gradient, and not this
// step's gradient alone: nothing cleared it in between.
bool gradient_was_accumulated(const torch::Tensor& grad_after, const torch::Tensor& grad_before,
                              const torch::Tensor& delivered, double rtol) {
  if (!grad_after.defined() || !grad_before.defined() || !delivered.defined()) return false;
  if (!grad_before.ne(0).any().item<bool>()) return false;  // nothing there to carry over
  const double atol = 1e-12;
  if (torch::allclose(grad_after, delivered, rtol, atol)) return false;
  return torch::allclose(grad_after, grad_before + delivered, rtol, atol);
}

std::string error_text(const std::exception& error) {
  if (const auto* torch_error = dynamic_cast<const c10::Error*>(&error)) {
    return torch_error->what_without_backtrace();
  }
  return error.what();
}

}  // namespace

ParameterUpdateResult check_parameters_update(torch::nn::Module& module,
                                              const std::function<void()>& training_step,
                                              const ParameterUpdateOptions& options) {
  TORCH_CHECK(options.steps >= 1, "check_parameters_update: steps must be >= 1, got ",
              options.steps);
  const auto named = module.named_parameters();
  std::vector<torch::Tensor> parameters;
  ParameterUpdateResult result;
  result.epsilon = options.epsilon;
  for (const auto& item : named) {
    parameters.push_back(item.value());
    ParameterUpdate update;
    update.name = item.key();
    update.shape = item.value().sizes().vec();
    update.requires_grad = item.value().requires_grad();
    update.received_gradient = update.requires_grad;  // cleared by any step it gets none in
    update.expected_frozen =
        std::find(options.frozen.begin(), options.frozen.end(), item.key()) != options.frozen.end();
    result.parameters.push_back(std::move(update));
  }

  std::vector<torch::Tensor> initial;
  for (const auto& p : parameters) initial.push_back(p.detach().clone());
  {
    GradientRecorder recorder(parameters);
    for (int step = 0; step < options.steps && !result.step_error; ++step) {
      std::vector<torch::Tensor> grad_before;
      for (const auto& p : parameters) grad_before.push_back(copy_of_grad(p));
      recorder.clear();
      try {
        training_step();
      } catch (const std::exception& error) {
        result.step_error = fmt::format("training step {} threw: {}", step, error_text(error));
        break;
      }
      ++result.steps_run;
      for (std::size_t i = 0; i < parameters.size(); ++i) {
        ParameterUpdate& update = result.parameters[i];
        if (!recorder.delivered(i).defined()) update.received_gradient = false;
        if (gradient_was_accumulated(parameters[i].grad(), grad_before[i], recorder.delivered(i),
                                     options.gradient_rtol)) {
          update.gradient_accumulated = true;
        }
      }
    }
  }

  for (std::size_t i = 0; i < parameters.size(); ++i) {
    ParameterUpdate& update = result.parameters[i];
    torch::NoGradGuard no_grad;
    update.max_abs_change =
        parameters[i].numel() == 0
            ? 0.0
            : (parameters[i].detach() - initial[i]).abs().max().to(torch::kFloat64).item<double>();
    update.changed = !(update.max_abs_change <= options.epsilon);  // NaN counts as a change
    if (update.expected_frozen) {
      if (update.changed) result.frozen_but_changed.push_back(update.name);
      continue;
    }
    if (!update.changed) result.unchanged.push_back(update.name);
    if (!update.received_gradient) result.without_gradient.push_back(update.name);
    if (update.gradient_accumulated) result.accumulated_gradient.push_back(update.name);
  }
  result.passed = !result.step_error && result.steps_run == options.steps &&
                  result.unchanged.empty() && result.without_gradient.empty() &&
                  result.accumulated_gradient.empty() && result.frozen_but_changed.empty();
  return result;
}

::testing::AssertionResult ParameterUpdateResult::assertion() const {
  const std::size_t total = parameters.size();
  if (step_error) {
    return ::testing::AssertionFailure()
           << *step_error
           << (steps_run == 0
                   ? " (if backward() says nothing requires grad, every parameter is frozen or the "
                     "output was detached or computed under no_grad)"
                   : "");
  }
  if (passed) {
    const auto frozen = std::count_if(parameters.begin(), parameters.end(),
                                      [](const ParameterUpdate& p) { return p.expected_frozen; });
    return ::testing::AssertionSuccess() << fmt::format(
               "all {} parameters received gradients and changed by more than {:g} over {} "
               "step(s)",
               total - static_cast<std::size_t>(frozen), epsilon, steps_run);
  }
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << fmt::format("over {} training step(s) of a module with {} parameters:", steps_run,
                         total);
  for (const ParameterUpdate& p : parameters) {
    if (p.expected_frozen) {
      if (p.changed) {
        failure << fmt::format("\n  {} {} is listed as frozen but changed by {:.3g}", p.name,
                               detail::shape_text(p.shape), p.max_abs_change);
      }
      continue;
    }
    std::vector<std::string> problems;
    if (!p.requires_grad) {
      problems.push_back("has requires_grad=false");
    } else if (!p.received_gradient) {
      problems.push_back(
          "received no gradient (not used in the forward pass, or its output is "
          "detached)");
    }
    if (!p.changed) {
      problems.push_back(fmt::format("did not change (max |after - before| = {:.3g}, epsilon {:g})",
                                     p.max_abs_change, epsilon));
    }
    if (p.gradient_accumulated) {
      problems.push_back(
          "has a .grad that still holds the previous step's gradient (missing "
          "zero_grad?)");
    }
    if (problems.empty()) continue;
    failure << fmt::format("\n  {} {}", p.name, detail::shape_text(p.shape));
    for (std::size_t k = 0; k < problems.size(); ++k) failure << (k ? "; " : " ") << problems[k];
  }
  if (!unchanged.empty() && without_gradient.empty()) {
    failure << "\n  gradients reached the unchanged parameters: they are probably not in the "
               "optimizer's parameter list, or optimizer.step() never runs";
  }
  return failure;
}

}  // namespace mlregress::checks
