#!/usr/bin/env bash
# Configures (once) and builds the given targets in BUILD_DIR (default build/) with Ninja,
# Release, ccache when available. Used by main-job.sh and test.sh.
#   ci/configure-and-build.sh [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${MLREGRESS_BUILD_DIR:-build}
jobs=${MLREGRESS_JOBS:-$(nproc)}

if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
if (($# == 0)); then
  cmake --build "$build_dir" -j "$jobs"
else
  cmake --build "$build_dir" -j "$jobs" --target "$@"
fi
