#!/usr/bin/env bash
# The step counters' breakdown by operator, end to end on the real suite: promote
# CnnTrainingStepCost into an empty folder (values differ between LibTorch versions, so never the
# committed baseline), then each planted change is a REGRESSION whose verdict names the operators
# it comes from: extra_op=true the added elementwise operator (aten::mul), extra_allocation=true the
# operator that allocated the added buffer (aten::empty; that plant also breaks the test's own
# peak budget, so the run fails as well as regressing). A baseline without breakdowns still gates,
# and says it cannot name operators.
set -euo pipefail
suites=${1:?usage: $0 PATH_TO_mlregress_suites}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export MLREGRESS_REPO="$work"  # outside any git tree: uncommitted changes must not block promote
run() { "$suites" run --filter CnnTrainingStepCost --out runs --color never "$@"; }
fail() { echo "FAIL: $*"; exit 1; }
# `regression WHAT RUN_ARGS...`: a run with a planted change, its console in console.txt, must exit
# 2 (regression).
regression() {
  local what=$1 status=0
  shift
  run --baselines baselines "$@" >console.txt || status=$?
  [ "$status" -eq 2 ] || fail "$what exited $status, expected 2 (regression)"
}
# `failed_and_regressed WHAT RUN_ARGS...`: as regression, but the test itself fails too: exit 1.
failed_and_regressed() {
  local what=$1 status=0
  shift
  run --baselines baselines "$@" >console.txt || status=$?
  [ "$status" -eq 1 ] || fail "$what exited $status, expected 1 (a test failed)"
}
# `console_says REGEX WHY`: console.txt must match REGEX (extended), or it is shown and WHY fails.
console_says() { grep -E "$1" console.txt >/dev/null || { cat console.txt; fail "$2"; }; }

run >/dev/null
"$suites" promote runs/latest --baselines baselines --reason "breakdown e2e" >/dev/null
toml=baselines/mlregress_suites/cnn_step_counters_test.toml
grep -q '^breakdown_unit = "calls"$' "$toml" || fail "promote stored no breakdown of the calls"
grep -q '^\[tests.CnnTrainingStepCost.metrics.peak_bytes_per_step.breakdown.cpu-' "$toml" ||
  fail "promote stored no breakdown of the bytes"

run --baselines baselines >/dev/null || fail "the default step does not pass against its own promotion"
echo "ok   default step: PASS against the promoted baseline"

# extra_op: one more operator, in forward and in backward.
regression extra_op --set CnnTrainingStepCost.extra_op=true
console_says 'ops_per_step .*REGRESSION.*operators: aten::mul \+[0-9]+ calls' \
  "the console verdict of ops_per_step does not name aten::mul first"
grep -q 'message="[^"]*REGRESSION ops_per_step[^"]*operators: aten::mul +' runs/latest/junit.xml ||
  fail "the JUnit failure does not name aten::mul"
python3 - runs/latest/results.json <<'PY'
import json, sys
metrics = {m["name"]: m for m in json.load(open(sys.argv[1]))["tests"][0]["metrics"]}
ops = metrics["ops_per_step"]
assert ops["verdict"] == "REGRESSION", ops["verdict"]
first = ops["operators"]["changes"][0]
assert first["operator"] == "aten::mul" and first["delta"] > 0, ops["operators"]
assert abs(sum(c["delta"] for c in ops["operators"]["changes"]) - ops["delta"]) < 1e-9 or ops["operators"]["more"] > 0
PY
echo "ok   extra_op: REGRESSION of ops_per_step naming $(grep -oE 'operators: aten::mul \+[0-9]+ calls' console.txt | head -1)"

# extra_allocation: a 256 KiB buffer held through the step, over the step's 384 KiB peak budget.
failed_and_regressed extra_allocation --set CnnTrainingStepCost.extra_allocation=true
console_says 'training step: peak [0-9.]+ KiB \([0-9]+ B\) above start > budget 384\.0 KiB' \
  "the test's failure does not say the peak went over its budget"
console_says 'peak_bytes_per_step .*REGRESSION.*operators: aten::empty \+256\.0 KiB' \
  "the console verdict of peak_bytes_per_step does not name aten::empty +256.0 KiB first"
console_says 'allocations_per_step .*REGRESSION.*operators: aten::empty \+1 allocations' \
  "the console verdict of allocations_per_step does not name aten::empty"
echo "ok   extra_allocation: $(grep -oE 'peak_bytes_per_step .*REGRESSION' console.txt | head -1 | cut -c1-60)... operators: aten::empty +256.0 KiB"

# A baseline promoted before breakdowns existed: still a REGRESSION, and it says why no operator is named.
python3 - "$toml" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
text = re.sub(r'^breakdown_unit = .*\n', '', text, flags=re.M)
# each table: its header, then one `operator = count` line per operator (quoted or bare key)
text = re.sub(r'\n\[tests\.[^\]]*\.breakdown\.[^\]]*\]\n(?:(?:"[^"\n]*"|[A-Za-z0-9_-]+) = \d+\n)*',
              '\n', text)
open(path, "w").write(text)
PY
grep -qE '^breakdown_unit|\.breakdown\.' "$toml" && fail "the breakdowns were not removed from the baseline"
regression "extra_op against a baseline without breakdowns" --set CnnTrainingStepCost.extra_op=true
console_says 'no per-operator breakdown in the baseline \(promote to store one\)' \
  "the verdict does not say the baseline has no breakdown"
echo "ok   baseline without breakdowns: REGRESSION, 'no per-operator breakdown in the baseline'"
