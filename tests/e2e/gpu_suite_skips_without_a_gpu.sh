#!/usr/bin/env bash
# The GPU suite on a machine without a CUDA device: every test skips with a one-line reason, the
# binary exits 77 and ctest reports SKIP, never a failure. (On a CUDA machine this check has
# nothing to say: ci/gpu-check.sh runs the suite there.)
#   gpu_suite_skips_without_a_gpu.sh GPU_SUITE_BINARY BUILD_DIR
set -euo pipefail
suite=$1
build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rc=0
"$suite" run --out "$work/runs" --color never >"$work/out.txt" 2>&1 || rc=$?
if ! grep -qE "is a CPU build|no CUDA device is visible" "$work/out.txt"; then
  echo "a CUDA device is visible here: nothing to check (ci/gpu-check.sh runs the suite)"
  exit 0
fi
cat "$work/out.txt"
[[ $rc -eq 77 ]] || { echo "FAIL: exit code $rc, expected 77 (every test skipped)"; exit 1; }
skipped=$(grep -c '^\[  SKIPPED \] Medium\.Gpu.*(.* ms): ' "$work/out.txt" || true)
listed=$("$suite" list --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["tests"]))')
[[ $skipped -eq $listed && $listed -ge 4 ]] ||
  { echo "FAIL: $skipped of $listed tests skipped with a reason"; exit 1; }
# ctest: SKIP (not failed) for every test labelled gpu.
(cd "$build" && ctest -L gpu --output-on-failure >"$work/ctest.txt" 2>&1) ||
  { cat "$work/ctest.txt"; echo "FAIL: ctest -L gpu failed"; exit 1; }
cat "$work/ctest.txt"
not_run=$(grep -c '(Skipped)' "$work/ctest.txt" || true)
[[ $not_run -eq $listed ]] || { echo "FAIL: ctest skipped $not_run of $listed"; exit 1; }
echo "PASS: $listed GPU tests skipped with their reason; exit 77; ctest SKIP"
