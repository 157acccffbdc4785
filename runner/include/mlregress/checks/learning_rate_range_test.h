// The learning-rate range test: one run on one model with the rate rising geometrically from
// `min_rate` to `max_rate`, one update per rate, stopped when the loss diverges. The smoothed
// loss against the rate falls, bottoms out and blows up; the band to train in lies below the
// bottom. Cheaper than a sweep (one run instead of one per rate), but the model changes under the
// rate, so its answer is a band to confirm with a short sweep around it (agrees_with_sweep).
//
// The suggested band (runner/docs/checks.md, "Learning-rate range test"):
//   high = the rate at the lowest smoothed loss / `high_divisor` (2);
//   low  = the rate where the smoothed loss falls fastest against log(rate), before that lowest
//          point; capped at `high` when the steepest descent lies above it.
// No band when the smoothed loss never falls more than `min_drop` (10%) below its start: the
// rates never reached a useful range, or the step does not apply the rate it is given.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mlregress/checks/learning_rate_sweep.h"

namespace mlregress::checks {

/// One update of the same model at `learning_rate`; returns the loss of that step (computed
/// before the update, as a training loop logs it).
using StepAtRate = std::function<double(double learning_rate)>;

struct RangeTestOptions {
  double min_rate = 1e-5;
  double max_rate = 10.0;
  std::int64_t steps = 100;  ///< updates from min_rate to max_rate, geometric
  /// EMA weight of the past (bias-corrected). The smoothed curve lags the raw one by about
  /// 1 / (1 - smoothing) steps: keep that a small fraction of `steps`.
  double smoothing = 0.9;
  double divergence_factor = 4.0;  ///< stop when smoothed > best + (factor - 1) * |best|
  double high_divisor = 2.0;       ///< band high = rate at the lowest smoothed loss / divisor
  double min_drop = 0.1;           ///< below this relative fall from the start: flat, no band
};

struct LearningRateRange {
  std::vector<double> rates;                ///< one per step taken, ascending
  std::vector<double> losses;               ///< the raw loss at each rate
  std::vector<double> smoothed;             ///< bias-corrected EMA; NaN from a non-finite loss on
  std::optional<std::int64_t> diverged_at;  ///< the step that stopped the run, if one did
  bool non_finite = false;                  ///< that step's loss was NaN or Inf
  std::int64_t min_index = -1;              ///< lowest smoothed loss; -1 without a finite step
  std::int64_t steepest_index = -1;         ///< fastest fall before min_index; -1 if none
  double min_loss_rate = 0.0;
  double steepest_rate = 0.0;
  /// The fall of the smoothed loss from its first value to its lowest, relative to the first.
  double drop = 0.0;
  bool has_band = false;  ///< false for a flat curve (drop < min_drop)
  double suggested_low = 0.0;
  double suggested_high = 0.0;
  double high_divisor = 2.0;
  double min_drop = 0.1;

  /// The curve (every few steps, and every marked one) as a fixed-width table, under a summary
  /// line with the band and the rule that set it.
  std::string table() const;
  /// A flat curve (no band), a minimum at the largest rate (raise max_rate), a divergence at the
  /// first steps (lower min_rate).
  std::vector<std::string> warnings() const;
};

/// Runs `step` at rates rising geometrically from min_rate to max_rate, stopping at divergence.
LearningRateRange run_learning_rate_range_test(const StepAtRate& step,
                                               const RangeTestOptions& options = {});

/// Judges a range test already run: losses[i] was taken at rates[i] (ascending). The curve ends at
/// the first non-finite loss or the first divergence, as a run would have stopped there.
LearningRateRange judge_learning_rate_range(const std::vector<double>& rates,
                                            const std::vector<double>& losses,
                                            const RangeTestOptions& options = {});

/// Passes when a rate of the sweep's best band (its best rate and those within its
/// best_band_factor) lies in [suggested_low / factor, suggested_high * factor]: a sweep finds a
/// band too, and two of its rates whose tail losses are that close are a tie, not a
/// disagreement. Fails when the range test has no band or the sweep no finite curve; the message
/// carries both tables.
::testing::AssertionResult agrees_with_sweep(const LearningRateRange& range,
                                             const LearningRateSweep& sweep, double factor = 3.0);

}  // namespace mlregress::checks
