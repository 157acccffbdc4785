// Likelihood-ratio seeds: Seeds(block).then_blocks_of(n).up_to(cap).likelihood_ratio(). Where a
// group-sequential plan (sequential_seeds.h) tests "no change" at each look and asks an interval
// for a PASS, these looks weigh two hypotheses against each other, a degradation of exactly the
// margin against none, by Wald's sequential probability ratio test (statistics/truncated_sprt.h):
//   log likelihood ratio  L_k = (delta / sd^2) (sum of the per-seed degradations - n_k delta / 2)
// after n_k seeds, delta the margin, sd that of one seed's degradation. REGRESSION when L_k
// reaches the upper boundary, PASS when it falls to the lower one, INCONCLUSIVE if neither by the
// cap. The boundaries are calibrated exactly, by numerical integration, so that
//   P(REGRESSION | no change) = alpha / family        (the run's Holm level, as elsewhere)
//   P(PASS | a degradation of the margin) = pass_error   (the power there: 1 - pass_error less
//                                                         what the cap leaves undecided)
// including the errors of what the test estimates: the sd, and for fresh seeds the baseline's
// mean. This is the test that comes closest to the fewest seeds any test can use (Wald's bound):
// runner/docs/seeded-tests.md, "How far from the floor", has the figures.
//
// What the seeds are measured against:
//   fresh seeds    the baseline arm, fixed: its mean is the reference and its sd (after the
//                  covariate, whose slope is the baseline's own, Margin{.covariate}) the scale,
//                  with its seeds - 1 (- 1 more for the slope) degrees of freedom. Both are
//                  independent of the candidate's seeds, so the calibration is exact for normal
//                  seeds. When the baseline's seeds skew toward a degradation (a tail of seeds
//                  that trained poorly), the boundaries are calibrated for seeds of that skew
//                  (statistics/seed_law.h: a standardized gamma, the skew the baseline's, in
//                  steps of 0.25), which keeps the level on such seeds where the normal's
//                  boundaries exceed it.
//   paired seeds   the per-seed differences; their sd is the spread of paired differences the
//                  baseline stores (promote measures it), with its pairs - 1 degrees of freedom,
//                  when it holds more pairs than the first look; else the first look's, frozen
//                  (the mean of a normal sample is independent of its variance, so again exact),
//                  with the first look's seeds - 1: a first look of a few seeds makes a noisy
//                  scale, which the calibration pays for with more seeds, so without a stored
//                  spread the looks start at 8 seeds whatever the plan's first block.
// The shift the test is built for is the margin over the estimated sd, rounded to a grid of 2%
// steps (the boundaries are computed once per step and kept for the process): the alternative
// is the margin to within 1%.
//
// What it does not do: report IMPROVED (a PASS says "no degradation of the margin", whatever the
// estimate's sign; the look shows the difference), or look without a margin (it needs one
// above 0: the alternative is the margin).
#pragma once

#include <string>
#include <vector>

#include "analysis/sequential_seeds.h"

namespace mlregress::internal {

/// The looks of plan (plan.likelihood_ratio; the looks of sequential_looks(plan)), with the
/// contract of look_sequentially: paired when the baseline holds plan.cap seeds including the
/// candidate's, else the whole baseline as a fixed arm; a diverged seed gives one look,
/// kRegression; fewer seeds than the first look, or a margin of 0, one look with the problem,
/// kContinue; values without spread (their difference known exactly) one look settled as the
/// single-look gate settles it; the looks stop at the first that settles the metric. Each
/// look's `analysis` is analyse_distribution of its seeds (for the report); its
/// p_worse_sequential P(REGRESSION by that look | no change) where the test stopped with
/// REGRESSION, else 1.
std::vector<SequentialLook> look_likelihood_ratio(const std::string& metric, Direction direction,
                                                  double margin, const SeedSamples& candidate,
                                                  const SeedSamples& baseline,
                                                  const SequentialPlan& plan, double alpha,
                                                  const CovariateSamples* covariate = nullptr);

/// "look at 9 seeds: diff -0.0041, log likelihood ratio 3.2 (REGRESSION at 7.13, PASS at -1.44;
/// a degradation of 0.005 against none, sd 0.0070 from the baseline's 52 seeds); continue"
std::string format_likelihood_ratio_look(const SequentialLook& look);

}  // namespace mlregress::internal
