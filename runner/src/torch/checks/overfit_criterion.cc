#include "mlregress/checks/overfit_criterion.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace mlregress::checks {

OverfitVerdict judge_overfit(const std::vector<double>& losses, const OverfitCriterion& criterion) {
  OverfitVerdict verdict;
  if (losses.empty()) return verdict;
  verdict.initial_loss = losses.front();
  verdict.final_loss = losses.back();
  verdict.threshold = std::max(criterion.absolute_floor, criterion.max_ratio * losses.front());
  for (std::size_t step = 0; step < losses.size(); ++step) {
    if (!std::isfinite(losses[step])) {
      verdict.first_non_finite_step = static_cast<std::int64_t>(step);
      return verdict;  // a NaN anywhere is never a pass, whatever the final value
    }
    if (verdict.first_step_below < 0 && losses[step] <= verdict.threshold) {
      verdict.first_step_below = static_cast<std::int64_t>(step);
    }
    if (verdict.first_step_below_possible < 0 && criterion.min_possible_loss &&
        losses[step] < *criterion.min_possible_loss) {
      verdict.first_step_below_possible = static_cast<std::int64_t>(step);
    }
  }
  // A loss below its possible minimum is a wrong loss, never a memorised batch.
  verdict.passed = verdict.final_loss <= verdict.threshold && verdict.first_step_below_possible < 0;
  return verdict;
}

::testing::AssertionResult overfits(const std::vector<double>& losses,
                                    const OverfitCriterion& criterion) {
  if (losses.empty()) return ::testing::AssertionFailure() << "overfit check: empty loss curve";
  const OverfitVerdict v = judge_overfit(losses, criterion);
  if (v.first_non_finite_step >= 0) {
    return ::testing::AssertionFailure()
           << fmt::format("overfit check: loss is {} at step {} (initial {:.6g})",
                          losses[static_cast<std::size_t>(v.first_non_finite_step)],
                          v.first_non_finite_step, v.initial_loss);
  }
  const std::string summary = fmt::format(
      "initial loss {:.6g}, final loss {:.6g} after {} steps, threshold {:.6g} "
      "(max of floor {:.6g} and {:.6g} x initial)",
      v.initial_loss, v.final_loss, losses.size(), v.threshold, criterion.absolute_floor,
      criterion.max_ratio);
  if (v.first_step_below_possible >= 0) {
    return ::testing::AssertionFailure() << fmt::format(
               "the loss is not what it says: {:.6g} at step {} is below its possible minimum "
               "{:.6g} "
               "(e.g. NLLLoss fed logits instead of log-probabilities); {}",
               losses[static_cast<std::size_t>(v.first_step_below_possible)],
               v.first_step_below_possible, *criterion.min_possible_loss, summary);
  }
  if (!v.passed) return ::testing::AssertionFailure() << "did not overfit one batch: " << summary;
  return ::testing::AssertionSuccess() << "overfit one batch (first under the threshold at step "
                                       << v.first_step_below << "): " << summary;
}

}  // namespace mlregress::checks
