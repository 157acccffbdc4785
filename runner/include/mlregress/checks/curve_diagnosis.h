// Reading the curves: classifies a (training, validation) loss pair as underfitting,
// overfitting, a stable gap, or a training-only shortcut, the four patterns of the training
// recipe. The diagnostic sign of overfitting is validation worsening while training improves.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mlregress::checks {

enum class CurvePattern {
  Underfitting,          ///< both high (training barely fell), close together
  Overfitting,           ///< validation had a minimum, then rose while training kept falling
  StableGap,             ///< both flat at the end, validation not rising: equilibrium (normal)
  TrainingOnlyShortcut,  ///< training fell far, validation never improved at all
  StillImproving,        ///< both still falling: none of the above yet
  NonFinite,             ///< a NaN or Inf in either curve
  Unclassified,          ///< none of the patterns fits (the explanation says what was seen)
};

/// "underfitting", "overfitting", "stable gap", "training-only shortcut", ...
std::string_view pattern_name(CurvePattern pattern);

struct CurveDiagnosisOptions {
  /// Training counts as improved when its tail fell below (1 - this) · initial.
  double min_improvement = 0.05;
  /// Underfitting: the training tail is still above this fraction of the initial loss.
  double underfit_fraction = 0.5;
  /// Underfitting: |validation - training| at the end within this fraction of training.
  double close_fraction = 0.25;
  /// Overfitting: validation's last value rose above its minimum by more than this fraction.
  double overfit_rise = 0.05;
  /// Training-only shortcut: training tail at most this fraction of its initial loss, while
  /// validation never dropped below (1 - min_improvement) · its initial loss.
  double shortcut_train_fraction = 0.5;
  /// Flat: the mean of the last fifth differs from the fifth before it by less than this.
  double flat_tolerance = 0.03;
  /// Training is smoothed (trailing mean) over this many points; validation never is.
  std::size_t train_smoothing = 5;
};

struct CurveDiagnosis {
  CurvePattern pattern = CurvePattern::Unclassified;
  double train_initial = 0.0;
  double train_final = 0.0;  ///< smoothed
  double validation_initial = 0.0;
  double validation_min = 0.0;
  std::int64_t validation_min_step = -1;
  double validation_final = 0.0;  ///< raw, never smoothed
  double final_gap = 0.0;         ///< validation_final - train_final
  std::string explanation;        ///< the numbers behind the pattern, in one sentence
};

/// Diagnoses curves evaluated at the same points: train[i] and validation[i] belong together
/// (e.g. the training loss averaged since the previous evaluation, and the validation loss).
/// Curves of different lengths or shorter than 4 points are Unclassified.
CurveDiagnosis diagnose_curves(const std::vector<double>& train,
                               const std::vector<double>& validation,
                               const CurveDiagnosisOptions& options = {});

/// EXPECT_TRUE(diagnosed_as(d, CurvePattern::StableGap)) explains the pattern found instead.
::testing::AssertionResult diagnosed_as(const CurveDiagnosis& diagnosis, CurvePattern expected);

/// Passes for StableGap and StillImproving; fails, explained, for the four warning patterns.
::testing::AssertionResult curves_healthy(const CurveDiagnosis& diagnosis);

}  // namespace mlregress::checks
