#!/usr/bin/env bash
# ci/precision-scorecard.sh, the fp32-vs-bf16 experiment of the language model and the CNN, must
# print each test's scorecard and follow its constraints: a loose memory constraint holds (exit
# 0), and the planted mistake, the memory constraint tightened below what bf16 saves
# (peak_bytes_per_step <= 0.50x; bf16 saves about a third), exits 12 naming the constraint.
set -uo pipefail
build=${1:?usage: $0 BUILD_DIR SOURCE_DIR}
source_dir=${2:?usage: $0 BUILD_DIR SOURCE_DIR}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

bash "$source_dir/ci/precision-scorecard.sh" "$build" "$out/loose" \
  --constraint 'peak_bytes_per_step <= 2.00x' >"$out/loose.txt" 2>&1
status=$?
((status == 0)) || { cat "$out/loose.txt"; fail "a loose constraint exited $status, not 0"; }
for test in LmPrecisionExperiment CnnPrecisionExperiment; do
  grep -q "SCORECARD Medium.$test (A -> B)" "$out/loose.txt" || fail "no scorecard of $test"
done
grep -q "peak_bytes_per_step <= 2.00x: .* held" "$out/loose.txt" || fail "the constraint is not shown held"
echo "ok   loose constraint: exit 0, both scorecards printed"

bash "$source_dir/ci/precision-scorecard.sh" "$build" "$out/tight" \
  --constraint 'peak_bytes_per_step <= 0.50x' >"$out/tight.txt" 2>&1
status=$?
((status == 12)) || { cat "$out/tight.txt"; fail "the tightened constraint exited $status, not 12"; }
violations=$(grep -c "peak_bytes_per_step <= 0.50x: B .* VIOLATED" "$out/tight.txt")
((violations == 2)) || fail "$violations tests name the violated constraint, not 2"
echo "ok   planted: peak_bytes_per_step <= 0.50x exits 12, VIOLATED in both tests"
