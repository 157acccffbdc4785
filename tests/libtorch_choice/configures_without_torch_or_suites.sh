#!/usr/bin/env bash
# Configures the source tree with the LibTorch layer off, and with it on but the example suites
# off: both must configure (a test that names a target those options leave out stops the
# configure with "No target ...").
#   configures_without_torch_or_suites.sh SOURCE_DIR PREFIX_PATH
set -euo pipefail
source_dir=${1:?usage: $0 SOURCE_DIR PREFIX_PATH}
prefix=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
configure() {
  local name=$1
  shift
  if ! cmake -S "$source_dir" -B "$work/$name" -G Ninja -DMLREGRESS_INSTALL=OFF "$@" >"$work/$name.log" 2>&1; then
    cat "$work/$name.log" >&2
    echo "FAIL: the configure with $* stopped" >&2
    exit 1
  fi
  echo "ok   configures with $*"
}
configure core -DMLREGRESS_WITH_TORCH=OFF -DMLREGRESS_BUILD_SUITES=OFF
configure torch-without-suites -DMLREGRESS_BUILD_SUITES=OFF -DCMAKE_PREFIX_PATH="$prefix"
