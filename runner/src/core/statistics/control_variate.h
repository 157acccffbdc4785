// Variance reduction with a pre-registered covariate (CUPED, Deng et al. 2013): a per-seed value x
// that the change under test cannot move (the test set's own difficulty, measured from the data
// alone) but that explains part of the metric y's seed-to-seed spread. Each arm's values become
//   y' = y - theta (x - mean x),   theta = Sxy / Sxx over both arms, each centred on its own mean
// (the pooled within-arm slope, so a shift between the arms does not leak into theta). The
// difference of the adjusted means is the difference of the means corrected for the arms' chance
// imbalance in x, unbiased whenever x's distribution is the same in both arms, and its variance
// shrinks by the share of the within-arm variance of y that x explains (1 - rho²). A covariate
// the change does move biases the estimate: the caller checks the arms' balance in x first.
#pragma once

#include <span>
#include <vector>

namespace mlregress::internal::stats {

struct ControlVariateAdjustment {
  double theta = 0.0;               ///< the pooled within-arm slope of y on x
  double variance_explained = 0.0;  ///< R² of that slope: the within-arm variance it removes
  std::vector<double> first_adjusted, second_adjusted;  ///< y' of each arm, in input order
};

/// Both arms need at least 2 values, equal-length y and x per arm, finite values and some
/// within-arm spread in x (std::invalid_argument otherwise: a constant covariate explains
/// nothing).
ControlVariateAdjustment adjust_by_covariate(std::span<const double> y_first,
                                             std::span<const double> x_first,
                                             std::span<const double> y_second,
                                             std::span<const double> x_second);

}  // namespace mlregress::internal::stats
