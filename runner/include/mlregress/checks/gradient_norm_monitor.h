// Gradient-norm monitor: the global L2 norm of the gradients, step by step. A spike against the
// running median is the earliest warning of an exploding run (it comes before the loss shows
// anything); with clipping on, the engagement rate says whether the clip is a seatbelt or a crutch.
#pragma once

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <vector>

namespace mlregress::checks {

struct GradientNormOptions {
  /// A step spikes when its norm exceeds spike_factor x the median of all previous finite norms.
  double spike_factor = 10.0;
  /// Steps observed before spikes are judged: the median needs a few norms to mean anything.
  std::int64_t warmup_steps = 10;
  /// The clipping threshold when the loop clips (clip_grad_norm_'s max_norm); enables the
  /// engagement rate.
  std::optional<double> max_norm;
  /// The bound when the loop clips each gradient component instead (clip_grad_value_'s
  /// clip_value): observe(module) then also measures the largest |g| and counts the steps and
  /// components the value clip changes. Unlike norm clipping, which scales the whole gradient
  /// and keeps its direction, value clipping changes the direction whenever it engages.
  std::optional<double> clip_value;
  /// Fail when more than this fraction of steps needed clipping ("constantly clipped" hides a
  /// learning-rate or initialisation problem). Unset: the rate is reported, never judged.
  std::optional<double> max_clip_rate;
  /// Spikes fail the check; set false to only report them.
  bool fail_on_spike = true;
};

struct GradientSpike {
  std::int64_t step = 0;
  double norm = 0.0;
  double running_median = 0.0;  ///< median of the finite norms before this step
  double ratio = 0.0;           ///< norm / running_median
};

struct GradientNormResult {
  std::vector<double> norms;  ///< one per observed step, pre-clip; record_curve() them
  std::vector<GradientSpike> spikes;
  std::optional<std::int64_t> first_non_finite_step;
  double max_finite_norm = 0.0;
  std::optional<double> median_norm;  ///< of the finite norms
  std::int64_t clipped_steps = 0;     ///< steps with norm > max_norm
  std::optional<double> clip_rate;    ///< clipped_steps / steps; only when max_norm is set
  /// With clip_value set, from observe(module) only: the largest |g| of each step, pre-clip.
  std::vector<double> max_abs;
  std::int64_t value_clipped_steps = 0;              ///< steps with a component |g| > clip_value
  std::optional<double> value_clip_rate;             ///< value_clipped_steps / steps observed
  std::optional<double> clipped_component_fraction;  ///< components above the bound / components
  GradientNormOptions options;
  bool passed = true;

  /// Names the first spike (step, norm, median, ratio), the first non-finite norm and the clip
  /// rate against its limit.
  ::testing::AssertionResult assertion() const;
  operator ::testing::AssertionResult() const {
    return assertion();
  }  // NOLINT(google-explicit-constructor)
};

/// The global L2 norm over every defined gradient of the module (as clip_grad_norm_ computes
/// it); 0 when no parameter has a gradient.
double global_gradient_norm(const torch::nn::Module& module);

/// The largest |g| over every defined gradient of the module (what clip_grad_value_ caps); 0 when
/// no parameter has a gradient, NaN when a gradient holds a NaN.
double max_abs_gradient(const torch::nn::Module& module);

namespace detail {

/// The running median of the values added so far, with two heaps: the lower half (a max-heap) and
/// the upper half. Shared by the monitor's spike rule and the clip-threshold suggestion.
class RunningMedian {
 public:
  void add(double x) {
    if (lower_.empty() || x <= lower_.top()) {
      lower_.push(x);
    } else {
      upper_.push(x);
    }
    if (lower_.size() > upper_.size() + 1) {
      upper_.push(lower_.top());
      lower_.pop();
    } else if (upper_.size() > lower_.size()) {
      lower_.push(upper_.top());
      upper_.pop();
    }
  }
  /// NaN before the first value.
  double median() const {
    if (lower_.empty()) return std::numeric_limits<double>::quiet_NaN();
    if (lower_.size() > upper_.size()) return lower_.top();
    return 0.5 * (lower_.top() + upper_.top());
  }

 private:
  std::priority_queue<double> lower_;
  std::priority_queue<double, std::vector<double>, std::greater<double>> upper_;
};

}  // namespace detail

/// Call once per step after backward() and before clipping, or pass clip_grad_norm_'s return
/// value (the pre-clip norm) to observe_norm(). Step numbers are the order of the calls, from 0.
///
///   checks::GradientNormMonitor grad_norms({.max_norm = 1.0, .max_clip_rate = 0.5});
///   ... loss.backward();
///   grad_norms.observe_norm(torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0));
///   ... EXPECT_TRUE(grad_norms.result());  record_curve("grad_norm", grad_norms.result().norms);
class GradientNormMonitor {
 public:
  explicit GradientNormMonitor(GradientNormOptions options = {});

  /// Computes, records and returns the module's global gradient norm; with clip_value set, also
  /// its largest |g| and how many components the value clip is about to change.
  double observe(const torch::nn::Module& module);
  /// Records a norm computed elsewhere.
  void observe_norm(double norm);

  /// The result so far; the median and verdict are up to date after every observation.
  const GradientNormResult& result() const { return result_; }

 private:
  void observe_values(const torch::nn::Module& module);
  void update_verdict();

  GradientNormResult result_;
  detail::RunningMedian previous_norms_;  // the previous finite norms
  std::int64_t components_seen_ = 0;
  std::int64_t components_clipped_ = 0;
};

}  // namespace mlregress::checks
