// The power of the gate that will actually judge a seeded metric against stored samples, found by
// running that gate on simulated candidates. A closed-form minimum detectable effect (one Welch
// test, statistics/power.h) overstates it: a REGRESSION also needs the estimated degradation
// beyond the margin, a sequential test settles only at alpha / family and may stop early on a
// PASS, and a fixed-seed test meets Holm's correction.
//
// A simulated candidate runs on fresh seeds: its values are drawn with replacement from the
// stored samples (a bootstrap: the stored spread stands for the candidate's) and shifted by the
// effect in the worse direction; the baseline arm is the stored samples themselves, fixed, as
// the gate will see them. Each draw is judged by the real decision code:
//   sequential (block > 0)  look_sequentially with {block, cap, family}; a REGRESSION is a look
//                           that settles one (at alpha / family);
//   fixed seeds (block 0)   analyse_distribution on `cap` seeds, then decide_gate at
//                           alpha / family: Holm's first step, the level a check must reach
//                           when every other hypothesis of the run holds (Holm rejects more
//                           when others are rejected too, so this is the power's lower bound).
// The draws are fixed by a constant RNG seed and shared by every effect (common random
// numbers): the same inputs give the same answer, and power grows with the effect.
//
// A paired candidate (the baseline's own seeds, the CI default) depends on how much one seed's
// value moves between the baseline's code and the candidate's, which the stored samples do not
// say; when the baseline stores a spread of paired differences, a sequential test's paired reruns
// are simulated on it too (analysis/paired_rerun_cost.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/distribution_gate.h"
#include "analysis/paired_rerun_cost.h"
#include "analysis/sequential_seeds.h"
#include "mlregress/metric.h"
#include "statistics/group_sequential.h"

namespace mlregress::internal {

struct GatePowerQuestion {
  Direction direction = Direction::HigherIsBetter;
  double margin = 0.0;   ///< Margin{.delta}, in the metric's units
  SeedSamples baseline;  ///< the stored samples the candidate will be compared with
  int block = 0;         ///< Seeds(block).up_to(cap); 0: a fixed-seed test
  int cap = 0;           ///< the most seeds a sequential run takes; a fixed-seed test's seeds
  int family = 1;        ///< the run's distinct seeded hypotheses (hypothesis_family.h)
  /// Sequential tests: how the PASS error is spent (Seeds(b).up_to(cap).pass_early(): Pocock-type).
  /// An early PASS stops the looks, so it changes both the power and the seeds a run takes.
  stats::SpendingFunction pass_spending = stats::SpendingFunction::kOBrienFleming;
  /// Sequential tests: the one-sided PASS error (Seeds::pass_error(); 0.025 unless declared).
  double pass_error = kDefaultPassError;
  int next_block = 0;             ///< sequential tests: the blocks after the first (0: block)
  bool anytime = false;           ///< Seeds(b).until_decided(cap): anytime-valid looks
  bool likelihood_ratio = false;  ///< Seeds(b).up_to(cap).likelihood_ratio(): Wald's SPRT
  double pass_rise = 0.0;         ///< its .pass_rise(rise, from): the rise (0: none)
  int pass_rise_from = 0;         ///< and the seeds from which it holds
  bool constant_pass = false;     ///< its .constant_pass()
  double alpha = kDefaultGateAlpha;
  /// Margin{.covariate}: the covariate's name and its stored value for each baseline sample (same
  /// order). A simulated seed then draws its value and its covariate together, and the gate
  /// adjusts by the covariate as it will in the run. Empty name: none.
  std::string covariate;
  std::vector<double> covariate_values;
  /// Simulated candidate runs per effect: a power of 80% within ±0.9% (one standard error). Each
  /// run costs the real gate's looks, about 0.15 ms for a 5-look plan on one core.
  int runs = 2000;
};

/// The gate's behaviour against a true shift of `effect` (>= 0) in the worse direction.
struct GatePowerAtEffect {
  double effect = 0.0;
  double power = 0.0;         ///< share of the simulated runs judged REGRESSION
  double median_seeds = 0.0;  ///< seeds the gate took (a fixed-seed test: always cap)
  double mean_seeds = 0.0;    ///< their mean: what the gate costs on average
  int p95_seeds = 0;          ///< their 95th percentile: what a budget per run must allow
};

/// What a sequential design costs against what any test must: the gate's mean seeds under no
/// change and at the detectable effect, beside Wald's floor (statistics/sequential_bound.h) at
/// the metric's level alpha / family, the target power and d, the detectable effect in standard
/// deviations of one seed's value (after the covariate, when there is one: sd · sqrt(1 - r²)).
struct ExpectedSeeds {
  double d = 0.0;
  double mean_h0 = 0.0, mean_h1 = 0.0;    ///< simulated: no change, the detectable effect
  int p95_h0 = 0;                         ///< simulated: the 95th percentile under no change
  double bound_h0 = 0.0, bound_h1 = 0.0;  ///< Wald's floor for any test with this level and power
};

struct GatePower {
  std::string problem;  ///< non-empty: nothing was simulated (too few samples, no spread, ...)
  GatePowerAtEffect detectable;  ///< the smallest effect (2 digits, rounded up) with >= target
  /// Power only (median_seeds 0); unset (effect 0, power 0) when the margin is 0.
  GatePowerAtEffect at_margin, at_two_margins;
  double target_power = 0.8;
  /// Sequential tests only (block > 0): the seeds the gate is expected to take, and the floor.
  std::optional<ExpectedSeeds> expected_seeds;
  /// Sequential tests whose baseline stores a spread of paired differences: a paired rerun's cost.
  std::optional<PairedRerunCost> paired_rerun;
};

/// The gate's power at one effect, over question.runs simulated candidates. Throws
/// std::invalid_argument for a question gate_power would report as a problem.
GatePowerAtEffect simulated_gate_power(const GatePowerQuestion& question, double effect);

/// The smallest effect the gate catches with at least `target_power` (bisection over the effect
/// on the same draws), with the power and median seeds there, and the power at the margin and at
/// twice the margin. Never throws for unusable samples: fills `problem`.
GatePower gate_power(const GatePowerQuestion& question, double target_power = 0.8);

/// One line for promote and the report, e.g.
///   "the gate that will run (fresh seeds, 8 at a time up to 40, alpha 0.01 / 2 hypotheses,
///    margin 0.005) catches a drop of 0.0091 with 80% power (median 24 seeds; simulated from
///    these 40 samples, 2000 runs); at the margin 0.005: 31%; at 2 margins: 88%; a paired
///    rerun on the stored seeds (the CI default) is not simulated: ..."
/// A sequential test adds the seeds it is expected to take, e.g. "expected seeds 18.4 under no
/// change and 24.0 at that drop; no test at this level and power can average fewer than 3.8 and
/// 8.9 (Wald's bound at d 0.92 sd of one seed)", and with a stored spread of paired differences
/// the paired rerun's: "a paired rerun on the stored seeds (the CI default), each seed moving by
/// the stored spread of paired differences (sd 0.006251, 52 pairs): expected seeds 5.6 under no
/// change and 14.3 at the margin, where it is caught with 80% power; no test at this level and
/// power can average fewer than ...". Powers are rounded down and the effect up, so
/// the line never promises more than the simulation found. With a problem: why no power is
/// stated.
std::string gate_power_sentence(const GatePowerQuestion& question, const GatePower& power);

}  // namespace mlregress::internal
