// Curve comparison: does a candidate curve stay within a tolerance band of a baseline curve, or
// within the envelope of several seeds' curves, and if not, at which step did it first leave?
// The first divergent step is where to start looking for the change that broke a run.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "mlregress/metric.h"

namespace mlregress::checks {

/// Per-step bounds: the candidate must satisfy lower[i] <= value[i] <= upper[i].
struct CurveEnvelope {
  std::vector<double> lower;
  std::vector<double> upper;
  std::string description;  ///< how it was built, for messages ("min/max of 5 seeds")
};

/// The per-step minimum and maximum of the curves (all of one length, at least one curve).
CurveEnvelope min_max_envelope(const std::vector<std::vector<double>>& curves);

/// Per step, mean ± k · sample standard deviation of the curves (at least two, of one length).
CurveEnvelope mean_sd_envelope(const std::vector<std::vector<double>>& curves, double k = 3.0);

/// The baseline curve widened by |band|: atol + rtol · |baseline[i]| on each side.
CurveEnvelope band_envelope(const std::vector<double>& baseline, const Band& band);

struct CurveComparisonOptions {
  /// LowerIsBetter (losses): only leaving above the envelope diverges; HigherIsBetter: only
  /// below; MustEqual: either side.
  Direction direction = Direction::MustEqual;
  /// Consecutive out-of-envelope steps needed to call it a divergence (1: any single step);
  /// the reported step is the first of that run. Non-finite values diverge at once.
  std::size_t consecutive_steps = 1;
};

struct CurveComparison {
  bool diverged = false;
  std::int64_t first_divergent_step = -1;  ///< -1 if the candidate stayed inside
  double candidate_value = 0.0;            ///< at first_divergent_step
  double lower = 0.0;                      ///< envelope at first_divergent_step
  double upper = 0.0;
  std::size_t steps_outside = 0;  ///< over the whole compared range
  std::size_t candidate_steps = 0;
  std::size_t envelope_steps = 0;  ///< lengths differ: diverged at the shorter length
  std::string envelope_description;
};

/// Compares the candidate with an envelope step by step.
CurveComparison compare_curve(const std::vector<double>& candidate, const CurveEnvelope& envelope,
                              const CurveComparisonOptions& options = {});

/// Compares the candidate with a baseline curve and a tolerance band.
CurveComparison compare_curve(const std::vector<double>& candidate,
                              const std::vector<double>& baseline, const Band& band,
                              const CurveComparisonOptions& options = {});

/// EXPECT_TRUE(curve_within(comparison)): explains the first divergent step, the value there,
/// the envelope and how many steps were outside.
::testing::AssertionResult curve_within(const CurveComparison& comparison);

}  // namespace mlregress::checks
