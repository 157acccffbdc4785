// Is a loss curve making progress? A rate that is too high thrashes above the initial loss or
// goes non-finite; one that is too low never moves. The learning-rate sweep judges each of its
// curves with this, and a single run (e.g. with or without gradient clipping) can be judged alone.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace mlregress::checks {

/// What a loss curve did over its budget.
enum class LossProgressStatus {
  Trains,     ///< finite, and the tail loss fell below the initial loss by more than the threshold
  NonFinite,  ///< a NaN or Inf appeared (too high a rate, exploding gradients)
  Thrashing,  ///< finite, but the tail sits above the initial loss, or the loss bounced far
              ///< above it and never settled lower (too high a rate)
  Stalled,    ///< the tail loss is within the threshold of the initial loss (too low a rate)
};

/// "trains", "non-finite", "thrashing", "stalled".
std::string_view status_name(LossProgressStatus status);

struct LossProgressOptions {
  std::size_t tail_steps = 10;        ///< the tail loss is the mean of the last k losses
  double min_relative_change = 0.02;  ///< |tail - initial| / |initial| below this: stalled
  /// A curve that did not train but rose above spike_factor · initial somewhere is thrashing,
  /// not stalled: a too-high rate can bounce back to the initial level on average.
  double spike_factor = 1.5;
};

struct LossProgress {
  LossProgressStatus status = LossProgressStatus::Stalled;
  double initial_loss = 0.0;     ///< the first loss (before any update)
  double tail_loss = 0.0;        ///< mean of the last tail_steps losses; NaN if non-finite
  double relative_change = 0.0;  ///< (tail - initial) / |initial|; negative is progress
  std::int64_t first_non_finite_step = -1;  ///< -1 when every loss is finite
  double max_loss = 0.0;                    ///< the largest loss seen (finite curves)
  std::size_t steps = 0;
};

/// Judges one loss curve (losses[i] is the loss at step i). Non-finite wins over every other
/// status; an empty curve is Stalled with steps == 0.
LossProgress judge_loss_progress(const std::vector<double>& losses,
                                 const LossProgressOptions& options = {});

/// EXPECT_TRUE(trains(losses)): passes only for LossProgressStatus::Trains, and says why not
/// (initial and tail loss, relative change, first non-finite step).
::testing::AssertionResult trains(const std::vector<double>& losses,
                                  const LossProgressOptions& options = {});

}  // namespace mlregress::checks
