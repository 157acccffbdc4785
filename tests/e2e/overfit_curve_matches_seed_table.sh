#!/usr/bin/env bash
# The seed's overfit-one-batch table, reproduced by the example suite: the loss curve CSV of
# Fast.CnnOverfitsOneBatch, rounded to 4 decimals at steps 0, 100, ..., 500, must equal the
# seed's printed values; the softmax-before-loss variant must end at the seed's 0.7438.
set -euo pipefail
suites=${1:?usage: $0 PATH_TO_mlregress_suites}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$suites" run --filter 'CnnOverfitsOneBatch:SoftmaxBeforeCrossEntropyFailsToOverfit' \
  --out "$out" --color never >/dev/null

check() {  # check CSV STEP EXPECTED
  local actual
  actual=$(awk -F, -v step="$2" '$1 == step { printf "%.4f", $2 }' "$1")
  if [ "$actual" != "$3" ]; then
    echo "FAIL $(basename "$1") step $2: got '$actual', the seed printed $3"
    return 1
  fi
  echo "ok   $(basename "$1") step $2: $actual"
}

correct="$out/latest/curves/CnnOverfitsOneBatch.loss.csv"
buggy="$out/latest/curves/SoftmaxBeforeCrossEntropyFailsToOverfit.loss.csv"
status=0
steps=(0 100 200 300 400 500)
expected_correct=(1.3411 0.0148 0.0024 0.0009 0.0004 0.0002)
expected_buggy=(1.3746 0.7499 0.7448 0.7441 0.7439 0.7438)
for i in "${!steps[@]}"; do
  check "$correct" "${steps[$i]}" "${expected_correct[$i]}" || status=1
  check "$buggy" "${steps[$i]}" "${expected_buggy[$i]}" || status=1
done
exit $status
