#!/usr/bin/env bash
# The main job: install what is missing, build the example suites, run the fast tier against
# the committed baselines (baselines/mlregress_suites/*.toml).
# Leaves a run folder in runs/ (runs/latest points at it) and JUnit XML in runs/latest/junit.xml;
# exits with the runner's exit code (0 passed, 1 test failed, 2 regression, ...).
# MLREGRESS_LIBTORCH chooses the LibTorch (ci/libtorch.sh): wheel (default), distro, or a path.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/libtorch.sh

./ci/install-deps.sh
./ci/configure-and-build.sh mlregress_suites

build_dir=$(mlregress_build_dir)
set +e
"$build_dir/suites/mlregress_suites" run --tier fast --baselines baselines --out runs "$@"
status=$?
set -e
echo "main-job: exit code $status; run folder $(readlink -f runs/latest)"
exit $status
