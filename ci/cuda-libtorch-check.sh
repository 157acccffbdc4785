#!/usr/bin/env bash
# Compiles the torch layer's CUDA code against PyTorch's CUDA LibTorch and links it: every source
# that includes cuda_switch.h, with the switch as that LibTorch sets it (its generated
# c10/cuda/impl/cuda_cmake_macros.h turns the CUDA branch on; nothing is forced), and
# tests/cuda_libtorch/cuda_paths_main.cc, which calls each function with a CUDA branch, linked
# against libtorch_cuda, libc10_cuda and the CUDA runtime. A call to an API that LibTorch changed
# or dropped fails the compile or the link. The CUDA libraries that libtorch_cuda itself needs
# (cuBLAS, cuDNN, NCCL, ...) are not on this machine: the link allows their symbols to stay
# unresolved inside LibTorch's own libraries (never in ours), and the program is not run.
#
# The LibTorch is the C++ part of the wheel pinned in ci/requirements/libtorch-cuda.txt
# (ci/install-python-deps.sh libtorch-cuda unpacks it into .deps/libtorch-cuda); the CUDA runtime's
# headers and library come from the CUDA Toolkit (CUDA_HOME, default /usr/local/cuda).
#
#   ci/cuda-libtorch-check.sh [SOURCE_ROOT]     (default: this repository; a copy with a planted
#                                                error shows the check fails)
# Exit: 0 compiled and linked, 1 a compile or link error, 77 no CUDA Toolkit (ctest SKIP).
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
source_root=$(cd "${1:-$root}" && pwd)
cuda_home=${CUDA_HOME:-/usr/local/cuda}

if [[ ! -f $cuda_home/include/cuda_runtime_api.h || ! -e $cuda_home/lib64/libcudart.so ]]; then
  echo "SKIP: no CUDA Toolkit (runtime headers and libcudart.so) under $cuda_home (set CUDA_HOME)"
  exit 77
fi
"$root/ci/install-python-deps.sh" libtorch-cuda
torch=${MLREGRESS_DEPS_DIR:-$root/.deps}/libtorch-cuda/torch
version=$(sed -n 's/^torch==//p' "$root/ci/requirements/libtorch-cuda.txt")
[[ -f $torch/include/c10/cuda/impl/cuda_cmake_macros.h ]] ||
  { echo "FAIL: $torch is not a CUDA build of LibTorch (no c10/cuda/impl/cuda_cmake_macros.h)"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# LibTorch ships fmt's headers of another version than the fmt library linked here: a folder with
# only the system's fmt comes first, as the torch layer's CMakeLists.txt does.
mkdir -p "$work/fmt-only-include"
ln -s /usr/include/fmt "$work/fmt-only-include/fmt"
flags=(-std=c++20 -O0 -DFMT_SHARED -D_GLIBCXX_USE_CXX11_ABI=1
  -I"$source_root/runner/include" -I"$source_root/runner/src/torch" -isystem "$work/fmt-only-include"
  -isystem "$torch/include" -isystem "$torch/include/torch/csrc/api/include"
  -isystem "$cuda_home/include")

mapfile -t sources < <(grep -l '#include "cuda_switch.h"' "$source_root"/runner/src/torch/*.cc)
[[ ${#sources[@]} -gt 0 ]] || { echo "FAIL: no source includes cuda_switch.h"; exit 1; }
sources+=("$source_root/tests/cuda_libtorch/cuda_paths_main.cc")

objects=()
for source in "${sources[@]}"; do
  object="$work/$(basename "$source" .cc).o"
  start=$EPOCHREALTIME
  if ! c++ "${flags[@]}" -c "$source" -o "$object" 2>"$work/errors.txt"; then
    echo "FAIL: ${source#"$source_root"/} does not compile against LibTorch $version (CUDA):"
    head -40 "$work/errors.txt"
    exit 1
  fi
  printf 'compiled against LibTorch %s (CUDA): %s (%.0f s)\n' "$version" "${source#"$source_root"/}" \
    "$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')"
  objects+=("$object")
done

# --no-as-needed keeps libtorch_cuda and libc10_cuda on the program, so that their symbols are the
# ones checked; --allow-shlib-undefined lets their own references to the CUDA libraries that are
# not here stay open, while an undefined symbol of our objects still fails the link.
if ! c++ -o "$work/cuda_paths" "${objects[@]}" -L"$torch/lib" -L"$cuda_home/lib64" \
  -Wl,--no-as-needed -ltorch -ltorch_cuda -ltorch_cpu -lc10_cuda -lc10 -lcudart -Wl,--as-needed \
  -lfmt -Wl,--allow-shlib-undefined 2>"$work/errors.txt"; then
  echo "FAIL: the CUDA code does not link against LibTorch $version (CUDA):"
  grep -v "^/usr/bin/ld: warning: lib.*not found" "$work/errors.txt" | head -40
  exit 1
fi
# The CUDA branch really was compiled: our objects use the CUDA caching allocator and runtime.
used=$(nm -C --undefined-only "${objects[@]}")
for symbol in c10::cuda::CUDACachingAllocator cudaGetDeviceProperties; do
  grep -q "$symbol" <<<"$used" ||
    { echo "FAIL: no object uses $symbol: the CUDA branch was not compiled"; exit 1; }
done
echo "linked against libtorch_cuda and libc10_cuda of LibTorch $version and $(basename "$(realpath "$cuda_home")")'s libcudart"
