#!/usr/bin/env bash
# Checks the formatting, builds everything and runs all of mlregress's tests through ctest: unit
# tests of the core, end-to-end tests of the runner, the JUnit schema check, the package installed
# and used by a project of its own, and the example suites registered by mlregress_discover_tests,
# against the default LibTorch (the PyTorch wheel's, build/).
# Then the same torch layer against the distribution's LibTorch (build-distro/): its tests and the
# fast and medium tiers of the example suites, so that no change breaks either LibTorch.
# Extra arguments go to the first ctest. MLREGRESS_TEST_DISTRO=0 leaves out the second build.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/libtorch.sh

./ci/install-deps.sh
./ci/format.sh --check
./ci/configure-and-build.sh

jobs=${MLREGRESS_JOBS:-$(nproc)}
(cd "$(mlregress_build_dir)" && ctest --output-on-failure -j "$jobs" "$@")

if [[ ${MLREGRESS_TEST_DISTRO:-1} != 0 && -n ${MLREGRESS_BUILD_DIR:-} ]]; then
  # The second build would go to the same folder.
  echo "test: MLREGRESS_BUILD_DIR is set: the build against the distribution's LibTorch is left out"
elif [[ ${MLREGRESS_TEST_DISTRO:-1} != 0 && $(mlregress_libtorch_choice) != distro ]]; then
  echo "test: the torch layer, its tests and the fast and medium tiers against the distribution's LibTorch"
  export MLREGRESS_LIBTORCH=distro
  ./ci/configure-and-build.sh mlregress_suites mlregress_model_checks_tests \
    mlregress_training_checks_tests mlregress_torch_counters_tests
  # The labels of those binaries' tests only: the rest of the build folder is not built.
  (cd "$(mlregress_build_dir)" && ctest --output-on-failure -j "$jobs" -L '^(torch|fast|medium)$' -LE '^gpu$')
fi
