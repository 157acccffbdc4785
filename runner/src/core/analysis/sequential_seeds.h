// Sequential seeds: "re-run surprising results" without peeking. A seeded metric whose first
// block of seeds leaves the gate INCONCLUSIVE gets the next block of the baseline's seeds (so
// the comparison stays paired), up to a cap, and stops at the first look that decides it.
//
// Each look k (n_k candidate seeds, information fraction t_k) is judged with error budgets
// spent over the planned looks (statistics/group_sequential.h), by the union bound over the
// spent increments, which holds whatever the correlation between looks:
//   REGRESSION side  the sequential p-value p_seq = min over the looks so far of p_j / w_j, with
//                    w_j the share of alpha look j may spend (Pocock-type: about 30% of it at
//                    the first of five looks, so a large regression is decided on the first
//                    block). P(p_seq < u) <= u under H0 for any stopping rule, so p_seq is a
//                    p-value: it joins the run's Holm families like any other.
//   PASS side        the interval of look k has two-sided level 1 - 2 g_k, with g_k the share of
//                    the non-inferiority error (2.5%, as the single-look gate's 95% interval)
//                    spent there, O'Brien–Fleming-type: an early PASS needs a very tight
//                    interval, the last look gets about half of the 2.5% (a 97.4% interval
//                    at the fifth of five looks).
// A look settles the metric when p_seq < alpha and the estimated degradation exceeds the margin
// (a regression, before Holm), symmetrically for an improvement, or when its interval rules out a
// degradation beyond the margin (a pass); otherwise the next block runs. After the last look an
// unsettled metric is INCONCLUSIVE, as in the single-look gate.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/distribution_gate.h"
#include "statistics/group_sequential.h"

namespace mlregress::internal {

/// Seeds(block).up_to(cap): looks after block, 2·block, ... seeds, the last at cap.
struct SequentialPlan {
  int block = 0;
  int cap = 0;
  double pass_error = 0.025;  ///< one-sided error of a PASS, spent over the looks
  stats::SpendingFunction regression_spending = stats::SpendingFunction::kPocock;
  stats::SpendingFunction pass_spending = stats::SpendingFunction::kOBrienFleming;
};

/// The seed counts at which the plan looks: {8, 16, 24, 32, 40} for block 8, cap 40; a cap that
/// is not a multiple of the block adds a last, smaller block. Invalid plans (block < 2, cap <
/// block) are std::invalid_argument.
std::vector<int> sequential_looks(const SequentialPlan& plan);

enum class LookOutcome { kContinue, kRegression, kImproved, kPass };
/// "continue", "regression", "improvement", "pass"
std::string_view look_outcome_name(LookOutcome outcome);
std::optional<LookOutcome> parse_look_outcome(std::string_view name);

/// One look at a metric.
struct SequentialLook {
  int seeds = 0;                  ///< candidate seeds so far
  double information = 0.0;       ///< t_k
  double worse_weight = 0.0;      ///< w_k: the share of alpha this look may spend
  double pass_level = 0.0;        ///< two-sided level of this look's interval
  DistributionAnalysis analysis;  ///< the candidate's first `seeds` seeds against the baseline's
  double interval_lower = 0.0, interval_upper = 0.0;  ///< at pass_level
  double p_worse_sequential = 1.0;                    ///< min over the looks so far of p_worse / w
  double p_better_sequential = 1.0;
  LookOutcome outcome = LookOutcome::kContinue;
};

/// Looks at the candidate's seeds (in the order they ran) against the baseline, from the first
/// look on, until one settles the metric or the candidate's seeds run out: the looks taken. The
/// baseline is restricted to the candidate's seeds at each look when it has them all (a paired
/// look); otherwise each look is an independent-arms comparison with the whole baseline.
/// alpha is the run's family-wise level. A NaN or Inf among the seeds that ran gives a single
/// look, kRegression (a seed diverged); fewer seeds than the first look, or samples that cannot
/// be tested, a single look with the problem and kContinue.
std::vector<SequentialLook> look_sequentially(const std::string& metric, Direction direction,
                                              double margin, const SeedSamples& candidate,
                                              const SeedSamples& baseline,
                                              const SequentialPlan& plan, double alpha);

/// The analysis the run's gate decides a sequential metric by: the last look's, with the
/// sequential p-values (they join the run's Holm families) and the look's interval as the one a
/// PASS needs. A look with a problem, or a diverged seed, is passed on as it is.
DistributionAnalysis sequential_decision_analysis(const SequentialLook& last);

/// "look 2 (16 seeds): diff -0.0041 [97.1% CI -0.0098, 0.0016], p(worse) 0.21 → sequential
/// 0.93; continue"
std::string format_look(const SequentialLook& look);

}  // namespace mlregress::internal
