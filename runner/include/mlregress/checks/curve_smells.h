// Curve smells: two shapes of the training, validation and test curves that are not bugs by
// themselves but usually point at one, kept apart from diagnose_curves (whose four patterns say
// whether training is healthy) and never part of curves_healthy.
//   - Validation better than training: the validation loss (or error) sits clearly below the
//     training one at the end. Usual reasons: dropout or augmentation active while the training
//     loss is measured; a training loss averaged over the epoch while validation is measured after
//     it; a validation set that is easier than training, or overlaps it.
//   - Test poor although validation good: at the point validation picks (its best, where early
//     stopping would stop), the test set is clearly worse. Usual reasons: a distribution shift
//     between validation and test; validation reused for tuning until it is overfit; validation
//     rows leaked from training (duplicates, oversampling before the split).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mlregress/metric.h"

namespace mlregress::checks {

enum class CurveSmellKind {
  ValidationBetterThanTraining,
  TestPoorAlthoughValidationGood,
};

/// "validation better than training", "test poor although validation good"
std::string_view curve_smell_name(CurveSmellKind kind);

struct CurveSmellOptions {
  /// LowerIsBetter for losses and errors, HigherIsBetter for accuracies (MustEqual is refused).
  Direction direction = Direction::LowerIsBetter;
  /// Validation better than training compares the means of this many last points of each curve.
  std::size_t tail_points = 5;
  /// Validation better than training: validation beats training by more than this fraction of
  /// |training| (tail means).
  double min_relative_gap = 0.05;
  /// Test poor although validation good: test worse than validation, at validation's best
  /// point, by more than this fraction of |validation| there.
  double max_test_gap = 0.10;
};

struct CurveSmellResult {
  CurveSmellKind kind = CurveSmellKind::ValidationBetterThanTraining;
  /// False when the curves could not be compared (lengths differ, fewer than 4 points, a NaN or
  /// Inf, MustEqual): then there is no smell, and no_curve_smell fails all the same.
  bool judged = false;
  bool smell = false;
  double reference = 0.0;  ///< training's tail mean / validation at its best point
  double observed = 0.0;   ///< validation's tail mean / test at that point
  /// How much better validation is than training / how much worse test is than validation,
  /// as a fraction of |reference|; negative when it goes the other way.
  double relative_gap = 0.0;
  /// The first point of the tail / validation's best point; -1 when not judged.
  std::int64_t at_point = -1;
  std::string explanation;  ///< the numbers, and for a smell its usual reasons and what to try

  /// Passes when judged and not smelly; explains a smell or why nothing could be judged.
  ::testing::AssertionResult assertion() const;
  operator ::testing::AssertionResult() const {
    return assertion();
  }  // NOLINT(google-explicit-constructor)
};

/// train[i] and validation[i] belong together (evaluated at the same point of training).
CurveSmellResult validation_better_than_training(const std::vector<double>& train,
                                                 const std::vector<double>& validation,
                                                 const CurveSmellOptions& options = {});

/// validation[i] and test[i] belong together. Judged at validation's best point (the first one
/// when it repeats).
CurveSmellResult test_poor_although_validation_good(const std::vector<double>& validation,
                                                    const std::vector<double>& test,
                                                    const CurveSmellOptions& options = {});

/// EXPECT_TRUE(no_curve_smell(validation_better_than_training(train, validation))).
::testing::AssertionResult no_curve_smell(const CurveSmellResult& result);

}  // namespace mlregress::checks
