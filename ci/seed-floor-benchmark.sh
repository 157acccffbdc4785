#!/usr/bin/env bash
# Seed floor benchmark: how far are the seed gate's designs from the fewest seeds any sequential
# test can use? For each study, build/tests/benchmarks/seed_floor_benchmark simulates TRIALS
# sequences under no change and as many at a shift d through the gate's own decision code
# (look_sequentially, decide_gate), on values drawn from normals:
#   fixture  the torch-free fixture's known normals (tests/fixture/seed_gate_fixture.cc: the XOR
#            study's sd, covariate share and stream correlation), 2 hypotheses;
#   xor      (with TABLE.tsv) Full.XorSequentialSeedStudy's noise measured from a table of its
#            real per-seed values, 3 hypotheses. ci/xor-seed-table.sh BUILD_DIR TABLE.tsv writes
#            it (520 seeds x 2 weight streams, about a minute).
# Designs: the group-sequential Seeds(12).then_blocks_of(8).up_to(52).pass_early() (the studies'
# design before the default moved to likelihood-ratio looks); one that
# looks every 8 seeds only, Seeds(8).then_blocks_of(8).up_to(52); and designs that look as the
# seeds arrive: blocks of 4 (Seeds(4).then_blocks_of(4).up_to(52).pass_early()), the same with
# the acceptance side at beta (PASS error 0.2 instead of 0.025), and a first look at 6 with
# blocks of 2 at beta; each paired, fresh against a 52-seed baseline and fresh against a 260-seed
# pool; and Wald's sequential probability ratio test (Seeds(…).likelihood_ratio().pass_error(0.2)):
# fresh with a first look at 2 then every seed, blocks of 2 and blocks of 4, paired with a first
# look at 8 then every seed or blocks of 2, and paired on a stored spread of paired differences
# (lr-stored: from the second seed, blocks of 2 or 4; paired-pool260: on a 260-seed pool whose
# stored spread comes from all of its pairs, the default and rising PASS boundaries, the design
# that meets every target at once). The default design,
# Seeds(2).then_blocks_of(2).up_to(52).likelihood_ratio().pass_error(0.2), is on the lines whose
# names end in -default (ONLY=default): fresh, paired on a stored spread, and paired without one
# (its looks then start at 8 seeds). One line per design:
#   design=… d=… alpha=… power=… mean_seeds_h0=… bound_h0=… ratio_h0=… mean_seeds_h1=… bound_h1=…
#   ratio_h1=… p95_seeds=… p95_h0=… p95_floor_h0=… p95_h1=… p95_floor_h1=… worst_mean=…
#   worst_at=… worst_bound=… wall_rounds_h0=…
#   false_regression=… [CI] power_observed=… [CI] false_regression_run=… [CI] (any of the run's
#   metrics, the covariate's too, REGRESSION under no change: Holm's family-wise rate)
#   targets=[ratio<=1.3 met; p95_h0<=… missed; false_regression<=… met; power>=0.80 met] (the
#   targets of seeded-tests.md: both ratios at most 1.3 paired, 1.6 fresh against a pool, none
#   against 52 seeds; the 95th percentile under no change at most 2.5 x bound_h0; the false
#   REGRESSION and power intervals reaching alpha and the power)
# p95_seeds is the larger of the two hypotheses' 95th percentiles, p95_h0 and p95_h1; each
# p95_floor_ the fewest seeds within which any test with the level and power stops 95% of the
# time (statistics/sequential_bound.h: at the shift it is 2.9-3.6 x bound_h0 at the gate's levels,
# so no test meets 2.5 x bound_h0 there; under no change 1.9 x bound_h0, before whole seeds).
# Wald's bound (statistics/sequential_bound.h) is at the metric's level alpha / hypotheses,
# power 0.8 and d; d is the shift at which the group-sequential design reaches power 0.8 (a
# likelihood-ratio design: where it reaches it itself, about the margin it is built for, found on
# TRIALS / 5 sequences and refined on the line's own TRIALS), in
# standard deviations of what one seed tells the test (paired: the per-seed difference; fresh:
# one seed after the covariate). worst_mean is the largest mean seeds over the shifts 0, d/8, ..., d,
# worst_bound the floor of every test's worst case (stats::worst_case_expected_seeds);
# wall_rounds_h0 the mean wall-clock under no change in rounds of seed runs at --jobs 2.
# Intervals: Clopper-Pearson 95%. runner/docs/seeded-tests.md, "How far
# from the floor", says how to read the lines and the targets.
#
# A benchmark, not a test: it exits non-zero only when something failed to run, never on a
# figure.
#
# Usage: ci/seed-floor-benchmark.sh BUILD_DIR [TABLE.tsv]   (TRIALS=10000, ONLY= from the
# environment; ONLY=lr- prints only the lines whose design name contains it; RESAMPLE=1 adds the
# XOR study's lines on its real seeds resampled)
set -euo pipefail
export LC_ALL=C

usage() {
  cat >&2 <<'EOF_USAGE'
usage: ci/seed-floor-benchmark.sh BUILD_DIR [TABLE.tsv]

  BUILD_DIR  a CMake build folder with this built:
               cmake --build BUILD_DIR --target seed_floor_benchmark
  TABLE.tsv  real per-seed values of Full.XorSequentialSeedStudy (columns seed, weight_stream,
             test_accuracy, train_loss, test_set_rule_accuracy; ci/xor-seed-table.sh writes
             it); without it only the fixture's lines are printed
  TRIALS     (environment) simulated sequences per line and hypothesis (default 10000)
  ONLY       (environment) print only the designs whose name contains it (e.g. lr- or pool260)
  RESAMPLE   (environment) 1: the XOR study's lines again as xor-resampled, each simulated seed
             one of the table's real seeds drawn with replacement (the real values' skew and
             tails, not only their sd): the false REGRESSION the gate gives on the real shape

Prints one line per study, design and pairing: the mean seeds under no change and at the shift d,
Wald's bound on them, their ratio, the 95th percentile of the seeds, the false REGRESSION rate and
the power observed. Exits non-zero only if the benchmark failed to run.
EOF_USAGE
}

die() {
  echo "seed-floor-benchmark: $*" >&2
  exit 1
}

[[ $# -ge 1 && $# -le 2 ]] || { usage; exit 64; }
build=$1
table=${2:-}
trials=${TRIALS:-10000}
[[ $trials =~ ^[1-9][0-9]*$ ]] || { usage; exit 64; }
bench=$build/tests/benchmarks/seed_floor_benchmark
[[ -x $bench ]] || die "no executable $bench (see the usage for the target to build)"
if [[ -n $table ]]; then
  [[ -r $table ]] || die "cannot read $table"
fi

echo "Seeds against Wald's bound, $trials simulated sequences per line and hypothesis"
only=${ONLY:-}
"$bench" fixture - "$trials" 2 "$only" || die "the fixture's lines failed"
if [[ -n $table ]]; then
  "$bench" xor "$table" "$trials" 3 "$only" || die "the XOR study's lines failed"
  if [[ ${RESAMPLE:-0} == 1 ]]; then
    "$bench" --resample xor-resampled "$table" "$trials" 3 "$only" ||
      die "the XOR study's resampled lines failed"
  fi
elif [[ ${RESAMPLE:-0} == 1 ]]; then
  die "RESAMPLE=1 needs TABLE.tsv"
fi
