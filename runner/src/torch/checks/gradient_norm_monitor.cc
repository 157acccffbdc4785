#include "mlregress/checks/gradient_norm_monitor.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace mlregress::checks {

double global_gradient_norm(const torch::nn::Module& module) {
  torch::NoGradGuard no_grad;
  double squared = 0.0;
  for (const auto& parameter : module.parameters()) {
    const torch::Tensor& grad = parameter.grad();
    if (!grad.defined()) continue;
    // In double: float32 squares of 1e20-sized gradients would overflow before the sum.
    squared += grad.detach().to(torch::kFloat64).pow(2).sum().item<double>();
  }
  return std::sqrt(squared);
}

double max_abs_gradient(const torch::nn::Module& module) {
  torch::NoGradGuard no_grad;
  double largest = 0.0;
  for (const auto& parameter : module.parameters()) {
    const torch::Tensor& grad = parameter.grad();
    if (!grad.defined() || grad.numel() == 0) continue;
    const double m = grad.detach().abs().max().item<double>();
    if (std::isnan(m)) return m;
    largest = std::max(largest, m);
  }
  return largest;
}

GradientNormMonitor::GradientNormMonitor(GradientNormOptions options) {
  TORCH_CHECK(options.spike_factor > 0.0, "GradientNormMonitor: spike_factor must be > 0, got ",
              options.spike_factor);
  TORCH_CHECK(options.warmup_steps >= 1, "GradientNormMonitor: warmup_steps must be >= 1, got ",
              options.warmup_steps);
  TORCH_CHECK(!options.max_norm || *options.max_norm > 0.0,
              "GradientNormMonitor: max_norm must be > 0");
  TORCH_CHECK(!options.clip_value || *options.clip_value > 0.0,
              "GradientNormMonitor: clip_value must be > 0");
  result_.options = options;
}

double GradientNormMonitor::observe(const torch::nn::Module& module) {
  if (result_.options.clip_value) observe_values(module);
  const double norm = global_gradient_norm(module);
  observe_norm(norm);
  return norm;
}

void GradientNormMonitor::observe_values(const torch::nn::Module& module) {
  torch::NoGradGuard no_grad;
  const double bound = *result_.options.clip_value;
  std::int64_t above = 0;
  for (const auto& parameter : module.parameters()) {
    const torch::Tensor& grad = parameter.grad();
    if (!grad.defined()) continue;
    // A NaN component counts as above the bound: clipping cannot repair it.
    above += grad.detach().abs().le(bound).logical_not().sum().item<std::int64_t>();
    components_seen_ += grad.numel();
  }
  components_clipped_ += above;
  result_.max_abs.push_back(max_abs_gradient(module));
  if (above > 0) ++result_.value_clipped_steps;
  result_.clipped_component_fraction =
      components_seen_ > 0
          ? static_cast<double>(components_clipped_) / static_cast<double>(components_seen_)
          : 0.0;
}

void GradientNormMonitor::observe_norm(double norm) {
  const GradientNormOptions& options = result_.options;
  const auto step = static_cast<std::int64_t>(result_.norms.size());
  result_.norms.push_back(norm);
  if (!std::isfinite(norm)) {
    if (!result_.first_non_finite_step) result_.first_non_finite_step = step;
  } else {
    result_.max_finite_norm = std::max(result_.max_finite_norm, norm);
  }
  // A non-finite norm needs clipping too (and clipping cannot save it).
  if (options.max_norm && !(norm <= *options.max_norm)) ++result_.clipped_steps;

  const double median = previous_norms_.median();
  if (step >= options.warmup_steps && std::isfinite(norm) && median > 0.0 &&
      norm > options.spike_factor * median) {
    result_.spikes.push_back(
        {.step = step, .norm = norm, .running_median = median, .ratio = norm / median});
  }
  if (std::isfinite(norm)) {
    previous_norms_.add(norm);
    result_.median_norm = previous_norms_.median();
  }
  update_verdict();
}

void GradientNormMonitor::update_verdict() {
  const GradientNormOptions& options = result_.options;
  if (options.max_norm) {
    result_.clip_rate =
        static_cast<double>(result_.clipped_steps) / static_cast<double>(result_.norms.size());
  }
  if (options.clip_value && !result_.max_abs.empty()) {
    result_.value_clip_rate = static_cast<double>(result_.value_clipped_steps) /
                              static_cast<double>(result_.max_abs.size());
  }
  const auto too_often = [&](const std::optional<double>& rate) {
    return options.max_clip_rate && rate && *rate > *options.max_clip_rate;
  };
  result_.passed = !result_.first_non_finite_step &&
                   !(options.fail_on_spike && !result_.spikes.empty()) &&
                   !too_often(result_.clip_rate) && !too_often(result_.value_clip_rate);
}

::testing::AssertionResult GradientNormResult::assertion() const {
  std::string text =
      fmt::format("{} steps, max finite gradient norm {:.3g}", norms.size(), max_finite_norm);
  if (median_norm) text += fmt::format(", median {:.3g}", *median_norm);
  if (clip_rate) {
    text += fmt::format(", clipping at {:g} engaged in {} of {} steps ({:.1f}%)", *options.max_norm,
                        clipped_steps, norms.size(), 100.0 * *clip_rate);
  }
  if (value_clip_rate) {
    text += fmt::format(
        ", value clipping at {:g} engaged in {} of {} steps ({:.1f}%, {:.2g}% of the components)",
        *options.clip_value, value_clipped_steps, max_abs.size(), 100.0 * *value_clip_rate,
        100.0 * clipped_component_fraction.value_or(0.0));
  }
  if (passed) {
    if (!spikes.empty()) text += fmt::format(", {} spike(s) reported", spikes.size());
    return ::testing::AssertionSuccess() << text;
  }
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << "gradient norm check failed: " << text;
  if (first_non_finite_step) {
    failure << fmt::format("\n  gradient norm is {} at step {}",
                           norms[static_cast<std::size_t>(*first_non_finite_step)],
                           *first_non_finite_step);
  }
  if (options.fail_on_spike && !spikes.empty()) {
    const GradientSpike& first = spikes.front();
    failure << fmt::format(
        "\n  {} spike(s); first at step {}: norm {:.3g} = {:.3g} x the running median {:.3g} "
        "(limit {:g} x, after {} warm-up steps)",
        spikes.size(), first.step, first.norm, first.ratio, first.running_median,
        options.spike_factor, options.warmup_steps);
  }
  if (options.max_clip_rate && clip_rate && *clip_rate > *options.max_clip_rate) {
    failure << fmt::format(
        "\n  clipping engaged in {:.1f}% of steps, more than the allowed {:.1f}%: the clip is "
        "hiding a learning-rate, initialisation or normalisation problem",
        100.0 * *clip_rate, 100.0 * *options.max_clip_rate);
  }
  if (options.max_clip_rate && value_clip_rate && *value_clip_rate > *options.max_clip_rate) {
    failure << fmt::format(
        "\n  value clipping engaged in {:.1f}% of steps, more than the allowed {:.1f}%: each "
        "engaged step changed the gradient's direction",
        100.0 * *value_clip_rate, 100.0 * *options.max_clip_rate);
  }
  return failure;
}

}  // namespace mlregress::checks
