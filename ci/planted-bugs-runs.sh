#!/usr/bin/env bash
# The runs runner/docs/planted-bugs.md is generated from: one run of the planted-bug tests (each
# plants its bug and runs its own checks), then one run per bug planted against the committed
# baselines (a --set switch of an example test; only the baseline gate can see it), then one pair
# of runs per change planted against a fresh baseline (see against_fresh_baseline).
#   ci/planted-bugs-runs.sh SUITES SOURCE_DIR OUT
# leaves OUT/in-test and OUT/against-baselines/<n> and prints the arguments of
# ci/planted-bugs-table.py:
#   ci/planted-bugs-table.py $(ci/planted-bugs-runs.sh build/suites/mlregress_suites . /tmp/p)
set -euo pipefail
suites=${1:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR OUT}
source_dir=${2:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR OUT}
out=${3:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR OUT}

# The bugs planted against the baselines: test filter and switch.
against_baselines=(
  "PreprocessedInputStatistics PreprocessedInputStatistics.normalise_twice=true"
  "PreprocessedInputStatistics PreprocessedInputStatistics.swap_channels=true"
  "CnnFrozenEvalSet CnnFrozenEvalSet.shuffle_class=0"
  "CnnFrozenEvalSet CnnFrozenEvalSet.eval_examples=500"
  "CnnFrozenEvalSet CnnFrozenEvalSet.shuffle_train=true"
  "XorAdamLossCurve XorAdamLossCurve.lr_scale=10"
  "LmCausalMaskHidesTheFuture LmCausalMaskHidesTheFuture.causal=false"
  "LmPaddingLeavesTheLossUnchanged LmPaddingLeavesTheLossUnchanged.loss_ignores_padding=false"
  "LmTokenizerRoundTrip LmTokenizerRoundTrip.vocabulary_size=48"
  "LmCheckpointRoundTrip LmCheckpointRoundTrip.resume_optimizer_state=false"
  "LmTrainingRecipe LmTrainingRecipe.warmup_steps=0"
  "LmTrainingRecipe LmTrainingRecipe.batch_size=32"
  "LmScheduleDoesWhatItSays LmScheduleDoesWhatItSays.schedule_counts_examples=true"
  "LmGenerationHonoursItsLength LmGenerationHonoursItsLength.length_offset=1"
  "XorBeatsDumbBaselines XorBeatsDumbBaselines.depth=0"
  "LmValidationLossRespectsTheEntropyBound LmValidationLossRespectsTheEntropyBound.train_length=12"
)

# Changes planted against a baseline promoted, in the same script, from a run of the same test
# without them: the exact per-machine counters and values are compared on the machine that
# measured both, so the outcome does not depend on the CPU or the LibTorch version. Test filter,
# then the run's arguments that plant the change (a NAME=VALUE word is set in its environment).
against_fresh_baseline=(
  "CnnTrainingStepCost --set CnnTrainingStepCost.extra_op=true"
  "CnnTrainingStepCost --set CnnTrainingStepCost.extra_allocation=true"
  "ScriptedMlpCompilation --set ScriptedMlpCompilation.unbatched_every=6"
  "CnnTrainingIsBitwiseDeterministic --set CnnTrainingIsBitwiseDeterministic.reverse_batch=true"
  "CnnTrainingStepCost --threads 2"
  "CnnTrainingStepCost MKL_CBWR=COMPATIBLE"
  "LmStepCost --set LmStepCost.sequence_length=32"
)

# Exit 0 (passed), 1 (a test failed) and 2 (a regression) are outcomes the table reports; any
# other exit code is a broken run.
planted_env=()
run() {
  local status=0
  env "${planted_env[@]}" "$suites" run --color never "$@" >"$log" 2>&1 || status=$?
  case "$status" in
    0 | 1 | 2) ;;
    *) cat "$log" >&2; echo "planted-bugs-runs: '$suites run $*' exited $status" >&2; exit 1 ;;
  esac
}

mkdir -p "$out/in-test" "$out/against-baselines"
log="$out/in-test.log"
run --filter 'Planted*:PermutedLabelsLeakyPipelineFlagged' --out "$out/in-test"
folders=("$out/in-test/latest")
n=0
for plant in "${against_baselines[@]}"; do
  read -r filter switch <<<"$plant"
  n=$((n + 1))
  log="$out/against-baselines/$n.log"
  run --filter "$filter" --set "$switch" --baselines "$source_dir/baselines" \
    --out "$out/against-baselines/$n"
  folders+=(--against-baselines "$out/against-baselines/$n/latest")
done
for plant in "${against_fresh_baseline[@]}"; do
  read -r filter planted <<<"$plant"
  n=$((n + 1))
  mkdir -p "$out/against-baselines/$n"
  log="$out/against-baselines/$n.unplanted.log"
  run --filter "$filter" --out "$out/against-baselines/$n/unplanted"
  "$suites" promote "$out/against-baselines/$n/unplanted/latest" --force \
    --baselines "$out/against-baselines/$n/baselines" --reason "before the planted change" \
    >"$out/against-baselines/$n.promote.log" 2>&1 ||
    { cat "$out/against-baselines/$n.promote.log" >&2; exit 1; }
  log="$out/against-baselines/$n.log"
  args=()
  for word in $planted; do
    if [[ $word =~ ^[A-Z_]+= ]]; then planted_env+=("$word"); else args+=("$word"); fi
  done
  run --filter "$filter" "${args[@]}" --baselines "$out/against-baselines/$n/baselines" \
    --out "$out/against-baselines/$n/planted"
  planted_env=()
  folders+=(--against-fresh-baseline "$out/against-baselines/$n/planted/latest")
done
echo "${folders[@]}"
