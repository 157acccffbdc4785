// The learning-rate sweep: the same step budget at each candidate rate, the mean of the last k
// losses per rate, and the band of rates within a factor of the best. A sweep finds a band, not
// a point, and names the rates that thrash or go non-finite (too high) or never move (too low).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mlregress/checks/loss_progress.h"

namespace mlregress::checks {

/// Trains a fresh model (from the same seed every call) for `steps` steps at `learning_rate` and
/// returns the loss at each step.
using TrainAtRate = std::function<std::vector<double>(double learning_rate, std::int64_t steps)>;

struct LearningRateSweepOptions {
  std::int64_t steps = 60;        ///< the same budget at every rate
  double best_band_factor = 1.1;  ///< in the band: tail loss <= factor * best tail loss
  LossProgressOptions progress;   ///< tail length k and the "never moves" threshold
};

struct SweepPoint {
  double learning_rate = 0.0;
  LossProgress progress;  ///< tail loss, initial loss and the warning status
  bool in_best_band = false;
  std::vector<double> losses;
};

struct LearningRateSweep {
  std::vector<SweepPoint> points;  ///< in the order the rates were given
  std::ptrdiff_t best_index = -1;  ///< lowest finite tail loss; -1 if no curve is finite
  double best_band_factor = 1.1;

  /// The rates in the best band, ascending.
  std::vector<double> best_band() const;
  /// One warning line per rate that is non-finite, thrashing or stalled.
  std::vector<std::string> warnings() const;
  /// The sweep as a fixed-width table: rate, initial, tail loss, change, band, status.
  std::string table() const;
};

/// Runs `train` at every rate with the same budget and judges the curves.
LearningRateSweep sweep_learning_rates(const std::vector<double>& rates, const TrainAtRate& train,
                                       const LearningRateSweepOptions& options = {});

/// Judges curves that were already recorded: curves[i] was trained at rates[i].
LearningRateSweep judge_learning_rate_sweep(const std::vector<double>& rates,
                                            const std::vector<std::vector<double>>& curves,
                                            const LearningRateSweepOptions& options = {});

/// Every rate in the best band lies in [low, high]; the failure message carries the table.
::testing::AssertionResult best_band_within(const LearningRateSweep& sweep, double low,
                                            double high);

/// The classic U: the best rate is neither the smallest nor the largest, and both ends lie
/// outside the best band. The failure message carries the table.
::testing::AssertionResult u_shaped(const LearningRateSweep& sweep);

}  // namespace mlregress::checks
