#!/usr/bin/env bash
# The GPU check, for a machine with an NVIDIA GPU and a PyTorch install but none of mlregress's
# Debian packages: builds mlregress and the GPU suite against the LibTorch inside PyTorch and the
# dependencies staged by ci/stage-gpu-check.sh, runs the GPU suite twice, and prints the figures:
# peak VRAM per run (which must be identical), steps/s, the determinism check, and the GPU the
# environment profile recorded. runner/docs/gpu.md.
#
#   here:            ci/stage-gpu-check.sh            (writes .gpu-stage/, at most 60 MiB)
#   on the GPU:      ci/gpu-check.sh [STAGE=.gpu-stage] [OUT=${OUT:-gpu-check-out}]
#
# Exit: 0 when both runs passed, the peak VRAM figures are identical and the determinism check
# passed; 1 otherwise; 77 when no CUDA device is visible.
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
stage=$(cd "${1:-$root/.gpu-stage}" && pwd) || { echo "gpu-check: no stage folder (run ci/stage-gpu-check.sh first)" >&2; exit 1; }
out=${2:-${OUT:-$root/gpu-check-out}}
mkdir -p "$out"
build=${GPU_CHECK_BUILD:-$root/build-gpu}
python=${PYTHON:-python3}

echo "== the machine"
if ! "$python" -c 'import torch' 2>/dev/null; then
  echo "gpu-check: $python has no PyTorch: this check needs a PyTorch install (and a GPU)" >&2
  exit 77
fi
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv || true
fi
"$python" - <<'EOF'
import torch
print(f"torch {torch.__version__}, CUDA {torch.version.cuda}, cuDNN {torch.backends.cudnn.version()}, "
      f"C++11 ABI {torch._C._GLIBCXX_USE_CXX11_ABI}, devices {torch.cuda.device_count()}")
EOF
if ! "$python" -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)'; then
  echo "gpu-check: no CUDA device is visible to PyTorch" >&2
  exit 77
fi
# The torch package folder (holding lib/ and share/cmake), as the default build uses the wheel's:
# from torch.utils.cmake_prefix_path (its share/cmake) Torch's CMake package would take a system
# LibTorch's libraries first, where one is installed.
torch_prefix=$("$python" -c 'import os, torch; print(os.path.dirname(torch.__file__))')
abi=$("$python" -c 'import torch; print(int(torch._C._GLIBCXX_USE_CXX11_ABI))')
# The Python environment's own tools first (pip's cmake and ninja live beside its python3).
PATH="$(dirname "$(command -v "$python")"):$PATH"
# Torch's CMake package sets up CUDA itself and needs nvcc.
nvcc=$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")
[[ -x $nvcc ]] || { echo "gpu-check: no nvcc (set CUDA_HOME)" >&2; exit 1; }
cuda_root=$(dirname "$(dirname "$(realpath "$nvcc")")")
"$nvcc" --version | tail -1
arch_list=${TORCH_CUDA_ARCH_LIST:-$("$python" -c 'import torch; print("%d.%d" % torch.cuda.get_device_capability(0))')}

# on_failure LOG WHAT: the end of the log and the exit.
on_failure() {
  tail -40 "$1"
  echo "gpu-check: $2 failed (whole log: $1)" >&2
  exit 1
}

echo "== build (LibTorch from $torch_prefix, CUDA $cuda_root, arch $arch_list)"
start=$(date +%s)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$stage/prefix;$torch_prefix" -DOPENSSL_ROOT_DIR="$stage/prefix" \
  -DOPENSSL_CRYPTO_LIBRARY="$stage/prefix/lib/x86_64-linux-gnu/libcrypto.so" \
  -DOPENSSL_INCLUDE_DIR="$stage/prefix/include" \
  -DCMAKE_CUDA_COMPILER="$nvcc" -DCUDAToolkit_ROOT="$cuda_root" \
  -DTORCH_CUDA_ARCH_LIST="$arch_list" \
  -DCMAKE_CXX_FLAGS="-D_GLIBCXX_USE_CXX11_ABI=$abi" -DMLREGRESS_BUILD_TESTS=OFF \
  -DMLREGRESS_INSTALL=OFF >"$out/configure.log" 2>&1 || on_failure "$out/configure.log" configure
cmake --build "$build" --target mlregress_gpu_suite >"$out/build.log" 2>&1 ||
  on_failure "$out/build.log" build
echo "built in $(($(date +%s) - start)) s"
export LD_LIBRARY_PATH="$stage/prefix/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

status=0
for run in 1 2; do
  echo "== GPU suite, run $run"
  rc=0
  "$build/suites/mlregress_gpu_suite" run --out "$out/runs-$run" --color never \
    >"$out/run-$run.log" 2>&1 || rc=$?
  grep -E '^\[ *(OK|FAILED|SKIPPED|CRASHED|REGRESSED|TIMED OUT) *\]|steps/s|step [0-9]+:' \
    "$out/run-$run.log" || true
  echo "exit code $rc"
  [[ $rc -eq 0 ]] || status=1
done

echo "== figures"
"$python" - "$out/runs-1/latest" "$out/runs-2/latest" <<'EOF' || status=1
import json
import sys

runs = [json.load(open(f"{folder}/results.json")) for folder in sys.argv[1:3]]
envs = [json.load(open(f"{folder}/environment.json")) for folder in sys.argv[1:3]]
cuda = envs[0]["framework"]["cuda"]
print("environment profile:", runs[0]["run"].get("environment_profile"))
for device in cuda.get("devices", []):
    print(f"  GPU {device['index']}: {device['name']}, compute {device['compute_capability']}, "
          f"{device['memory_bytes'] / 2**30:.1f} GiB")
print("  versions:", cuda.get("versions"), "determinism:", cuda.get("determinism"))


def metrics(run, test):
    for t in run["tests"]:
        if t["name"] == test:
            return t["status"], {m["name"]: m["value"] for m in t["metrics"]}
    return "missing", {}


ok = True
memory = [metrics(r, "GpuCnnStepPeakMemory") for r in runs]
for name in ("step.peak_allocated_bytes", "step.peak_reserved_bytes", "step.allocations"):
    values = [m.get(name) for _, m in memory]
    same = values[0] == values[1] and values[0] is not None
    ok &= same
    print(f"{name:28} run 1 {values[0]}  run 2 {values[1]}  {'identical' if same else 'DIFFERENT'}")
for i, run in enumerate(runs, 1):
    status, m = metrics(run, "GpuCnnStepThroughput")
    print(f"run {i}: gpu_train_step.steps_per_s {m.get('gpu_train_step.steps_per_s')} "
          f"examples/s {m.get('gpu_train_step.examples_per_s')} ({status})")
    status, _ = metrics(run, "GpuCnnTrainingIsBitwiseDeterministic")
    print(f"run {i}: 50-step bitwise determinism: {status}")
    ok &= status == "passed"
    status, m = metrics(run, "GpuCnnOverfitTableMatchesTheCpuTable")
    print(f"run {i}: overfit table against the CPU's: {status}, initial loss {m.get('initial_loss')}")
sys.exit(0 if ok else 1)
EOF
echo "gpu-check: $([[ $status -eq 0 ]] && echo PASSED || echo FAILED)"
exit $status
