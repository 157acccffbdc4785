// Anytime-valid seeds: Seeds(block).until_decided(cap). Where a group-sequential plan
// (sequential_seeds.h) spends its errors over looks fixed in advance, these looks are judged by
// confidence sequences (statistics/confidence_sequence.h: the t-test e-process, prior scale
// g = 1), which cover the true difference at every number of seeds at once (Ville's
// inequality). So the study may look after every block, stop at any look, or be continued past
// the point it was meant to end, and the errors still hold; the cap only bounds the cost.
//
// At each look k (n_k candidate seeds):
//   interval   the running intersection of the (1 − pass_error) confidence sequence of the
//              difference candidate − baseline (97.5% for the usual 2.5%): of the per-seed
//              differences' mean (paired), or, against a fixed baseline arm (fresh seeds), the
//              candidate's sequence minus the baseline's fixed t interval (union bound). A PASS
//              needs its worst case within the margin. Ville bounds the chance that the sequence
//              ever misses the truth by pass_error, so P(PASS) at a true degradation of exactly
//              the margin is at most pass_error at any stopping time (simulated far below it:
//              anytime_seeds_test.cc). A 1 − 2·pass_error sequence, like the single-look gate's
//              95% interval, would guarantee only 2·pass_error: the sequence is two-sided.
//   p-values   p_worse / p_better: the running minimum of the one-sided anytime p-values (the
//              smallest error at which the sequence excludes every difference on the other
//              side). P(p <= u) <= u under H0 at any stopping time, so it joins the run's Holm
//              families like any p-value.
// A look settles the metric as look_sequentially's do: REGRESSION when p_worse < alpha / family
// and the estimated degradation exceeds the margin, IMPROVED symmetrically, PASS as above.
//
// The price of looking at will: the sequence is wider than a fixed-n interval at the same
// number of seeds, so a planned design decides the same margin with fewer seeds (the figures:
// runner/docs/seeded-tests.md, measured by tests/unit/anytime_seeds_test.cc).
//
// Covariates: independent-arms looks are NOT adjusted by a covariate (Margin{.covariate}); the
// note of analysis.covariate says so. CUPED's slope and the balance check it needs are estimated
// from both arms, which would make each look's statistic depend on the candidate's seeds in a
// way the e-process does not account for. Paired looks are never adjusted anyway.
#pragma once

#include <string>
#include <vector>

#include "analysis/sequential_seeds.h"

namespace mlregress::internal {

/// The anytime-valid looks of plan (plan.anytime; the looks of sequential_looks(plan)), with the
/// contract of look_sequentially: paired when the baseline holds plan.cap seeds including the
/// candidate's, else the whole baseline as a fixed independent arm; a diverged seed gives one
/// look, kRegression; fewer seeds than the first look one look with the problem, kContinue; the
/// looks stop at the first that settles the metric. Each look's `analysis` is the plain
/// analyse_distribution of its seeds; `anytime` is true, `worse_weight` 0.
std::vector<SequentialLook> look_anytime(const std::string& metric, Direction direction,
                                         double margin, const SeedSamples& candidate,
                                         const SeedSamples& baseline, const SequentialPlan& plan,
                                         double alpha, const CovariateSamples* covariate = nullptr);

/// "look at 16 seeds: diff -0.0041 [97.5% CS -0.0098, 0.0016], anytime p(worse) 0.21; continue"
std::string format_anytime_look(const SequentialLook& look);

}  // namespace mlregress::internal
