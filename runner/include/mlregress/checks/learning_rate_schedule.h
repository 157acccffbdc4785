// Learning-rate schedules: does the schedule do what it says? The rates the optimizer used, step
// by step (learning_rate_of after each scheduler step), against what the configuration declares:
// a warmup that reaches the peak at its declared step and not before, never a rate above the
// peak, a decay that falls at every step after the peak, and the floor at the last step. The
// mistakes it exists for are silent: a warmup lost (the peak from the first step), a scheduler
// stepped per example or per epoch instead of per update (warmup over in two updates, the floor
// reached a tenth of the way in), a floor of 0 where 0.1 x peak was declared.
#pragma once

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlregress::checks {

struct ScheduleSpec {
  enum class Decay {
    Cosine,    ///< falls at every step from the end of the peak to the floor at total_steps - 1
    Linear,    ///< the same shape rule as Cosine (the check judges the shape, not the formula)
    Constant,  ///< stays at the peak after the warmup; `floor` is ignored
    Step,      ///< never rises after the peak and ends at the floor; flat stretches allowed
  };
  double peak = 0.0;              ///< the rate at the end of the warmup
  std::int64_t warmup_steps = 0;  ///< the peak is first reached at step max(warmup_steps - 1, 0)
  std::int64_t total_steps = 0;   ///< the run's updates: rates for steps 0 .. total_steps - 1
  double floor = 0.0;             ///< the rate of the last step
  Decay decay = Decay::Cosine;
  double rtol = 1e-6;  ///< two rates are equal within rtol x peak (the peak, a flat stretch)
  /// The last step's rate is at the floor within this fraction of (peak - floor). A cosine
  /// that reaches its floor one step after the last update (progress = (s - W) / (T - W)) ends
  /// pi^2 / (4 (T - W)^2) of the range above it: 3e-5 for T - W = 300, 0.025 for T - W = 10.
  double floor_tolerance = 0.03;
};

/// "cosine", "linear", "constant", "step".
std::string_view decay_name(ScheduleSpec::Decay decay);

struct ScheduleCheck {
  bool passed = false;
  std::vector<double> rates;  ///< the rates judged, one per step
  ScheduleSpec spec;
  std::optional<std::int64_t> peak_step;  ///< the first step at the peak (within rtol)
  std::int64_t expected_peak_step = 0;    ///< max(warmup_steps - 1, 0)
  double max_rate = 0.0;
  std::int64_t max_rate_step = 0;
  std::optional<std::int64_t> floor_step;  ///< the first step within floor_tolerance of the floor
  double final_rate = 0.0;
  std::vector<std::string> problems;  ///< one line per rule broken, first step named

  /// Names every broken rule with its step and rates, and the spec.
  ::testing::AssertionResult assertion() const;
  operator ::testing::AssertionResult() const {  // NOLINT(google-explicit-constructor)
    return assertion();
  }
};

/// Judges rate_per_step[s], the rate step s used, against `spec`. Throws std::invalid_argument
/// for a spec that cannot be judged (peak <= 0, floor > peak, warmup_steps < 0, total_steps < 1)
/// or when rate_per_step does not hold total_steps rates.
ScheduleCheck check_schedule(const std::vector<double>& rate_per_step, const ScheduleSpec& spec);

/// The learning rate param group `group` of `optimizer` holds now (OptimizerOptions::get_lr): the
/// rate the next step() uses, so a test checks what the optimizer was given, not the formula.
/// Throws std::out_of_range for a group the optimizer does not have.
double learning_rate_of(const torch::optim::Optimizer& optimizer, std::size_t group = 0);

/// Records the schedule from inside a test: "<name>.lr_peak_step" and "<name>.lr_floor_step"
/// (MustEqual, Exact, Portable: step indices; -1 when never reached) and the curve
/// "<name>.learning_rate".
void record_schedule(std::string_view name, const ScheduleCheck& check);

}  // namespace mlregress::checks
