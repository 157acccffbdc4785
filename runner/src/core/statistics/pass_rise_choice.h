// The raise of the PASS boundary a likelihood-ratio design chooses for itself. Under no change the
// log likelihood ratio drifts to a constant PASS boundary slowly enough that 5% of runs go on
// past about 3.4 x Wald's bound (seeded-tests.md, "A PASS boundary that rises"). The choice is a
// PASS look: the PASS boundary raised at one look only, the target, the largest look within 2.5 x
// Wald's bound under no change. It stops there the unchanged runs that drift slowly, and pays in
// seeds on average, since the calibration lowers the boundary at every other look so that the
// PASS error at the margin stays beta. A raise held from the target on (a step, what
// `.pass_rise(rise, from)` declares) pays that at every later look too, where a run at the
// margin also PASSes more: on the seed-floor shapes the PASS look stops 95% by the target for
// less (1.22 x the bound where the step needs 1.34 x on 52 stored pairs), and fresh seeds, which
// no step brings to 95% by the target, reach it.
//
// The rule, the seed-floor benchmark's targets made the design's own as far as whole looks allow:
// the smallest raise that stops 95% of unchanged runs by the target while the expected seeds stay
// within the ratio (1.3 x both bounds paired; 1.6 x for fresh seeds, whose baseline mean's error
// Wald's bound leaves out); where none does (the target's look sits well below 2.5 x the bound),
// the largest raise within the ratio, at the target only or from it on (a step), whichever has
// the lower 95th percentile, when it cuts the constant boundary's; the
// constant boundary where it already stops 95% by the target, where it is itself past the ratio
// (a raise only adds seeds on average), where no raise within it cuts its 95th percentile, and
// for fresh seeds against a baseline no larger than the looks' cap (past 1.6 x at the shift on
// the studies' shapes; the choice is not computed, and its figures other than the target are 0).
#pragma once

#include <vector>

#include "statistics/truncated_sprt.h"

namespace mlregress::internal::stats {

struct PassRiseChoice {
  double rise = 0.0;          ///< the raise on the log likelihood ratio; 0: the constant boundary
  int from = 0;               ///< the first look, in seeds, it holds at (0 without a raise)
  int to = 0;                 ///< and the last (0: every look from `from` on, a step)
  int target = 0;             ///< the largest look within 2.5 x Wald's bound under no change
  double target_bound = 0.0;  ///< 2.5 x Wald's bound under no change
  int p95_h0 = 0;             ///< the look by which 95% of unchanged runs stop, as chosen
  double stopped_by_target = 0.0;  ///< P(stopped by the target's look | no change), as chosen
  double ratio_h0 = 0.0;           ///< expected seeds / Wald's bound under no change, as chosen
  double ratio_h1 = 0.0;           ///< and at the shift d
  /// The raise at each of shape.looks (empty for the constant boundary), for calibrate_sprt.
  std::vector<double> rise_by_look(const SprtShape& shape) const;
};

/// The PASS boundary raised by `rise` at the looks of `shape` from `from` seeds to `to` seeds (to
/// 0: every look from `from` on), per look (calibrate_sprt's rise); empty for no raise.
std::vector<double> pass_rise_by_look(const SprtShape& shape, double rise, int from, int to = 0);

/// The ratio of expected seeds to Wald's bound the choice stays within: 1.3 paired, 1.6 for fresh
/// seeds (a shape with a reference).
double most_chosen_ratio(const SprtShape& shape);

/// The choice above for `shape` at level alpha and PASS error beta. Each candidate is calibrated
/// exactly (calibrate_sprt); the smallest raise in (0, 4] at the target that stops 95% by it is
/// found by regula falsi (the share stopped grows with the raise), and failing that, the largest
/// of each shape within the ratio (the cost grows with the raise). For fresh seeds (a shape with
/// a reference) the candidates are calibrated with the sd and the covariate's slope known, and a
/// PASS look found there is moved up on the exact shape until it stops 95% there; the figures
/// returned are the exact shape's. Under a second paired; one to three seconds fresh.
PassRiseChoice choose_pass_rise(const SprtShape& shape, double alpha, double beta);

}  // namespace mlregress::internal::stats
