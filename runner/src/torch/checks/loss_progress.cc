#include "mlregress/checks/loss_progress.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace mlregress::checks {

std::string_view status_name(LossProgressStatus status) {
  switch (status) {
    case LossProgressStatus::Trains:
      return "trains";
    case LossProgressStatus::NonFinite:
      return "non-finite";
    case LossProgressStatus::Thrashing:
      return "thrashing";
    case LossProgressStatus::Stalled:
      return "stalled";
  }
  return "unknown";
}

LossProgress judge_loss_progress(const std::vector<double>& losses,
                                 const LossProgressOptions& options) {
  LossProgress progress;
  progress.steps = losses.size();
  if (losses.empty()) return progress;
  progress.initial_loss = losses.front();
  for (std::size_t step = 0; step < losses.size(); ++step) {
    if (!std::isfinite(losses[step])) {
      progress.first_non_finite_step = static_cast<std::int64_t>(step);
      break;
    }
  }
  const std::size_t k = std::clamp<std::size_t>(options.tail_steps, 1, losses.size());
  double sum = 0.0;
  for (std::size_t i = losses.size() - k; i < losses.size(); ++i) sum += losses[i];
  progress.tail_loss = sum / static_cast<double>(k);
  if (progress.first_non_finite_step >= 0) {
    progress.status = LossProgressStatus::NonFinite;
    progress.tail_loss = std::numeric_limits<double>::quiet_NaN();
    progress.relative_change = std::numeric_limits<double>::quiet_NaN();
    return progress;
  }
  const double scale =
      std::max(std::abs(progress.initial_loss), std::numeric_limits<double>::min());
  progress.relative_change = (progress.tail_loss - progress.initial_loss) / scale;
  progress.max_loss = *std::max_element(losses.begin(), losses.end());
  const bool spiked = progress.max_loss - progress.initial_loss >
                      (options.spike_factor - 1.0) * std::abs(progress.initial_loss);
  if (progress.relative_change <= -options.min_relative_change) {
    progress.status = LossProgressStatus::Trains;
  } else if (progress.relative_change >= options.min_relative_change || spiked) {
    progress.status = LossProgressStatus::Thrashing;
  } else {
    progress.status = LossProgressStatus::Stalled;
  }
  return progress;
}

::testing::AssertionResult trains(const std::vector<double>& losses,
                                  const LossProgressOptions& options) {
  const LossProgress p = judge_loss_progress(losses, options);
  if (p.steps == 0) return ::testing::AssertionFailure() << "loss progress: empty loss curve";
  if (p.status == LossProgressStatus::NonFinite) {
    return ::testing::AssertionFailure() << fmt::format(
               "loss is {} at step {} of {} (initial {:.6g}): non-finite, too high a rate or "
               "exploding gradients",
               losses[static_cast<std::size_t>(p.first_non_finite_step)], p.first_non_finite_step,
               p.steps, p.initial_loss);
  }
  const std::string numbers = fmt::format(
      "initial loss {:.6g}, mean of the last {} losses {:.6g} ({:+.1f}%) after {} steps",
      p.initial_loss, std::min(options.tail_steps, p.steps), p.tail_loss, 100.0 * p.relative_change,
      p.steps);
  switch (p.status) {
    case LossProgressStatus::Trains:
      return ::testing::AssertionSuccess() << "trains: " << numbers;
    case LossProgressStatus::Thrashing:
      return ::testing::AssertionFailure() << fmt::format(
                 "thrashing: no lasting progress and the loss rose to {:.6g} (too high a "
                 "rate?): {}",
                 p.max_loss, numbers);
    default:
      return ::testing::AssertionFailure() << fmt::format(
                 "stalled, change under {:.1f}% (too low a rate, or parameters not updated?): {}",
                 100.0 * options.min_relative_change, numbers);
  }
}

}  // namespace mlregress::checks
