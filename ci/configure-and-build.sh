#!/usr/bin/env bash
# Configures (once per LibTorch) and builds the given targets with Ninja, Release, ccache when
# available, against the LibTorch MLREGRESS_LIBTORCH chooses (ci/libtorch.sh: wheel by default,
# distro, or a path), in that LibTorch's build folder (build/, build-distro/, build-libtorch/, or
# MLREGRESS_BUILD_DIR). Used by main-job.sh and test.sh.
#   ci/configure-and-build.sh [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/libtorch.sh

build_dir=$(mlregress_build_dir)
jobs=${MLREGRESS_JOBS:-$(nproc)}
prefix=$(mlregress_libtorch_prefix)

# A build folder configured for another LibTorch is configured afresh: Torch's CMake package
# caches its library paths.
if [ -f "$build_dir/CMakeCache.txt" ] &&
  ! grep -qxF "CMAKE_PREFIX_PATH:UNINITIALIZED=$prefix" "$build_dir/CMakeCache.txt"; then
  echo "configure-and-build: $build_dir was configured for another LibTorch; configuring it for $prefix"
  rm -rf "$build_dir/CMakeCache.txt" "$build_dir/CMakeFiles"
fi
if [ ! -f "$build_dir/build.ninja" ] || [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix"
fi
if (($# == 0)); then
  cmake --build "$build_dir" -j "$jobs"
else
  cmake --build "$build_dir" -j "$jobs" --target "$@"
fi
