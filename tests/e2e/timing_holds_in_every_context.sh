#!/usr/bin/env bash
# A timing baseline means the same in every context (runner/docs/timing.md#every-timing-test-in-a-fresh-process).
# The fixture's ObservedStepCost runs at half speed in a process where
# InstallsAStepObserver ran before it. Promoted from a whole-tier run, the test alone (--filter)
# and under ctest must PASS, and the other way round (promoted alone: the whole tier and ctest
# PASS); a planted 25% longer step (extra_work=0.25) is a REGRESSION in each context.
#   timing_holds_in_every_context.sh FIXTURE_BINARY SOURCE_DIR
set -euo pipefail
fixture=$(realpath "${1:?usage: $0 FIXTURE_BINARY SOURCE_DIR}")
source_dir=$(cd "${2:?usage: $0 FIXTURE_BINARY SOURCE_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export MLREGRESS_REPO="$work"
test_name=Medium.ObservedStepCost

# run CONTEXT BASELINES [ARGS...]: runs the timing test in CONTEXT (whole: the medium tier in one
# run; filter: the test alone; ctest: through the ctest file mlregress_discover_tests writes) and
# leaves its run folder at $work/CONTEXT/latest. Prints the exit status.
run() {
  local context=$1 baselines=$2
  shift 2
  rm -rf "$work/$context"
  local status=0
  case $context in
    whole) "$fixture" run --tier medium --baselines "$baselines" --out "$work/$context" \
             --color never "$@" >"$work/$context.log" 2>&1 || status=$? ;;
    filter) "$fixture" run --filter "$test_name" --baselines "$baselines" --out "$work/$context" \
              --color never "$@" >"$work/$context.log" 2>&1 || status=$? ;;
    ctest)
      local extra="--baselines;$baselines"
      for arg in "$@"; do extra+=";$arg"; done
      cmake -D "TEST_EXECUTABLE=$fixture" -D "CTEST_FILE=$work/tests.cmake" -D TIMEOUT_FAST=120 \
        -D TIMEOUT_MEDIUM=300 -D TIMEOUT_FULL=600 -D "RUNS_DIR=$work/$context" -D GPUS=0 \
        -D "EXTRA_ARGS=$extra" -P "$source_dir/runner/cmake/MlregressAddTests.cmake"
      echo "include(\"$work/tests.cmake\")" >"$work/CTestTestfile.cmake"
      (cd "$work" && ctest -R "^${test_name//./\\.}\$" --output-on-failure) >"$work/$context.log" 2>&1 \
        || status=$? ;;
  esac
  echo "$status"
}

# verdict CONTEXT: the verdict of the timing test's in CONTEXT's run, and its value.
verdict() {
  python3 - "$work/$1/latest/results.json" "$test_name" <<'PY'
import json, sys
for test in json.load(open(sys.argv[1]))["tests"]:
    for metric in test["metrics"] if test["full_name"] == sys.argv[2] else []:
        if metric["name"] == "step_cost_vs_reference":
            print(metric.get("verdict", "NO_BASELINE"), round(metric["value"], 3))
            sys.exit(0)
sys.exit("no step_cost_vs_reference in " + sys.argv[1])
PY
}

# expect CONTEXT BASELINES STATUS VERDICT [ARGS...]
expect() {
  local context=$1 baselines=$2 want_status=$3 want_verdict=$4
  shift 4
  local status
  status=$(run "$context" "$baselines" "$@")
  local got
  got=$(verdict "$context") || { cat "$work/$context.log"; fail "$context: no result"; }
  [[ "$status" == "$want_status" && "$got" == "$want_verdict"* ]] || {
    cat "$work/$context.log"
    fail "$context against $(basename "$baselines") $*: exit $status, $got (expected exit $want_status, $want_verdict)"
  }
  echo "ok   $context against $(basename "$baselines") ${*:-(unchanged)}: exit $status, $got"
}

# promote CONTEXT BASELINES: runs CONTEXT without a baseline and promotes it into BASELINES.
promote() {
  rm -rf "$2"
  mkdir -p "$2"
  run "$1" "$2" >/dev/null
  "$fixture" promote "$work/$1/latest" --baselines "$2" --reason "promoted from $1" >/dev/null
  echo "ok   promoted from $1: $(verdict "$1" | cut -d' ' -f2)"
}

planted=(--set ObservedStepCost.extra_work=0.25)

# ctest -j runs no other test beside a timing test: RUN_SERIAL on it, not on the ordinary one.
run ctest "$work/none" >/dev/null
grep -q "ObservedStepCost.*RUN_SERIAL TRUE" "$work/tests.cmake" || fail "the timing test is not RUN_SERIAL"
grep -q "InstallsAStepObserver.*RUN_SERIAL" "$work/tests.cmake" && fail "an ordinary test is RUN_SERIAL"
echo "ok   ctest runs the timing test alone (RUN_SERIAL), the ordinary test beside others"

promote whole "$work/from-whole"
expect filter "$work/from-whole" 0 PASS
expect ctest "$work/from-whole" 0 PASS
promote filter "$work/from-alone"
expect whole "$work/from-alone" 0 PASS
expect ctest "$work/from-alone" 0 PASS
for context in whole filter ctest; do
  expect "$context" "$work/from-whole" "$([[ $context == ctest ]] && echo 8 || echo 2)" REGRESSION "${planted[@]}"
done
