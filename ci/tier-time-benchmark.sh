#!/usr/bin/env bash
# Tier run-time benchmark: how much longer do the fast and medium tiers take after a change?
# Two builds of the example suites (BEFORE and AFTER, e.g. the previous commit's binary kept aside
# and the current one) run `run --tier fast` and `run --tier medium`, alternating BEFORE AFTER /
# AFTER BEFORE / ... so that drift on the machine hits both alike, after one untimed warm-up run
# of each. Per tier and binary it prints the median over ROUNDS of
#   wall_s   the whole process (CLI, forked workers, run folder), taken by this script;
#   tests_s  the sum of the tests' own durations (results.json tests[].duration_s);
# and AFTER / BEFORE for both.
#
# A benchmark, not a test: it exits non-zero only when a run could not be made or read, or a test
# failed (a failed test's time says nothing about the tier: a binary copied away from its helper
# tools, such as suites/mlregress_tokenizer, fails the tests that need them), never on a figure.
#
# Usage: ci/tier-time-benchmark.sh BEFORE_SUITES AFTER_SUITES [ROUNDS=3]
#   e.g. at the old commit: mkdir /tmp/before && cp build/suites/mlregress_suites
#        build/suites/mlregress_tokenizer /tmp/before/ (the tests find the tokenizer beside the
#        binary), rebuild, then ci/tier-time-benchmark.sh /tmp/before/mlregress_suites
#        build/suites/mlregress_suites 3
set -euo pipefail
export LC_ALL=C

before=${1:?usage: $0 BEFORE_SUITES AFTER_SUITES [ROUNDS]}
after=${2:?usage: $0 BEFORE_SUITES AFTER_SUITES [ROUNDS]}
rounds=${3:-3}
[[ -x "$before" && -x "$after" ]] || { echo "tier-time-benchmark: both suites binaries must be executable" >&2; exit 1; }
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "tier-time-benchmark: ROUNDS must be a positive integer" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
records="$work/records.tsv"

# one_run LABEL BINARY TIER: appends "label tier wall_s tests_s" to the records.
one_run() {
  local label=$1 binary=$2 tier=$3 out="$work/$1-$3" status=0 start end
  rm -rf "$out"
  start=$EPOCHREALTIME
  "$binary" run --tier "$tier" --color never --out "$out" >"$work/log" 2>&1 || status=$?
  end=$EPOCHREALTIME
  if ((status != 0)); then
    cat "$work/log" >&2
    echo "tier-time-benchmark: $binary run --tier $tier exited $status" >&2
    exit 1
  fi
  python3 - "$out/latest/results.json" "$label" "$tier" "$start" "$end" >>"$records" <<'EOF'
import json, sys
path, label, tier, start, end = sys.argv[1:]
tests = json.load(open(path))["tests"]
print(label, tier, f"{float(end) - float(start):.3f}", f"{sum(t['duration_s'] for t in tests):.3f}", len(tests))
EOF
}

for tier in fast medium; do
  one_run warmup-before "$before" "$tier"
  one_run warmup-after "$after" "$tier"
done
: >"$records"
for ((round = 0; round < rounds; round++)); do
  for tier in fast medium; do
    if ((round % 2 == 0)); then
      one_run before "$before" "$tier"; one_run after "$after" "$tier"
    else
      one_run after "$after" "$tier"; one_run before "$before" "$tier"
    fi
  done
done

python3 - "$records" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
def median(label, tier, column):
    return statistics.median(float(r[column]) for r in rows if r[0] == label and r[1] == tier)
for tier in ("fast", "medium"):
    tests = {label: next(r[4] for r in rows if r[0] == label and r[1] == tier) for label in ("before", "after")}
    b_wall, a_wall = median("before", tier, 2), median("after", tier, 2)
    b_tests, a_tests = median("before", tier, 3), median("after", tier, 3)
    print(f"tier={tier} tests_before={tests['before']} tests_after={tests['after']} "
          f"wall_s_before={b_wall:.2f} wall_s_after={a_wall:.2f} wall_ratio={a_wall / b_wall:.3f} "
          f"tests_s_before={b_tests:.2f} tests_s_after={a_tests:.2f} tests_ratio={a_tests / b_tests:.3f}")
EOF
