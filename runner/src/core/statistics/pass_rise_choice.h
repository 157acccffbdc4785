// The rise of the PASS boundary a likelihood-ratio design chooses for itself. Under no change the
// log likelihood ratio drifts to a constant PASS boundary slowly enough that 5% of runs go on
// past about 3.4 x Wald's bound (seeded-tests.md, "A PASS boundary that rises"); a boundary that
// rises from a later look stops them sooner, and pays for it in seeds on average (the calibration
// lowers the earlier boundary so that the PASS error at the margin stays beta). The choice: the
// cheapest step that stops 95% of unchanged runs by the target, the largest look within 2.5 x
// Wald's bound, while the expected seeds stay within 1.3 x both bounds. The looks come in whole
// blocks, and where the target's look sits well below 2.5 x the bound no step within 1.3 x stops
// 95% by it: then the step within 1.3 x that stops the most by it, when that cuts the 95th
// percentile. The constant boundary where it already stops 95% by the target, where it is itself
// past 1.3 x the bound under no change (a rise only adds seeds on average), or where no step
// within 1.3 x cuts its 95th percentile. The seed-floor benchmark's targets made the design's own
// rule, as far as whole looks allow.
#pragma once

#include <vector>

#include "statistics/truncated_sprt.h"

namespace mlregress::internal::stats {

struct PassRiseChoice {
  double rise = 0.0;          ///< the step on the log likelihood ratio; 0: the constant boundary
  int from = 0;               ///< the look, in seeds, from which it holds (0 without a rise)
  int target = 0;             ///< the largest look within 2.5 x Wald's bound under no change
  double target_bound = 0.0;  ///< 2.5 x Wald's bound under no change
  int p95_h0 = 0;             ///< the look by which 95% of unchanged runs stop, as chosen
  double stopped_by_target = 0.0;  ///< P(stopped by the target's look | no change), as chosen
  double ratio_h0 = 0.0;           ///< expected seeds / Wald's bound under no change, as chosen
  double ratio_h1 = 0.0;           ///< and at the shift d
  /// The rise at each of shape.looks (empty for the constant boundary), for calibrate_sprt.
  std::vector<double> rise_by_look(const SprtShape& shape) const;
};

/// A step of `rise` on the PASS boundary from the look at `from` seeds on, per look of `shape`
/// (calibrate_sprt's rise); empty for no rise.
std::vector<double> step_rise(const SprtShape& shape, double rise, int from);

/// The choice above for `shape` at level alpha and PASS error beta. Each candidate is calibrated
/// exactly (calibrate_sprt); per look from the target's less 4 seeds to the target's, the smallest
/// rise in (0, 3] that stops 95% by the target is found by bisection (the share stopped grows with
/// the rise), and the cheapest of those looks is taken; failing that, per look the largest rise
/// within 1.3 x (the cost grows with the rise), and the look that stops the most by the target.
/// Some dozens of calibrations: under a second for paired shapes (no reference), far longer for
/// fresh ones, which no rise brings to 95% anyway.
PassRiseChoice choose_pass_rise(const SprtShape& shape, double alpha, double beta);

}  // namespace mlregress::internal::stats
