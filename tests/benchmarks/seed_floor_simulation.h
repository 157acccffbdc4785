// How far a seed gate's design is from the fewest seeds any sequential test can use: sequences of
// seeds simulated through the gate's own decision code (look_sequentially on each metric, then
// the run's Holm decision, decide_gate), their mean seeds set beside Wald's bound
// (statistics/sequential_bound.h). Torch-free; ci/seed-floor-benchmark.sh runs the benchmark
// built on it (seed_floor_benchmark.cc).
//
// The values: the torch-free fixture's model (tests/fixture/seed_gate_fixture.cc), three
// independent standard normals per seed, with its parameters either the fixture's known ones or
// measured from a table of real per-seed values (measure_noise):
//   accuracy(stream) = mean - shift + sd · (√r² z_data + √(ρ - r²) z_seed + √(1 - ρ) z_stream)
//   covariate        = covariate_mean + covariate_sd · z_data
// r² the share of the accuracy's variance the covariate explains, ρ the correlation of two weight
// streams of one seed. A paired sequence runs the baseline's seeds with the other stream; a fresh
// one runs new seeds against a baseline of `baseline_seeds` others, adjusted by the covariate as
// the gate adjusts independent arms.
//
// d, the shift in standard deviations that the bound needs, is the shift divided by the sd of
// what one candidate seed tells the test (unit_sd):
//   paired  the sd of the per-seed difference, sd · √(2 (1 - ρ)) (the covariate cancels in it);
//   fresh   the sd of one seed's value after the covariate, sd · √(1 - r²): as if the baseline's
//           mean were known exactly, which only helps a test, so the bound stays a floor for
//           any finite baseline.
// The shift itself is the one at which a reference design reaches the
// stated power (shift_at_power): the design's own minimum detectable effect, so the bound asks
// "could any test tell no change from this shift, at this level and power, with fewer seeds?".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/sequential_seeds.h"

namespace seed_floor {

/// One real seed of a table: the accuracy of weight streams 0 and 1, and the covariate.
struct TableRow {
  double accuracy[2] = {0.0, 0.0};
  double covariate = 0.0;
};

struct NoiseModel {
  double mean = 0.873, sd = 0.009;
  double covariate_share = 0.39;  ///< r²
  double pair_correlation = 0.8;  ///< ρ
  double covariate_mean = 0.883, covariate_sd = 0.0077;
  double margin = 0.005;           ///< the accuracy's Margin{.delta}
  double covariate_margin = 0.02;  ///< the covariate's own margin (it is a gated metric too)
  /// When not empty, each seed's values are one of these rows drawn with replacement (the real
  /// seeds' own shape: skew, a bad tail) instead of the normals above; the parameters above still
  /// give d's unit (unit_sd).
  std::vector<TableRow> resampled;
};

/// The fixture's known normals (seed_gate_fixture.cc): the XOR study's figures.
NoiseModel fixture_noise();

struct SeedValues {
  double accuracy = 0.0, covariate = 0.0;
};
/// weight stream -> seed -> values (streams 0 and 1 needed).
using SeedTable = std::map<int, std::map<std::uint64_t, SeedValues>>;

/// sd, mean, r² and the covariate's mean and sd from stream 0; ρ from the seeds both streams
/// ran. The margins stay the fixture's (the XOR study's). Throws std::invalid_argument for a
/// table with fewer than 3 seeds in both streams or without spread.
NoiseModel measure_noise(const SeedTable& table);

/// measure_noise, with the table's seeds that ran in both streams as the rows to resample.
NoiseModel resampling_noise(const SeedTable& table);

struct FloorDesign {
  std::string name;
  mlregress::internal::SequentialPlan plan;
  bool paired = true;
  int baseline_seeds = 52;  ///< paired: at least plan.cap
  /// Paired: the baseline carries a stored spread of paired differences (analysis/paired_spread.h),
  /// measured on its seeds between two other runs of them, as promote stores it.
  bool stored_spread = false;
};

/// Seeds(2).then_blocks_of(2).up_to(52).likelihood_ratio().pass_error(0.2): the default design,
/// Full.XorSequentialSeedStudy's and the fixture's.
mlregress::internal::SequentialPlan default_plan();
/// Seeds(12).then_blocks_of(8).up_to(52).pass_early(): group-sequential looks, the studies' design
/// before the likelihood-ratio looks.
mlregress::internal::SequentialPlan spending_plan();
/// Seeds(8).then_blocks_of(8).up_to(52): looks every 8 seeds only.
mlregress::internal::SequentialPlan every_eight_plan();
/// Seeds(first).then_blocks_of(next).up_to(52).pass_early(), its PASS error `pass_error`: looks as
/// the seeds arrive (blocks of `next` when --jobs runs that many at once). pass_error 0.2 = beta
/// at power 0.8: the acceptance side spends the type II error as the REGRESSION side spends
/// alpha, so P(PASS) at a degradation of the margin is at most beta instead of 2.5%.
mlregress::internal::SequentialPlan frequent_plan(int first, int next, double pass_error);
/// Seeds(first).then_blocks_of(next).up_to(52).likelihood_ratio().pass_error(beta): Wald's
/// sequential probability ratio test of a degradation of the margin against none, calibrated to
/// the metric's level and power 1 - beta (analysis/likelihood_ratio_seeds.h); next may be 1.
mlregress::internal::SequentialPlan likelihood_ratio_plan(int first, int next, double beta);
/// The default design with its PASS boundary raised by `rise` from the look at `from` seeds on
/// (SequentialPlan::pass_rise): the 95th percentile of the seeds under no change, cut.
mlregress::internal::SequentialPlan rising_plan(double rise, int from);

/// The default design with a constant PASS boundary (Seeds::constant_pass()): the default before
/// paired looks chose a rise for their shape.
mlregress::internal::SequentialPlan constant_pass_plan();

struct FloorSettings {
  double alpha = 0.01;  ///< the run's family-wise level
  int family = 2;       ///< the run's distinct hypotheses: each metric settles at alpha / family
  double power = 0.8;
  int trials = 10000;  ///< sequences under no change, and again at the shift
  std::uint64_t rng_seed = 20261206;
};

/// The sd that d is measured in (see the top of this file).
double unit_sd(const NoiseModel& model, bool paired);

struct Sequences {
  int trials = 0;
  int regressions = 0;      ///< the accuracy judged REGRESSION
  int run_regressions = 0;  ///< the run judged REGRESSION on any metric (the covariate's too)
  std::vector<int> seeds;   ///< each sequence's seeds (the test runs until every metric settled)
};

/// The wall-clock of a sequence that took `seeds` seeds under `plan`, in rounds of seed runs with
/// `jobs` workers: each look's block of b seeds takes ceil(b / jobs) rounds (a look waits for its
/// whole block). jobs >= 1.
int wall_clock_rounds(const mlregress::internal::SequentialPlan& plan, int seeds, int jobs);

/// `trials` sequences at a true degradation of `shift` (>= 0, in the accuracy's units).
Sequences simulate_sequences(const NoiseModel& model, const FloorDesign& design,
                             const FloorSettings& settings, double shift, int trials);

/// The smallest shift at which `design` judges REGRESSION with settings.power, by bisection on
/// the same draws (common random numbers) with `trials` sequences per step.
double shift_at_power(const NoiseModel& model, const FloorDesign& design,
                      const FloorSettings& settings, int trials);

/// shift_at_power on `coarse_trials` sequences, then refined by bisection on settings.trials
/// sequences (the draws measure_floor judges at the shift): the line's power is then at least
/// settings.power on its own sequences, not within the coarse step's noise of it.
double refined_shift_at_power(const NoiseModel& model, const FloorDesign& design,
                              const FloorSettings& settings, int coarse_trials);

struct FloorLine {
  std::string design;
  bool paired = true;  ///< the design's pairing and baseline (the targets depend on them)
  int baseline_seeds = 52;
  double d = 0.0, alpha = 0.0, power = 0.0;  ///< alpha: the metric's level, alpha / family
  double mean_h0 = 0.0, bound_h0 = 0.0, mean_h1 = 0.0, bound_h1 = 0.0;
  int p95_seeds = 0;  ///< the larger of the 95th percentiles under no change and at the shift
  int p95_h0 = 0, p95_h1 = 0;  ///< the 95th percentile of each hypothesis's seeds
  /// The fewest seeds within which any test with these errors stops 95% of the time, under no
  /// change and at the shift (stats::percentile_seeds_bound).
  int p95_floor_h0 = 0, p95_floor_h1 = 0;
  /// The largest mean seeds over the true shifts 0, d/8, ..., d (the ends from h0 and h1, the
  /// others from settings.trials / 4 sequences each), where it was (in units of d), and the floor
  /// of every test's worst case (stats::worst_case_expected_seeds).
  double worst_mean = 0.0, worst_at = 0.0, worst_bound = 0.0;
  /// Mean wall-clock under no change, in rounds of seed runs with --jobs 2 (wall_clock_rounds).
  double wall_rounds_h0 = 0.0;
  Sequences h0, h1;
  double ratio_h0() const { return mean_h0 / bound_h0; }
  double ratio_h1() const { return mean_h1 / bound_h1; }
};

/// settings.trials sequences under no change and as many at d · unit_sd, and Wald's bounds at
/// alpha / family, 1 - power and d; the worst case over the shifts between (see FloorLine).
FloorLine measure_floor(const NoiseModel& model, const FloorDesign& design,
                        const FloorSettings& settings, double d);

/// The targets a line is held to (seeded-tests.md, "How far from the floor"), each "met",
/// "missed", or "n/a" where none is set: both ratios at most 1.3 paired and 1.6 fresh against a
/// pool (more than 52 baseline seeds; none against 52); the 95th percentile under no change,
/// p95_h0, at most 2.5 × bound_h0 (at the shift no test with the power can meet it: p95_floor_h1
/// is 2.9–3.6 × bound_h0 at power 0.8 and the levels 1% to 0.33%); the false
/// REGRESSION rate not above alpha (its 95% interval reaches down to alpha) and the power not below
/// the stated one (its interval reaches up to it).
struct FloorTargets {
  std::string ratio, p95, level, power;
};
FloorTargets floor_targets(const FloorLine& line);

/// design=… d=… alpha=… power=… mean_seeds_h0=… bound_h0=… ratio_h0=… mean_seeds_h1=…
/// bound_h1=… ratio_h1=… p95_seeds=… p95_h0=… p95_floor_h0=… p95_h1=… p95_floor_h1=… worst_mean=…
/// worst_at=… worst_bound=… wall_rounds_h0=… false_regression=…% [lo, hi] power_observed=…% [lo,
/// hi] false_regression_run=…% [lo, hi] (Clopper–Pearson 95%; the last: a REGRESSION on any of the
/// run's metrics, the covariate's too, under no change: the family-wise rate Holm holds at alpha),
/// then the targets: "targets=[ratio<=1.3 met; p95_h0<=10.5 met; false_regression<=0.005 met;
/// power>=0.80 met]".
std::string format_floor_line(const FloorLine& line);

}  // namespace seed_floor
