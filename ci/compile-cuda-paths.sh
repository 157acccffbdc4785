#!/usr/bin/env bash
# Compiles the torch layer's CUDA code (every source that includes cuda_switch.h) with
# MLREGRESS_TORCH_CUDA=1 against this machine's LibTorch headers and the CUDA Toolkit's: the
# check that the code behind the CUDA switch is valid C++ for that API, on a machine without a
# CUDA build of LibTorch. Debian's CPU LibTorch ships ATen/cuda and c10/cuda but not the
# generated c10/cuda/impl/cuda_cmake_macros.h, so a one-line stand-in is put in a temporary
# include folder. Syntax and types only (-fsyntax-only): nothing is linked or run.
#
# Usage: ci/compile-cuda-paths.sh [CUDA_HOME=/usr/local/cuda]
# Exit: 0 compiled, 1 a compile error, 77 no CUDA Toolkit headers or no LibTorch CUDA headers.
set -euo pipefail
export LC_ALL=C  # EPOCHREALTIME and printf use "." as the decimal point
cuda_home=${1:-${CUDA_HOME:-/usr/local/cuda}}
root=$(cd "$(dirname "$0")/.." && pwd)
torch_include=${TORCH_INCLUDE:-/usr/include}

if [[ ! -f $cuda_home/include/cuda_runtime_api.h ]]; then
  echo "SKIP: no CUDA Toolkit headers under $cuda_home/include"
  exit 77
fi
if [[ ! -f $torch_include/ATen/cuda/CUDAContext.h || ! -f $torch_include/c10/cuda/CUDACachingAllocator.h ]]; then
  echo "SKIP: LibTorch's CUDA headers (ATen/cuda, c10/cuda) are not under $torch_include"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/c10/cuda/impl"
if [[ ! -f $torch_include/c10/cuda/impl/cuda_cmake_macros.h ]]; then
  printf '#pragma once\n#define C10_CUDA_BUILD_SHARED_LIBS\n' >"$work/c10/cuda/impl/cuda_cmake_macros.h"
fi

mapfile -t sources < <(grep -l '#include "cuda_switch.h"' "$root"/runner/src/torch/*.cc)
[[ ${#sources[@]} -gt 0 ]] || { echo "FAIL: no source includes cuda_switch.h"; exit 1; }
# /usr/include is a default system folder: naming it again with -isystem breaks libstdc++'s
# #include_next chain, so only another LibTorch location is added.
torch_flags=(-isystem "$torch_include/torch/csrc/api/include")
[[ $torch_include == /usr/include ]] || torch_flags=(-isystem "$torch_include" "${torch_flags[@]}")
status=0
for source in "${sources[@]}"; do
  start=$EPOCHREALTIME
  if c++ -std=c++20 -fsyntax-only -DMLREGRESS_TORCH_CUDA=1 -DFMT_SHARED -D_GLIBCXX_USE_CXX11_ABI=1 \
    -I"$root/runner/include" -isystem "$work" "${torch_flags[@]}" \
    -isystem "$cuda_home/include" "$source" 2>"$work/errors.txt"; then
    printf 'compiled with MLREGRESS_TORCH_CUDA=1: %s (%.0f s)\n' "${source#"$root"/}" \
      "$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')"
  else
    echo "FAIL: ${source#"$root"/} does not compile with MLREGRESS_TORCH_CUDA=1:"
    head -40 "$work/errors.txt"
    status=1
  fi
done
exit $status
