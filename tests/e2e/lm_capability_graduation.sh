#!/usr/bin/env bash
# The language model's capability (LmReachesTargetLoss: validation loss below 1.80) end to end:
# NOT MET on a short schedule and MET on its own, graduation refused on too few runs with how many
# more are needed, a guard after ten met runs, and the planted drop (the short schedule again) a
# REGRESSION against that guard.
set -uo pipefail
suites=${1:?usage: $0 PATH_TO_mlregress_suites}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Record the git state of this folder, outside any git tree: a developer's uncommitted changes
# must not block graduate (which promotes).
export MLREGRESS_REPO="$out"
fail() { echo "FAIL: $*"; exit 1; }
run() { "$suites" run --tier medium --filter LmReachesTargetLoss --out "$out/runs" --color never "$@"; }
graduate() {
  "$suites" graduate "$out/runs" --test LmReachesTargetLoss --metric validation_loss \
    --baselines "$out/baselines" --reason "met in every run" 2>&1
}

run --set LmReachesTargetLoss.steps=40 >"$out/short.txt" 2>&1 || fail "a NOT MET capability failed the run"
grep -q "LmReachesTargetLoss.validation_loss NOT MET" "$out/short.txt" || fail "40 steps are not NOT MET"
# Each run on a seed of its own: a rerun of one seed repeats its outcome and is no new evidence.
# The 40-step run above is another configuration and counts for none of these.
for i in 1 2 3; do run --seed "$i" >"$out/run$i.txt" 2>&1 || fail "run $i failed"; done
grep -q "LmReachesTargetLoss.validation_loss MET" "$out/run3.txt" || fail "160 steps are not MET"
echo "ok   NOT MET at 40 steps, MET at 160, neither failing the run"

refused=$(graduate)
status=$?
((status == 8)) || fail "graduate on 3 runs exited $status, not 8: $refused"
[[ $refused == *"7 more runs meeting the target in a row are needed"* ]] || fail "no count of runs needed: $refused"
echo "ok   graduate refuses 3 runs: 7 more needed"

for i in 4 5 6 7 8 9 10; do run --seed "$i" >"$out/run$i.txt" 2>&1 || fail "run $i failed"; done
graduated=$(graduate) || fail "graduate on 10 met runs refused: $graduated"
[[ $graduated == *"met 10 of the last 10 runs"* ]] || fail "graduate did not count 10 of 10: $graduated"
echo "ok   graduate writes the guard after 10 met runs"

run --baselines "$out/baselines" --seed 11 >"$out/guarded.txt" 2>&1 ||
  fail "an unchanged run on a new seed fails its guard"
run --baselines "$out/baselines" --seed 11 --set LmReachesTargetLoss.steps=40 >"$out/drop.txt" 2>&1
status=$?
((status == 2)) || fail "the planted drop exited $status, not 2 (regression)"
grep -q "validation_loss .* REGRESSION" "$out/drop.txt" || fail "the drop is not a REGRESSION of validation_loss"
echo "ok   planted drop (40 steps) is a REGRESSION against the guard"
