#!/usr/bin/env bash
# The medium tier's noise-free counters must be identical run after run: runs the counter tests
# RUNS times (default 5), prints every Exact metric (peak bytes, allocations, operator counts)
# (and TorchScript specialisations) of every run, and their breakdowns by operator, and fails if
# any of them differs between runs.
#
# Usage: ci/medium-counters-repeatable.sh PATH_TO_mlregress_suites [RUNS] [FILTER]
#   FILTER: the counter tests (default CnnTrainingStepCost:ScriptedMlpCompilation)
set -euo pipefail
suites=${1:?usage: ci/medium-counters-repeatable.sh PATH_TO_mlregress_suites [RUNS] [FILTER]}
runs=${2:-5}
filter=${3:-CnnTrainingStepCost:ScriptedMlpCompilation}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for i in $(seq 1 "$runs"); do
  "$suites" run --tier medium --filter "$filter" --out "$out/run-$i" --color never >"$out/run-$i.log" 2>&1 ||
    { echo "medium-counters-repeatable: run $i failed; its output:" >&2; cat "$out/run-$i.log" >&2; exit 1; }
done

python3 - "$out" "$runs" <<'PY'
import json, sys
out, runs = sys.argv[1], int(sys.argv[2])
table = {}
for i in range(1, runs + 1):
    results = json.load(open(f"{out}/run-{i}/latest/results.json"))
    for test in results["tests"]:
        for m in test["metrics"]:
            if m["policy"]["kind"] == "exact":
                table.setdefault(f'{test["name"]}.{m["name"]}', []).append(m["value"])
                if "breakdown" in m:  # the split by operator must repeat as exactly as the value
                    table.setdefault(f'{test["name"]}.{m["name"]}.breakdown', []).append(
                        json.dumps(m["breakdown"], sort_keys=True))
if not table:
    sys.exit("medium-counters-repeatable: the selected tests recorded no exact metric")
differs = 0
for name, values in sorted(table.items()):
    same = len(values) == runs and len(set(values)) == 1
    differs += not same
    shown = " ".join(f"{len(json.loads(v)['operators'])} operators" if isinstance(v, str)
                     else "%.17g" % v for v in values)
    print(f'{"identical" if same else "DIFFERS  "}  {name}: {shown}')
print(f"{len(table)} counters, {runs} runs: {'all identical' if not differs else f'{differs} differ'}")
sys.exit(1 if differs else 0)
PY
