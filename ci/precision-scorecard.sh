#!/usr/bin/env bash
# The fp32-vs-bf16 experiment of the language model and the CNN in one command: runs
# LmPrecisionExperiment and CnnPrecisionExperiment once in fp32 (A) and once under bf16 autocast
# (B), everything else fixed, then `compare A B` prints each test's scorecard (every metric: A, B,
# B/A, direction, verdict) and checks the constraints. The exit code is compare's: 0 when every
# constraint holds, 12 (constraint_violated) when one breaks, 4 for a bad constraint.
#
#   ci/precision-scorecard.sh BUILD_DIR [OUT_DIR] [--constraint 'METRIC OP VALUE']...
#
# Without --constraint the experiment's own budget applies (runner/docs/sequence-models.md,
# "Mixed precision"): bf16 must not grow a step's peak memory, must keep the validation loss
# within 2% of fp32's and must produce no NaN or Inf. Tighten one to see a violation, e.g.
#   ci/precision-scorecard.sh build /tmp/precision --constraint 'peak_bytes_per_step <= 0.50x'
set -euo pipefail
if (($# < 1)); then
  echo "usage: $0 BUILD_DIR [OUT_DIR] [--constraint 'METRIC OP VALUE']..." >&2
  exit 4
fi
build=$1
shift
out=
if (($# > 0)) && [[ $1 != --* ]]; then
  out=$1
  shift
fi
[[ -n $out ]] || out=$(mktemp -d)
mkdir -p "$out"
constraints=("$@")
if ((${#constraints[@]} == 0)); then
  constraints=(--constraint 'peak_bytes_per_step <= 1.00x'
    --constraint 'validation_loss <= +2%'
    --constraint 'nonfinite_count <= 0')
fi
suites=$build/suites/mlregress_suites
[[ -x $suites ]] || {
  echo "$0: $suites not found; build it first (ci/configure-and-build.sh mlregress_suites)" >&2
  exit 4
}

run_arm() {
  local precision=$1
  "$suites" run --tier medium --filter 'LmPrecisionExperiment:CnnPrecisionExperiment' \
    --set "LmPrecisionExperiment.precision=$precision" \
    --set "CnnPrecisionExperiment.precision=$precision" \
    --color never --out "$out/$precision" >"$out/$precision.log" 2>&1 || {
    echo "$0: the $precision arm failed (exit $?); its log: $out/$precision.log" >&2
    tail -20 "$out/$precision.log" >&2
    exit 1
  }
  readlink -f "$out/$precision/latest"
}

fp32=$(run_arm fp32)
bf16=$(run_arm bf16)
echo "fp32 (A): $fp32"
echo "bf16 (B): $bf16"
status=0
"$suites" compare "$fp32" "$bf16" "${constraints[@]}" || status=$?
exit "$status"
