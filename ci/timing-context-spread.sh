#!/usr/bin/env bash
# One timing metric measured in each context a test runs in: the whole tier in one run, the test
# alone (--filter), the command ctest runs (--ctest-measurements), and an --ab child (the binary
# against itself, each round's candidate run). Prints every value per context, the median per
# context, and the spread of the medians (largest / smallest − 1), with the CPU. A benchmark
# script: it prints figures and never fails on them (runner/docs/timing.md).
#   ci/timing-context-spread.sh BINARY TEST METRIC [REPEATS]
# e.g. ci/timing-context-spread.sh build/suites/mlregress_suites Medium.DataLoaderThroughput \
#        workers_n.steps_per_s 3
set -euo pipefail
binary=$(realpath "${1:?usage: $0 BINARY TEST METRIC [REPEATS]}")
test_name=${2:?usage: $0 BINARY TEST METRIC [REPEATS]}
metric=${3:?usage: $0 BINARY TEST METRIC [REPEATS]}
repeats=${4:-3}
tier=$(echo "${test_name%%.*}" | tr '[:upper:]' '[:lower:]')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export MLREGRESS_REPO="$work"

value_of() {  # value_of RESULTS_JSON
  python3 - "$1" "$test_name" "$metric" <<'PY'
import json, sys
for test in json.load(open(sys.argv[1]))["tests"]:
    if test["full_name"] == sys.argv[2]:
        for m in test["metrics"]:
            if m["name"] == sys.argv[3]:
                print(f"{m['value']:.6g}")
                sys.exit(0)
sys.exit(f"{sys.argv[3]} of {sys.argv[2]} not in {sys.argv[1]}")
PY
}

for ((i = 1; i <= repeats; i++)); do
  "$binary" run --tier "$tier" --out "$work/whole" --color never >/dev/null 2>&1 || true
  echo "whole $(value_of "$work/whole/latest/results.json")" >>"$work/values"
  "$binary" run --filter "$test_name" --out "$work/alone" --color never >/dev/null 2>&1 || true
  echo "alone $(value_of "$work/alone/latest/results.json")" >>"$work/values"
  "$binary" run --filter "$test_name" --out "$work/ctest" --color never --ctest-measurements \
    --timeout 810 >/dev/null 2>&1 || true
  echo "ctest $(value_of "$work/ctest/latest/results.json")" >>"$work/values"
done
"$binary" run --ab "$binary" --filter "$test_name" --rounds "$repeats" --out "$work/ab" \
  --color never >/dev/null 2>&1 || true
python3 - "$work/ab/latest/ab.json" "$metric" >>"$work/values" <<'PY'
import json, sys
for m in json.load(open(sys.argv[1]))["metrics"]:
    if m["metric"] == sys.argv[2]:
        for value in m["candidate"]:
            print(f"ab-child {value:.6g}")
PY

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
echo "$test_name $metric, $repeats runs per context, binary $binary"
python3 - "$work/values" <<'PY'
import statistics, sys
values = {}
for line in open(sys.argv[1]):
    context, value = line.split()
    values.setdefault(context, []).append(float(value))
medians = {}
for context in ("whole", "alone", "ctest", "ab-child"):
    if context in values:
        medians[context] = statistics.median(values[context])
        print(f"  {context:9} median {medians[context]:10.4g}   runs {' '.join(f'{v:.4g}' for v in values[context])}")
print(f"  spread of the medians: {max(medians.values()) / min(medians.values()) - 1:+.1%} (largest / smallest - 1)")
PY
