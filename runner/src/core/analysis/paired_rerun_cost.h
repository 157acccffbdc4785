// What a paired rerun costs (the baseline's own seeds, what CI runs by default), when the baseline
// stores the spread of paired differences (analysis/paired_spread.h): with it, promote can say
// how many seeds such a rerun is expected to take, which the stored samples alone cannot (they
// show how far seeds differ from each other, not how far one seed moves between two builds).
//
// Each simulated rerun takes the baseline's first `cap` seeds, moves each by a normal draw of the
// stored sd, shifted by the effect in the worse direction, and is judged by the gate's own looks
// (look_sequentially, paired because the baseline holds those seeds). The draws come from a
// constant RNG seed through the Box-Muller transform of raw 64-bit draws, so the same question
// gives the same answer on every machine.
#pragma once

#include <optional>

#include "analysis/sequential_seeds.h"
#include "mlregress/metric.h"

namespace mlregress::internal {

/// A sequential design's paired reruns on the stored spread: under no change and at a
/// degradation of the margin, beside Wald's floor for a test at the metric's level with the power
/// the design reached at the margin.
struct PairedRerunCost {
  double sd = 0.0;  ///< the stored spread's sd, and its pairs
  int pairs = 0;
  double mean_h0 = 0.0, mean_h1 = 0.0;    ///< mean seeds: no change, a degradation of the margin
  int p95_h0 = 0;                         ///< the 95th percentile of the seeds under no change
  double power_at_margin = 0.0;           ///< share of the reruns at the margin judged REGRESSION
  double d = 0.0;                         ///< the margin over the stored sd
  double bound_h0 = 0.0, bound_h1 = 0.0;  ///< Wald's floor; 0 when the power leaves none to state
};

/// `runs` simulated paired reruns of `plan` (sequential: block > 0) against `baseline`; nullopt
/// unless the margin is above 0, the baseline stores a usable spread, holds at least plan.cap
/// seeds and finite values, and the metric has a worse side.
std::optional<PairedRerunCost> paired_rerun_cost(const SeedSamples& baseline,
                                                 const SequentialPlan& plan, Direction direction,
                                                 double margin, double alpha, int runs);

}  // namespace mlregress::internal
