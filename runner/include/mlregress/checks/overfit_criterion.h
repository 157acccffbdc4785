// Overfit-one-batch: a healthy model and training loop memorise a handful of examples, so the
// loss on that batch must fall to about zero. This judges a recorded loss curve.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace mlregress::checks {

/// The curve passes when its final loss is at most max(absolute_floor, max_ratio * initial).
struct OverfitCriterion {
  double max_ratio = 0.01;       ///< final / initial loss must fall below this...
  double absolute_floor = 0.01;  ///< ...or the final loss below this
  /// The lowest value the loss can take (0 for cross-entropy, NLL of probabilities, MSE). A loss
  /// below it is not what it says, e.g. NLLLoss fed logits instead of log-probabilities, whose
  /// "loss" -z_y falls without bound and looks like perfect memorisation: such a curve fails.
  /// Unset (the default): not checked.
  std::optional<double> min_possible_loss;
};

struct OverfitVerdict {
  bool passed = false;
  double initial_loss = 0.0;
  double final_loss = 0.0;
  double threshold = 0.0;
  std::int64_t first_step_below = -1;  ///< first step at or under the threshold; -1 if never
  std::int64_t first_non_finite_step = -1;
  std::int64_t first_step_below_possible = -1;  ///< first loss under min_possible_loss; -1 if none
};

OverfitVerdict judge_overfit(const std::vector<double>& losses,
                             const OverfitCriterion& criterion = {});

/// EXPECT_TRUE(overfits(losses)) explains a failure with initial, final, threshold and the
/// first non-finite step.
::testing::AssertionResult overfits(const std::vector<double>& losses,
                                    const OverfitCriterion& criterion = {});

}  // namespace mlregress::checks
