#!/usr/bin/env bash
# Sequential seeds benchmark: does the multi-seed gate answer with few seeds without crying wolf?
# Real runs of two studies with the same design, the default
# Seeds(2).then_blocks_of(2).up_to(52).likelihood_ratio().pass_error(0.2):
#   xor      Full.XorSequentialSeedStudy (test_accuracy, margin 0.005, adjusted by the covariate
#            test_set_rule_accuracy against fresh seeds; train_loss, margin 0.05);
#   fixture  Full.NoisyAccuracyStudy (tests/fixture/seed_gate_fixture.cc): the XOR study's noise
#            shares and margin, values from known normals, so hundreds of real runs take seconds.
#
#   A/A      per study, independent trials; trial i owns seeds B_i .. B_i+311 and promotes its own
#            52-seed baseline (B_i .. B_i+51, run --all-seeds), then runs unchanged candidates:
#              paired     the baseline's seeds with the other weight stream (xor: weight_stream=1;
#                         fixture: stream=1): the same data, other initial weights (what a CI job
#                         on the baseline's seeds sees after a change that keeps the quality but
#                         moves the numbers);
#              fresh-own  seeds B_i+260 .. against the trial's own 52-seed baseline;
#              fresh-pool the same seeds against a 260-seed pool: the first POOL_RUNS trials grow
#                         their baseline with promote --add-seeds (4 runs of 52) before it.
#            Targets (seeded-tests.md): REGRESSION at most 1% (Clopper-Pearson 95% bound below
#            1.5% over at least 300 runs), fresh INCONCLUSIVE at most 10% and a median of at most
#            20 seeds, paired median at most 12 seeds.
#   injected lr / 10, width 32 -> 4, steps 400 -> 100 against a baseline of seeds 0-47: once on
#            the baseline's seeds (paired) and INJECT_REPS times on fresh seeds. Target:
#            REGRESSION after the first block.
#   levers   LEVER_SEEDS real XOR seeds per weight stream (0 and 1) are run once into a table, and
#            build/tests/benchmarks/sequential_seeds_levers simulates LEVER_TRIALS trials per row
#            through the gate's own code on those values: each lever of the gate in its own row
#            (the Holm-aware stop, exact PASS and REGRESSION boundaries, the covariate, a 200-seed
#            pool, PASS spending, block size, the study's design, the anytime-valid
#            until_decided(200)), and the power at promote's printed effect. The anytime row's fresh
#            trials draw a 200-seed baseline and 200 candidates: LEVER_SEEDS >= 416.
#
# Everything is written to a temporary folder (removed at exit; KEEP=1 keeps it). A benchmark,
# not a test: it exits non-zero only when something failed to run, never on a figure.
#
# Usage: ci/sequential-seeds-benchmark.sh BUILD_DIR [AA_RUNS=150] [POOL_RUNS=50] [INJECT_REPS=5]
#        (FIXTURE_RUNS=300, FIXTURE_POOL_RUNS=100, LEVER_SEEDS=520 and LEVER_TRIALS=10000 from the
#        environment; ONLY_FIXTURE=1 runs the fixture's A/A trials alone, in minutes; FIRST_SEED
#        (default 1000) moves the trials' seeds, for more independent trials; FIXTURE=BINARY runs
#        the fixture's trials with another build of it, e.g. mlregress_seed_gate_beta_fixture or
#        mlregress_seed_gate_spending_fixture; PAIRED_STORED=1 adds the design paired-stored: a copy
#        of the trial's baseline promoted over again with the other stream on all of its seeds,
#        so that it stores the spread of those paired differences, and a third stream's run of
#        its seeds against it; POOL_CANDIDATES=k runs k fresh candidates against each trial's pool,
#        the first on the trial's own fresh seeds, the others on seeds past every trial's: a pool
#        costs 4 runs and 4 promotions, a candidate one run, and a 260-seed pool's own error
#        moves a candidate's chance of a false alarm little, so k candidates per pool are nearly
#        k independent trials); POOL_PAIRED=1 adds the design paired-pool to each pool: a copy of
#        the pool given the spread of all of its 260 pairs (the other stream over its seeds, 52 at a
#        time, promote --paired-spread, then --paired-spread --add-pairs), then POOL_CANDIDATES
#        paired runs against it (at most 9), candidate k on its own stream 2 + k from the pool's
#        seed 26 k, so that the seeds most runs take are no other candidate's. With
#        FIXTURE=build/tests/fixture/mlregress_seed_gate_rise_fixture every design of the fixture
#        declares .pass_rise(1.6875, 10).
#        About 70 minutes on 2 cores with the defaults.
set -euo pipefail
export LC_ALL=C

usage() {
  cat >&2 <<'EOF'
usage: ci/sequential-seeds-benchmark.sh BUILD_DIR [AA_RUNS] [POOL_RUNS] [INJECT_REPS]

  BUILD_DIR    a CMake build folder with these built:
                 cmake --build BUILD_DIR --target mlregress_suites mlregress_seed_gate_fixture \
                   sequential_seeds_levers
  AA_RUNS      independent XOR A/A trials, each with its own 52-seed baseline (default 150)
  POOL_RUNS    how many of them also grow a 260-seed pool for a fresh-seed run (default 50)
  INJECT_REPS  fresh-seed repetitions of each injected change (default 5)
  FIXTURE_RUNS (environment) independent A/A trials of the torch-free fixture (default 300),
               FIXTURE_POOL_RUNS of them with a pool (default 100)

Prints, per study and A/A design, the verdict rates with Clopper-Pearson 95% intervals and the
seeds a run took; per injected change, the verdicts, the look that decided and the seeds taken;
then the levers table. KEEP=1 keeps the run folders. Exits non-zero only if a run failed.
EOF
}

die() {
  echo "sequential-seeds-benchmark: $*" >&2
  exit 1
}

[[ $# -ge 1 && $# -le 4 ]] || { usage; exit 64; }
build=$1
aa_runs=${2:-150}
pool_runs=${3:-50}
inject_reps=${4:-5}
fixture_runs=${FIXTURE_RUNS:-300}
fixture_pool_runs=${FIXTURE_POOL_RUNS:-100}
lever_seeds=${LEVER_SEEDS:-520}
lever_trials=${LEVER_TRIALS:-10000}
# The A/A trials' seeds start here: another FIRST_SEED gives another, independent set of trials.
first_seed=${FIRST_SEED:-1000}
# PAIRED_STORED=1 adds a paired design whose baseline stores the spread of paired differences.
paired_stored=${PAIRED_STORED:-0}
# POOL_CANDIDATES: fresh candidates run against each pool.
pool_candidates=${POOL_CANDIDATES:-1}
# POOL_PAIRED=1 adds paired candidates against each pool given the spread of all of its pairs.
pool_paired=${POOL_PAIRED:-0}
[[ $first_seed =~ ^[0-9]+$ ]] || die "FIRST_SEED must be a number"
for n in "$aa_runs" "$inject_reps" "$fixture_runs" "$lever_trials" "$pool_candidates"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { usage; exit 64; }
done
[[ $pool_runs =~ ^[0-9]+$ && $pool_runs -le $aa_runs ]] || die "POOL_RUNS must be 0 .. AA_RUNS"
[[ $pool_paired != 1 || $pool_candidates -le 9 ]] ||
  die "POOL_PAIRED=1 takes at most 9 POOL_CANDIDATES (each from its own 26 of the pool's seeds)"
[[ $fixture_pool_runs =~ ^[0-9]+$ && $fixture_pool_runs -le $fixture_runs ]] ||
  die "FIXTURE_POOL_RUNS must be 0 .. FIXTURE_RUNS"
# FIXTURE (environment) swaps the fixture's binary for one of its other designs, e.g.
# build/tests/fixture/mlregress_seed_gate_spending_fixture (12 seeds, then 8 at a time).
fixture_path=${FIXTURE:-$build/tests/fixture/mlregress_seed_gate_fixture}
fixture=$(realpath "$fixture_path" 2>/dev/null) || die "no $fixture_path"
needed=("$fixture")
# ONLY_FIXTURE=1 runs the torch-free fixture alone: a build without LibTorch (no suites) will do.
if [[ ${ONLY_FIXTURE:-0} != 1 ]]; then
  bin=$(realpath "$build/suites/mlregress_suites" 2>/dev/null) || die "no $build/suites/mlregress_suites"
  levers=$build/tests/benchmarks/sequential_seeds_levers
  needed+=("$bin" "$levers")
fi
for exe in "${needed[@]}"; do
  [[ -x $exe ]] || die "no executable $exe (see the usage for the targets to build)"
done
cap=52  # both studies: up_to(52)
[[ $lever_seeds =~ ^[1-9][0-9]*$ && $((lever_seeds % cap)) == 0 && $lever_seeds -ge 416 ]] ||
  die "LEVER_SEEDS must be a multiple of $cap, at least 416"

work=$(mktemp -d)
if [[ ${KEEP:-0} == 1 ]]; then echo "run folders kept in $work" >&2; else trap 'rm -rf "$work"' EXIT; fi
index=$work/index.tsv  # one line per run: section, label, run folder, exit code
: >"$index"
mkdir -p "$work/baselines/none"

# run_study SECTION LABEL BINARY TEST RUN_ARGS...: one run of TEST in its own --out folder,
# logged in $index. Exit codes 0 (passed) and 2 (regression) are results; anything else is a
# failure to run.
run_study() {
  local section=$1 label=$2 exe=$3 test=$4
  shift 4
  local out=$work/runs/$section-$label rc=0
  mkdir -p "$out"
  "$exe" run --tier full --filter "$test" --out "$out" --color never --jobs 2 "$@" \
    >"$out.log" 2>&1 || rc=$?
  if [[ $rc -ne 0 && $rc -ne 2 ]]; then
    tail -20 "$out.log" >&2
    die "run $section/$label exited $rc (log: $out.log)"
  fi
  printf '%s\t%s\t%s\t%s\n' "$section" "$label" "$(realpath "$out/latest")" "$rc" >>"$index"
}

# promote BINARY RUN_FOLDER BASELINES [--add-seeds] (--force: the tree may be dirty).
promote() {
  local exe=$1 run=$2 baselines=$3
  shift 3
  "$exe" promote "$run" --baselines "$baselines" --reason "sequential seeds benchmark" --force \
    "$@" >"$baselines.promote.log" 2>&1 || { cat "$baselines.promote.log" >&2; die "promote $run failed"; }
}

last_run() { tail -1 "$index" | cut -f3; }

# pool_paired_candidates STUDY BINARY TEST STREAM_PARAMETER TRIAL: the trial's pool (seeds
# base .. base+259) copied and given the spread of all of its pairs, then paired candidates on it.
pool_paired_candidates() {
  local study=$1 exe=$2 test=$3 stream=$4 i=$5 k base stored
  base=$((first_seed + 6 * cap * i))
  stored=$work/baselines/$study-$i-pool-stored
  cp -r "$work/baselines/$study-$i" "$stored"
  for k in 0 1 2 3 4; do
    run_study "pool-moved-$study" "$i-$k" "$exe" "$test" --seed $((base + k * cap)) \
      --set "$test.$stream=1" --all-seeds --baselines "$work/baselines/none"
    if ((k == 0)); then
      promote "$exe" "$(last_run)" "$stored" --paired-spread
    else
      promote "$exe" "$(last_run)" "$stored" --paired-spread --add-pairs
    fi
  done
  for ((k = 0; k < pool_candidates; ++k)); do
    run_study "aa-$study-paired-pool" "$i-$k" "$exe" "$test" --seed $((base + 26 * k)) \
      --set "$test.$stream=$((2 + k))" --baselines "$stored"
  done
}

# aa_trials STUDY BINARY TEST STREAM_PARAMETER TRIALS POOL_TRIALS: the A/A trials of one study.
aa_trials() {
  local study=$1 exe=$2 test=$3 stream=$4 trials=$5 pool_trials=$6 i k base baselines
  echo "A/A, $study: $trials trials ($pool_trials with a $((5 * cap))-seed pool)" >&2
  for ((i = 0; i < trials; ++i)); do
    base=$((first_seed + 6 * cap * i))
    baselines=$work/baselines/$study-$i
    mkdir -p "$baselines"
    run_study "base-$study" "$i" "$exe" "$test" --seed "$base" --all-seeds \
      --baselines "$work/baselines/none"
    promote "$exe" "$(last_run)" "$baselines"
    run_study "aa-$study-paired" "$i" "$exe" "$test" --seed "$base" --set "$test.$stream=1" \
      --baselines "$baselines"
    run_study "aa-$study-fresh-own" "$i" "$exe" "$test" --seed $((base + 5 * cap)) \
      --baselines "$baselines"
    if [[ $paired_stored == 1 ]]; then
      # A copy of the baseline after a change that moved every seed (the other stream over all of
      # its seeds, promoted: the spread of those differences is stored), then a third stream.
      cp -r "$baselines" "$baselines-stored"
      run_study "moved-$study" "$i" "$exe" "$test" --seed "$base" --set "$test.$stream=1" \
        --all-seeds --baselines "$work/baselines/none"
      promote "$exe" "$(last_run)" "$baselines-stored"
      run_study "aa-$study-paired-stored" "$i" "$exe" "$test" --seed "$base" \
        --set "$test.$stream=2" --baselines "$baselines-stored"
    fi
    if ((i < pool_trials)); then
      for k in 1 2 3 4; do
        run_study "pool-$study" "$i-$k" "$exe" "$test" --seed $((base + k * cap)) --all-seeds \
          --baselines "$work/baselines/none"
        promote "$exe" "$(last_run)" "$baselines" --add-seeds
      done
      run_study "aa-$study-fresh-pool" "$i" "$exe" "$test" --seed $((base + 5 * cap)) \
        --baselines "$baselines"
      # More candidates against the same pool, on seeds past every trial's own.
      for ((k = 1; k < pool_candidates; ++k)); do
        run_study "aa-$study-fresh-pool" "$i-$k" "$exe" "$test" \
          --seed $((first_seed + 6 * cap * trials + (i * pool_candidates + k) * cap)) \
          --baselines "$baselines"
      done
      [[ $pool_paired == 1 ]] && pool_paired_candidates "$study" "$exe" "$test" "$stream" "$i"
    fi
    if (((i + 1) % 25 == 0)); then echo "  $((i + 1)) of $trials" >&2; fi
  done
}

aa_trials fixture "$fixture" NoisyAccuracyStudy stream "$fixture_runs" "$fixture_pool_runs"
only_fixture=${ONLY_FIXTURE:-0}
if [[ $only_fixture == 1 ]]; then
  aa_runs=0
  inject_reps=0
fi
((aa_runs == 0)) || aa_trials xor "$bin" XorSequentialSeedStudy weight_stream "$aa_runs" "$pool_runs"

test_name=XorSequentialSeedStudy
if [[ $only_fixture != 1 ]]; then
echo "injected changes: 3 changes x (1 paired + $inject_reps fresh)" >&2
run_study inject-base seeds-0 "$bin" "$test_name" --seed 0 --all-seeds \
  --baselines "$work/baselines/none"
mkdir -p "$work/baselines/inject"
promote "$bin" "$(last_run)" "$work/baselines/inject"
declare -A changes=(
  [lr/10]=$test_name.lr=1e-4
  [width-4]=$test_name.width=4
  [steps/4]=$test_name.steps=100
)
for change in lr/10 width-4 steps/4; do
  label=${change//\//-}
  run_study "inject-$label" paired "$bin" "$test_name" --seed 0 --set "${changes[$change]}" \
    --baselines "$work/baselines/inject"
  for ((r = 0; r < inject_reps; ++r)); do
    run_study "inject-$label" "fresh-$r" "$bin" "$test_name" --seed $((100000 + cap * r)) \
      --set "${changes[$change]}" --baselines "$work/baselines/inject"
  done
done

echo "levers: $lever_seeds seeds x 2 weight streams into a table" >&2
"$(dirname "$0")/xor-seed-table.sh" "$build" "$work/table.tsv" "$lever_seeds"
fi

# --- The tables, from each run folder's results.json.
python3 "$(dirname "$0")/sequential_seeds_summary.py" "$index"
[[ $only_fixture == 1 ]] && exit 0
echo
echo "Levers, simulated from the real values (sequential_seeds_levers, $lever_trials trials a row)"
"$levers" "$work/table.tsv" "$lever_trials"
