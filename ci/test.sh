#!/usr/bin/env bash
# Checks the formatting, builds everything and runs all of mlregress's tests through ctest: unit
# tests of the core, end-to-end tests of the runner, the JUnit schema check, the package installed
# and used by a project of its own, and the example suites registered by mlregress_discover_tests.
set -euo pipefail
cd "$(dirname "$0")/.."

./ci/install-deps.sh
./ci/format.sh --check
./ci/configure-and-build.sh

build_dir=${MLREGRESS_BUILD_DIR:-build}
cd "$build_dir"
ctest --output-on-failure -j "${MLREGRESS_JOBS:-$(nproc)}" "$@"
