#!/usr/bin/env bash
# Preprocessing drift against the committed baselines: Fast.PreprocessedInputStatistics passes
# as shipped; normalisation applied twice, or the colour channels swapped, is a REGRESSION that
# names the channel statistics that moved, although nothing in the test itself fails.
set -euo pipefail
suites=${1:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
source_dir=${2:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {
  "$suites" run --filter PreprocessedInputStatistics --baselines "$source_dir/baselines" --out "$out" \
    --color never "$@"
}
run >"$out/shipped.log" || { cat "$out/shipped.log"; echo "FAIL: fails as shipped"; exit 1; }
echo "ok   as shipped: every input statistic within its band"

# planted NAME EXPECTED_METRIC: the bug gives exit 2 with EXPECTED_METRIC among the regressions.
planted() {
  local status=0
  run --set "PreprocessedInputStatistics.$1=true" >"$out/$1.log" || status=$?
  [ "$status" -eq 2 ] || { cat "$out/$1.log"; echo "FAIL: $1 gave exit $status, expected 2 (regression)"; exit 1; }
  grep -q "^METRIC *$2 .*REGRESSION" "$out/$1.log" || { cat "$out/$1.log"; echo "FAIL: $1 does not name $2"; exit 1; }
  grep -q "^\[  FAILED  \] Fast.PreprocessedInputStatistics (regression)" "$out/$1.log" \
    || { cat "$out/$1.log"; echo "FAIL: $1 failed the test itself, not only its baseline"; exit 1; }
  echo "ok   $1: REGRESSION, $(grep -c 'REGRESSION$' "$out/$1.log") statistics moved, e.g. $(grep "^METRIC *$2 " "$out/$1.log" | tr -s ' ' | cut -d' ' -f2-5)"
}
planted normalise_twice input.c0.mean
planted swap_channels input.c2.mean
