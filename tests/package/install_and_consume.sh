#!/usr/bin/env bash
# mlregress as an ML team gets it: installed into a prefix (cmake --install) and as a .deb
# (cpack), then used from a project of its own (tests/package/consumer) through
# find_package(mlregress CONFIG REQUIRED): its ML test is built against the package, discovered
# by ctest, run into an empty baselines folder (NEW), promoted, run again (PASS), and a planted
# change fails it with a regression. The consumer finds LibTorch where mlregress was built against
# it (TORCH_PREFIX): the PyTorch wheel's LibTorch by default, as a team points CMAKE_PREFIX_PATH at
# the folder torch.utils.cmake_prefix_path names; its model library links only LibTorch and is
# compiled with the precompiled header too.
#   install_and_consume.sh BUILD_DIR SOURCE_DIR TORCH_PREFIX
set -euo pipefail
usage="usage: $0 BUILD_DIR SOURCE_DIR TORCH_PREFIX"
build=$(cd "${1:?$usage}" && pwd)
source_dir=$(cd "${2:?$usage}" && pwd)
torch_prefix=${3:?$usage}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export MLREGRESS_REPO="$work"  # the runs record this folder's git state: none, so promote accepts them

fail() { echo "FAIL: $*" >&2; exit 1; }
cmake_major=$(cmake --version | sed -n '1s/^cmake version \([0-9]*\)\..*/\1/p')
werror_dev=-Werror=dev
[ "${cmake_major:-3}" -ge 4 ] && werror_dev=-Werror=author

# consume PREFIX NAME: builds the consumer against the mlregress found under PREFIX and runs it.
consume() {
  local prefix=$1 name=$2
  local consumer="$work/$name" baselines="$work/$name-baselines"
  mkdir -p "$baselines"  # the project's baselines folder, still empty: its tests are NEW
  # A developer warning from mlregress's package files (a policy it leaves unset) would greet
  # every consumer; it fails here instead (-Werror=dev, which CMake 4 calls -Werror=author).
  cmake "$werror_dev" -S "$source_dir/tests/package/consumer" -B "$consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="$prefix;$torch_prefix" -DCONSUMER_BASELINES="$baselines" >"$consumer.configure.log" 2>&1 \
    || { cat "$consumer.configure.log"; fail "$name: configuring the consumer failed"; }
  grep -q "mlregress_DIR:PATH=$prefix" "$consumer/CMakeCache.txt" \
    || fail "$name: find_package found mlregress somewhere other than $prefix: $(grep mlregress_DIR "$consumer/CMakeCache.txt")"
  cmake --build "$consumer" >"$consumer.build.log" 2>&1 || { cat "$consumer.build.log"; fail "$name: build failed"; }
  grep -q "Winvalid-pch\|not used because" "$consumer.build.log" && fail "$name: the precompiled header was not used"

  local listed  # captured first: grep -q would close the pipe early, and pipefail would see ctest fail
  listed=$(cd "$consumer" && ctest -N -L fast)
  grep -q "Fast.LinearFitConverges" <<<"$listed" || { echo "$listed"; fail "$name: ctest did not discover the ML test"; }
  (cd "$consumer" && ctest --output-on-failure -L fast >"$consumer.ctest1.log" 2>&1) \
    || { cat "$consumer.ctest1.log"; fail "$name: the first run failed"; }
  grep -q '"verdict": "NEW"' "$consumer/ctest-runs/latest/results.json" || fail "$name: a first run is not NEW"

  "$consumer/consumer_tests" promote "$consumer/ctest-runs/latest" --baselines "$baselines" --reason "first" \
    >"$consumer.promote.log" || { cat "$consumer.promote.log"; fail "$name: promote failed"; }
  (cd "$consumer" && ctest --output-on-failure -L fast >"$consumer.ctest2.log" 2>&1) \
    || { cat "$consumer.ctest2.log"; fail "$name: the run against the promoted baseline failed"; }
  grep -q '"verdict": "PASS"' "$consumer/ctest-runs/latest/results.json" || fail "$name: no PASS against the baseline"

  local status=0
  "$consumer/consumer_tests" run --set LinearFitConverges.steps=5 --baselines "$baselines" --out "$work/runs" \
    --color never >"$consumer.planted.log" 2>&1 || status=$?
  [ "$status" -eq 2 ] || { cat "$consumer.planted.log"; fail "$name: 5 steps instead of 200 gave exit $status, not 2"; }
  grep -q "REGRESSION" "$consumer.planted.log" || fail "$name: the regression is not reported"
  echo "ok   $name: built against $prefix, discovered, NEW, promoted, PASS, planted change is a REGRESSION"
}

cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
consume "$work/prefix" installed

# Planted: the consumer finds another LibTorch than the package's (the wheel's folder left off
# CMAKE_PREFIX_PATH while Debian's libtorch-dev, another version, is installed): the configure
# stops naming both, instead of a link that fails inside libmlregress_torch.a.
torch_version() { sed -n 's/^set(PACKAGE_VERSION "\(.*\)")/\1/p' "$1" 2>/dev/null || true; }
other_torch="" other_version=""
for file in /usr/lib/*/cmake/Torch/TorchConfigVersion.cmake /usr/share/cmake/Torch/TorchConfigVersion.cmake; do
  [ -f "$file" ] && other_torch=/usr && other_version=$(torch_version "$file") && break
done
package_version=$(torch_version "$torch_prefix/share/cmake/Torch/TorchConfigVersion.cmake")
if [ -n "$other_torch" ] && [ -n "$package_version" ] && [ "$other_version" != "$package_version" ]; then
  status=0
  cmake -S "$source_dir/tests/package/consumer" -B "$work/other-torch" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="$work/prefix;$other_torch" -DCONSUMER_BASELINES="$work/other-baselines" \
        >"$work/other-torch.configure.log" 2>&1 || status=$?
  [ "$status" -ne 0 ] || { cat "$work/other-torch.configure.log"; fail "a consumer found LibTorch $other_version for a package built against $package_version, and the configure went on"; }
  grep -q "mlregress was built against another LibTorch" "$work/other-torch.configure.log" \
    && grep -q "LibTorch $package_version" "$work/other-torch.configure.log" \
    && grep -q "LibTorch $other_version" "$work/other-torch.configure.log" \
    || { cat "$work/other-torch.configure.log"; fail "the configure against another LibTorch does not name both"; }
  echo "ok   a consumer that finds LibTorch $other_version ($other_torch) for a package built against $package_version stops at configure"
else
  echo "note: no second LibTorch of another version installed; the mismatch check is not exercised"
fi

(cd "$work" && cpack --config "$build/CPackConfig.cmake" -B "$work/deb" >"$work/cpack.log" 2>&1) \
  || { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/deb/mlregress-dev_*.deb)
# Only a build against Debian's LibTorch makes the .deb depend on Debian's LibTorch package.
depends=$(dpkg-deb -f "$deb" Depends)
if [[ $torch_prefix == /usr ]]; then
  [[ $depends == *libtorch-dev* ]] || fail "built against Debian's LibTorch, the .deb does not depend on libtorch-dev"
else
  [[ $depends != *libtorch-dev* ]] || fail "built against $torch_prefix, the .deb depends on Debian's libtorch-dev"
fi
dpkg-deb -x "$deb" "$work/root"
[ -f "$work/root/usr/lib/cmake/mlregress/mlregressConfig.cmake" ] || fail "the .deb has no mlregressConfig.cmake"
consume "$work/root/usr" deb
echo "ok   $(basename "$deb")"
