#!/usr/bin/env bash
# The baseline gate on the real example suite: run the fast tier, promote it into an empty
# folder, run again (every metric PASS), plant a baseline better than the code achieves (the
# run must fail with exit 2 naming that metric), promote, and pass again.
set -euo pipefail
suites=${1:?usage: $0 PATH_TO_mlregress_suites}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# Record the git state of this folder, outside any git tree: a developer's uncommitted changes
# must not block promote.
export MLREGRESS_REPO="$work"

"$suites" run --tier fast --out runs --color never >/dev/null
"$suites" promote runs/latest --baselines baselines --reason "round trip" >/dev/null
"$suites" run --tier fast --baselines baselines --out runs --color never >/dev/null
python3 - runs/latest/results.json <<'PY'
import json, sys
verdicts = [m["verdict"] for t in json.load(open(sys.argv[1]))["tests"] for m in t["metrics"]]
assert verdicts and set(verdicts) == {"PASS"}, verdicts
print(f"ok   {len(verdicts)} metrics, all PASS after promotion")
PY

file=baselines/mlregress_suites/overfit_one_batch_test.toml
python3 - "$file" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
# final_loss of CnnOverfitsOneBatch is lower-is-better: a tenth of it is better than the code gets.
pattern = r"(\[tests\.CnnOverfitsOneBatch\.metrics\.final_loss\][^\[]*?value = )([0-9.e+-]+)"
text, n = re.subn(pattern, lambda m: m.group(1) + repr(float(m.group(2)) / 10), text, flags=re.S)
assert n == 1, "final_loss entry not found"
open(sys.argv[1], "w").write(text)
PY
set +e
"$suites" run --tier fast --baselines baselines --out runs --color never >out.txt
status=$?
set -e
[ "$status" -eq 2 ] || { echo "FAIL: expected exit 2 (regression), got $status"; cat out.txt; exit 1; }
grep -q "failure message=\"REGRESSION final_loss" runs/latest/junit.xml ||
  { echo "FAIL: the JUnit failure does not name final_loss"; exit 1; }
echo "ok   planted better baseline: exit 2, JUnit names final_loss"

"$suites" promote runs/latest --baselines baselines --reason "accept" >/dev/null
"$suites" run --tier fast --baselines baselines --out runs --color never >/dev/null
echo "ok   promoted again: the fast tier passes"
