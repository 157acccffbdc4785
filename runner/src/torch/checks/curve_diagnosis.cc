#include "mlregress/checks/curve_diagnosis.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace mlregress::checks {
namespace {

double mean_of(const std::vector<double>& values, std::size_t begin, std::size_t end) {
  double sum = 0.0;
  for (std::size_t i = begin; i < end; ++i) sum += values[i];
  return sum / static_cast<double>(end - begin);
}

// The last window against the window before it, relative to the earlier one.
double late_relative_change(const std::vector<double>& values, std::size_t window) {
  const std::size_t n = values.size();
  const double late = mean_of(values, n - window, n);
  const double earlier = mean_of(values, n - 2 * window, n - window);
  return (late - earlier) / std::max(std::abs(earlier), 1e-12);
}

}  // namespace

std::string_view pattern_name(CurvePattern pattern) {
  switch (pattern) {
    case CurvePattern::Underfitting:
      return "underfitting";
    case CurvePattern::Overfitting:
      return "overfitting";
    case CurvePattern::StableGap:
      return "stable gap";
    case CurvePattern::TrainingOnlyShortcut:
      return "training-only shortcut";
    case CurvePattern::StillImproving:
      return "still improving";
    case CurvePattern::NonFinite:
      return "non-finite";
    case CurvePattern::Unclassified:
      return "unclassified";
  }
  return "unknown";
}

CurveDiagnosis diagnose_curves(const std::vector<double>& train,
                               const std::vector<double>& validation,
                               const CurveDiagnosisOptions& options) {
  CurveDiagnosis d;
  const std::size_t n = train.size();
  if (n != validation.size() || n < 4) {
    d.explanation = fmt::format(
        "needs training and validation curves of one length, at least 4 points (got {} and {})",
        train.size(), validation.size());
    return d;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(train[i]) || !std::isfinite(validation[i])) {
      d.pattern = CurvePattern::NonFinite;
      d.explanation = fmt::format("{} loss is {} at point {}",
                                  std::isfinite(train[i]) ? "validation" : "training",
                                  std::isfinite(train[i]) ? validation[i] : train[i], i);
      return d;
    }
  }
  // Training points are noisy minibatch losses: smooth them. Validation is never smoothed, or
  // its minimum moves.
  const std::size_t w = std::clamp<std::size_t>(options.train_smoothing, 1, n);
  std::vector<double> smooth(n);
  for (std::size_t i = 0; i < n; ++i) smooth[i] = mean_of(train, i + 1 >= w ? i + 1 - w : 0, i + 1);

  d.train_initial = train.front();
  d.train_final = smooth.back();
  d.validation_initial = validation.front();
  const auto min_it = std::min_element(validation.begin(), validation.end());
  d.validation_min = *min_it;
  d.validation_min_step = min_it - validation.begin();
  d.validation_final = validation.back();
  d.final_gap = d.validation_final - d.train_final;

  const double drop = 1.0 - options.min_improvement;
  const bool validation_improved = d.validation_min < drop * d.validation_initial;
  const bool validation_rose =
      d.validation_final > d.validation_min + options.overfit_rise * std::abs(d.validation_min);
  const std::size_t window = std::max<std::size_t>(2, n / 5);
  const bool can_judge_flat = 2 * window <= n;
  const double train_late = can_judge_flat ? late_relative_change(train, window) : 0.0;
  const double validation_late = can_judge_flat ? late_relative_change(validation, window) : 0.0;
  const bool flat = can_judge_flat && std::abs(train_late) < options.flat_tolerance &&
                    std::abs(validation_late) < options.flat_tolerance;

  const std::string numbers = fmt::format(
      "training {:.4g} -> {:.4g}; validation {:.4g} -> min {:.4g} at point {} -> {:.4g}; "
      "final gap {:+.4g}",
      d.train_initial, d.train_final, d.validation_initial, d.validation_min, d.validation_min_step,
      d.validation_final, d.final_gap);

  if (d.train_final <= options.shortcut_train_fraction * d.train_initial && !validation_improved) {
    d.pattern = CurvePattern::TrainingOnlyShortcut;
    d.explanation =
        "training fell far but validation never improved (suspect label "
        "information that reaches the model only in training): " +
        numbers;
  } else if (validation_improved && validation_rose &&
             static_cast<std::size_t>(d.validation_min_step) + 1 < n &&
             d.train_final < smooth[static_cast<std::size_t>(d.validation_min_step)]) {
    d.pattern = CurvePattern::Overfitting;
    d.explanation = fmt::format(
        "validation rose {:.1f}% above its minimum while training kept falling (early stopping "
        "would take point {}): {}",
        100.0 * (d.validation_final - d.validation_min) / std::abs(d.validation_min),
        d.validation_min_step, numbers);
  } else if (d.train_final > options.underfit_fraction * d.train_initial &&
             std::abs(d.final_gap) <= options.close_fraction * std::abs(d.train_final)) {
    d.pattern = CurvePattern::Underfitting;
    d.explanation = fmt::format(
        "both high and close together: training still at {:.0f}% of its initial loss: {}",
        100.0 * d.train_final / d.train_initial, numbers);
  } else if (flat && !validation_rose) {
    d.pattern = CurvePattern::StableGap;
    d.explanation = "both flat at the end, validation not rising (equilibrium): " + numbers;
  } else if (train_late < 0.0 && !validation_rose) {
    d.pattern = CurvePattern::StillImproving;
    d.explanation = "training still falling, validation not rising: " + numbers;
  } else {
    d.explanation =
        fmt::format("no pattern fits (late change: training {:+.1f}%, validation {:+.1f}%): {}",
                    100.0 * train_late, 100.0 * validation_late, numbers);
  }
  return d;
}

::testing::AssertionResult diagnosed_as(const CurveDiagnosis& diagnosis, CurvePattern expected) {
  if (diagnosis.pattern == expected) {
    return ::testing::AssertionSuccess() << pattern_name(expected) << ": " << diagnosis.explanation;
  }
  return ::testing::AssertionFailure()
         << "expected " << pattern_name(expected) << ", found " << pattern_name(diagnosis.pattern)
         << ": " << diagnosis.explanation;
}

::testing::AssertionResult curves_healthy(const CurveDiagnosis& diagnosis) {
  const bool healthy = diagnosis.pattern == CurvePattern::StableGap ||
                       diagnosis.pattern == CurvePattern::StillImproving;
  if (healthy) {
    return ::testing::AssertionSuccess()
           << pattern_name(diagnosis.pattern) << ": " << diagnosis.explanation;
  }
  return ::testing::AssertionFailure()
         << pattern_name(diagnosis.pattern) << ": " << diagnosis.explanation;
}

}  // namespace mlregress::checks
