// Sequential seeds: "re-run surprising results" without peeking. A seeded metric whose first
// block of seeds leaves the gate INCONCLUSIVE gets the next block of the baseline's seeds (so
// the comparison stays paired), up to a cap, and stops at the first look that decides it.
//
// Each look k (n_k candidate seeds, information fraction t_k) is judged with error budgets
// spent over the planned looks (statistics/group_sequential.h):
//   REGRESSION side  paired looks (the default): each block's own t test, combined across
//                    blocks (statistics/block_combination.h), against the exact boundaries of
//                    the run's Holm levels; p_seq < alpha / m exactly when the combined statistic
//                    crossed the boundary of level alpha / m (measured: 1.02% at a nominal 1%).
//                    Fresh seeds, and paired looks with exact_regression_boundaries off:
//                    the sequential p-value p_seq = min over the looks so far of p_j / w_j, with
//                    w_j the share of alpha look j may spend (Pocock-type: about 30% of it at
//                    the first of five looks, so a large regression is decided on the first
//                    block), by the union bound: P(p_seq < u) <= u under H0 for any stopping
//                    rule and every u, exactly for t tests whatever the correlation between
//                    looks, so p_seq is a p-value that joins the run's Holm families like any
//                    other. The price: about a quarter of alpha stays unspent (measured: 0.77%
//                    paired, 0.85% fresh at a nominal 1%).
//   PASS side        the interval of look k has two-sided level 1 - 2 g_k, g_k the nominal
//                    one-sided level of the exact boundary for the non-inferiority error (2.5%,
//                    as the single-look gate's 95% interval) spent O'Brien–Fleming-type: an
//                    early PASS needs a very wide interval to stay within the margin (99.9999% at
//                    the first of five paired looks), the last look is close to a single 95%
//                    interval (95.89% at the fifth of five paired looks; 97.44% by the union
//                    bound). Paired looks are one-sample t tests, whose joint law under H0
//                    depends only on the seed counts: their boundaries are found for the t
//                    statistics themselves (statistics/t_sequential_boundaries.h; the z
//                    boundaries used as nominal t levels crossed 2.61% instead of 2.5% with
//                    Pocock-type spending). Checked by simulation: P(PASS) at a true degradation
//                    of exactly the margin is at most 2.5% within its interval
//                    (sequential_seeds_test.cc). Fresh seeds against a fixed baseline arm keep
//                    the union bound's levels (with the z boundaries their Welch tests passed
//                    2.83% of the time).
// A look settles the metric when p_seq < alpha / m and the estimated degradation exceeds the
// margin (a regression), symmetrically for an improvement, or when its interval rules out a
// degradation beyond the margin (a pass); otherwise the next block runs. m is the number of
// distinct hypotheses of the run's Holm families (SequentialPlan::family): Holm rejects whatever
// is below alpha / m, so a settled regression stays one after the correction, and a p_seq
// between alpha / m and alpha buys the next block rather than ending INCONCLUSIVE. After the last
// look an unsettled metric is INCONCLUSIVE, as in the single-look gate.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/distribution_gate.h"
#include "statistics/group_sequential.h"

namespace mlregress::internal {

/// The one-sided error of a PASS unless a test declares Seeds(...).pass_error(e): the single-look
/// gate's 95% interval. (The public Seeds keeps the same default.)
inline constexpr double kDefaultPassError = 0.025;

/// Seeds(block).up_to(cap): looks after block, 2·block, ... seeds, the last at cap;
/// Seeds(block).then_blocks_of(next).up_to(cap): after block, block + next, block + 2·next, ...
struct SequentialPlan {
  int block = 0;
  int cap = 0;
  /// The size of every block after the first (0: the first block's). A first block larger than
  /// the next ones spends no error on looks at a handful of seeds, which rarely decide anything.
  int next_block = 0;
  /// Seeds(block).until_decided(cap): anytime-valid looks (analysis/anytime_seeds.h) instead of
  /// error spending over the planned looks; the cap bounds the cost, not the error.
  bool anytime = false;
  /// Seeds(block).up_to(cap).likelihood_ratio(): Wald's sequential probability ratio test of a
  /// degradation of the margin against none (analysis/likelihood_ratio_seeds.h) at the plan's
  /// looks, which may then come every seed (then_blocks_of(1)). pass_error is its type II error.
  bool likelihood_ratio = false;
  double pass_error = kDefaultPassError;  ///< one-sided error of a PASS, spent over the looks
  stats::SpendingFunction regression_spending = stats::SpendingFunction::kPocock;
  stats::SpendingFunction pass_spending = stats::SpendingFunction::kOBrienFleming;
  /// How the PASS error of paired looks is spent: exactly (the t boundaries of
  /// statistics/t_sequential_boundaries.h, as nominal levels for each look's t interval), or by the
  /// union bound over the spent increments (valid whatever the correlation, but it leaves part of
  /// the error unspent: the last of five looks gets about half of it). Looks against a fixed
  /// baseline arm (fresh seeds) always use the union bound: with the exact levels their Welch
  /// tests exceed the error (2.83% at 2.5%, simulated).
  bool exact_pass_boundaries = true;
  /// How the REGRESSION (and IMPROVED) error of paired looks is spent: exactly, on each block's
  /// own t test combined across blocks (statistics/block_combination.h), or by the union bound
  /// over the t tests on all the seeds so far (valid, but about a quarter of alpha stays
  /// unspent). Fresh seeds always use the union bound: their blocks share the baseline arm, so
  /// their tests are not independent.
  bool exact_regression_boundaries = true;
  /// The number of distinct hypotheses the run's Holm correction will span (its seeded metrics
  /// with per-seed baselines, identical ones counted once). A look decides a regression or an
  /// improvement only at alpha / family: Bonferroni's level, which Holm's step-down then
  /// certainly rejects, so a metric that a look settled is never demoted to INCONCLUSIVE by the
  /// correction; one between alpha / family and alpha gets the next block instead.
  int family = 1;
  /// Likelihood-ratio plans: the PASS boundary rises by pass_rise on the log likelihood ratio from
  /// the look at pass_rise_from seeds on (statistics/truncated_sprt.h, SprtBoundaries::rise): an
  /// unchanged candidate stops within those seeds more often, for a few more seeds on average.
  /// 0: none declared; the looks then take the PASS look the design chooses for their shape
  /// (statistics/pass_rise_choice.h: the boundary raised at one look) unless constant_pass.
  double pass_rise = 0.0;
  int pass_rise_from = 0;
  /// Likelihood-ratio plans declared .constant_pass(): a constant PASS boundary on every look,
  /// the design closest to Wald's bound on average, with a long tail of seeds under no change.
  bool constant_pass = false;
};

/// The seed counts at which the plan looks: {8, 16, 24, 32, 40} for block 8, cap 40; {12, 20,
/// 28, 36, 44} for block 12, next_block 8, cap 44; a cap the blocks do not reach exactly adds a
/// last, smaller block. Invalid plans (block < 2, next_block < 0, next_block 1 outside a
/// likelihood-ratio plan, cap < block) are std::invalid_argument.
std::vector<int> sequential_looks(const SequentialPlan& plan);

/// What the design lines of list and promote say of a plan's PASS boundary: ", PASS boundary
/// rising by 2 from 10 seeds" for a declared pass_rise; for other likelihood-ratio plans
/// ", constant PASS boundary" (constant_pass) or ", PASS boundary chosen per shape"; ""
/// for the other designs.
std::string pass_boundary_clause(bool likelihood_ratio, double rise, int from_seeds,
                                 bool constant_pass);

enum class LookOutcome { kContinue, kRegression, kImproved, kPass };
/// "continue", "regression", "improvement", "pass"
std::string_view look_outcome_name(LookOutcome outcome);
std::optional<LookOutcome> parse_look_outcome(std::string_view name);

/// One look at a metric.
struct SequentialLook {
  int seeds = 0;              ///< candidate seeds so far
  double information = 0.0;   ///< t_k
  double worse_weight = 0.0;  ///< w_k: the share of alpha this look may spend
  double pass_level = 0.0;    ///< two-sided level of this look's interval
  /// How the plan spends the PASS error (SequentialPlan::pass_spending): Pocock-type lets an
  /// unchanged metric PASS at earlier looks.
  stats::SpendingFunction pass_spending = stats::SpendingFunction::kOBrienFleming;
  DistributionAnalysis analysis;  ///< the candidate's first `seeds` seeds against the baseline's
  double interval_lower = 0.0, interval_upper = 0.0;  ///< at pass_level
  /// The sequential p-values: min over the looks so far of p_worse / w (union bound), or with
  /// exact boundaries crossing_p_value of the combined block statistics.
  double p_worse_sequential = 1.0;
  double p_better_sequential = 1.0;
  /// With exact REGRESSION boundaries: Z_k of the blocks' t tests toward "worse" and "better"
  /// (statistics/block_combination.h), and the boundary Z_k must reach to settle the metric
  /// at decision_level; NaN otherwise.
  bool exact_regression = false;
  double z_worse = std::numeric_limits<double>::quiet_NaN();
  double z_better = std::numeric_limits<double>::quiet_NaN();
  double regression_boundary = std::numeric_limits<double>::quiet_NaN();
  /// alpha / family: the level a sequential p-value must fall below to settle the metric.
  double decision_level = 0.0;
  int family = 1;  ///< the run's distinct hypotheses (SequentialPlan::family)
  LookOutcome outcome = LookOutcome::kContinue;
  /// A look of Seeds(b).until_decided(n) (analysis/anytime_seeds.h): its interval is a
  /// confidence sequence, its sequential p-values anytime p-values; worse_weight is 0.
  bool anytime = false;
  /// A look of Seeds(...).likelihood_ratio() (analysis/likelihood_ratio_seeds.h): its log
  /// likelihood ratio of a degradation of `alternative` (the margin as tested) against none, the
  /// boundaries on it (regression_boundary above, pass_boundary below), and the sd of one seed's
  /// degradation the ratio is measured in, with where it came from (`scale_source`).
  bool likelihood_ratio = false;
  double log_ratio = std::numeric_limits<double>::quiet_NaN();
  double pass_boundary = std::numeric_limits<double>::quiet_NaN();
  double alternative = std::numeric_limits<double>::quiet_NaN();
  double seed_sd = std::numeric_limits<double>::quiet_NaN();
  /// The seeds' skewness toward a degradation the boundaries are calibrated for (fresh seeds: the
  /// baseline's; 0: normal seeds, statistics/seed_law.h).
  double seed_skew = 0.0;
  std::string scale_source;
  /// The PASS boundary's raise the looks were calibrated for (0: a constant boundary), the seeds
  /// from which it held and to which (0: every later look, a step; the design's choice is one
  /// look, from = to); chosen: the design chose it for the shape (not .pass_rise()).
  double pass_rise = 0.0;
  int pass_rise_from = 0;
  int pass_rise_to = 0;
  bool pass_rise_chosen = false;
};

/// Looks at the candidate's seeds (in the order they ran) against the baseline, from the first
/// look on, until one settles the metric or the candidate's seeds run out: the looks taken. The
/// baseline is restricted to the candidate's seeds at each look when it has them all (a paired
/// look); otherwise each look is an independent-arms comparison with the whole baseline.
/// alpha is the run's family-wise level. A covariate (Margin{.covariate}) adjusts every
/// independent-arms look (analyse_distribution). A NaN or Inf among the seeds that ran gives a
/// single look, kRegression (a seed diverged); fewer seeds than the first look, or samples that
/// cannot be tested, a single look with the problem and kContinue.
std::vector<SequentialLook> look_sequentially(const std::string& metric, Direction direction,
                                              double margin, const SeedSamples& candidate,
                                              const SeedSamples& baseline,
                                              const SequentialPlan& plan, double alpha,
                                              const CovariateSamples* covariate = nullptr);

/// The analysis the run's gate decides a sequential metric by: the last look's, with the
/// sequential p-values (they join the run's Holm families) and the look's interval as the one a
/// PASS needs. A look with a problem, or a diverged seed, is passed on as it is.
DistributionAnalysis sequential_decision_analysis(const SequentialLook& last);

/// What a comparison says of the PASS boundary its likelihood-ratio looks used: ", PASS boundary
/// rising by 1.68 from 10 seeds" for a declared step, ", PASS boundary raised by 1.25 at 10 seeds,
/// chosen for the shape" for the design's choice, "" for a constant boundary or another design.
std::string look_pass_boundary_clause(const SequentialLook& look);

/// "look 2 (16 seeds): diff -0.0041 [97.1% CI -0.0098, 0.0016], p(worse) 0.21 → sequential
/// 0.93; continue"
std::string format_look(const SequentialLook& look);

}  // namespace mlregress::internal
