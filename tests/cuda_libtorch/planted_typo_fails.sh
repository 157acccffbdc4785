#!/usr/bin/env bash
# ci/cuda-libtorch-check.sh can fail: on a copy of the sources whose CUDA branch calls a CUDA
# runtime function by a wrong name (inside `#if MLREGRESS_TORCH_CUDA`, which no CPU build
# compiles), it must exit 1 and name the file.
#   planted_typo_fails.sh SOURCE_DIR
set -euo pipefail
source_dir=$(cd "${1:?usage: $0 SOURCE_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/tests"
cp -r "$source_dir/runner" "$work/"
cp -r "$source_dir/tests/cuda_libtorch" "$work/tests/"
gpu="$work/runner/src/torch/gpu.cc"
grep -q 'cudaGetDeviceProperties(&p, i)' "$gpu" || { echo "FAIL: gpu.cc no longer has the line to plant in"; exit 1; }
sed -i 's/cudaGetDeviceProperties(&p, i)/cudaGetDeviceProps(\&p, i)/' "$gpu"

status=0
bash "$source_dir/ci/cuda-libtorch-check.sh" "$work" >"$work/check.log" 2>&1 || status=$?
cat "$work/check.log"
[[ $status -ne 77 ]] || exit 77
[[ $status -eq 1 ]] || { echo "FAIL: the check exits $status on a typo in the CUDA branch, not 1"; exit 1; }
grep -q "FAIL: runner/src/torch/gpu.cc does not compile" "$work/check.log" ||
  { echo "FAIL: the check does not name gpu.cc"; exit 1; }
grep -q "cudaGetDeviceProps" "$work/check.log" || { echo "FAIL: the compiler's error is not shown"; exit 1; }
echo "ok   a typo in the CUDA branch of gpu.cc fails the check"
