#!/usr/bin/env bash
# Stages what a GPU machine with only PyTorch, CMake, ninja and a compiler lacks to build
# mlregress's GPU suite: the headers, libraries and CMake package files of the core's
# dependencies (fmt, GoogleTest, Google Benchmark, CLI11, toml++, nlohmann/json, pugixml,
# OpenSSL's libcrypto, and the part of Boost.Math the statistics include), copied from this
# Debian machine's packages into STAGE/prefix with /usr's layout, so that
# `cmake -DCMAKE_PREFIX_PATH=STAGE/prefix` finds every one of them there. ci/gpu-check.sh builds
# against it on the GPU machine. The folder travels with the working tree (at most 60 MiB).
#
# Then the dry run: a CMake configure of the torch-free core that may look in STAGE/prefix only
# (CMAKE_IGNORE_PREFIX_PATH=/usr), which must find every package in the stage, and a build of the
# core library and the torch-free fixture binary against it.
#
# Usage: ci/stage-gpu-check.sh [STAGE=.gpu-stage] [--no-dry-run | --configure-only]
# Exit: 0 staged (and dry run passed), 1 something missing, too large, or the dry run failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
stage=${1:-$root/.gpu-stage}
dry_run=1
build_core=1
case ${2:-} in
  "") ;;
  --no-dry-run) dry_run=0 ;;
  --configure-only) build_core=0 ;;
  *) fail_usage=1 ;;
esac
limit_mib=60
arch=x86_64-linux-gnu
fail() { echo "stage-gpu-check: $*" >&2; exit 1; }
[[ -z ${fail_usage:-} ]] || fail "usage: ci/stage-gpu-check.sh [STAGE] [--no-dry-run | --configure-only]"

stage=$(realpath -m "$stage")
# Only ever delete a folder this script made (it leaves a marker), never an arbitrary path.
if [[ -e $stage && ! -e $stage/.mlregress-gpu-stage && -n $(ls -A "$stage" 2>/dev/null) ]]; then
  fail "$stage exists and is not a stage folder: give an empty or new path"
fi
rm -rf "$stage"
prefix=$stage/prefix
mkdir -p "$prefix"
touch "$stage/.mlregress-gpu-stage"

# copy PATH...: each path under /usr, to the same place under $prefix (symbolic links kept).
copy() {
  for path in "$@"; do
    [[ -e $path ]] || fail "missing $path (run ci/install-deps.sh)"
    local target=$prefix/${path#/usr/}
    mkdir -p "$(dirname "$target")"
    cp -a "$path" "$target"
  done
}

# Header-only and small header trees, whole.
copy /usr/include/fmt /usr/include/nlohmann /usr/include/CLI /usr/include/toml++ \
  /usr/include/gtest /usr/include/gmock /usr/include/benchmark /usr/include/openssl \
  /usr/include/$arch/openssl /usr/include/pugixml.hpp /usr/include/pugiconfig.hpp
# OpenSSL's per-architecture headers (opensslconf.h, configuration.h) beside the others: the
# stage's include folder is the only one a build there searches.
cp -a /usr/include/$arch/openssl/. "$prefix/include/openssl/"
# Boost: only the headers the statistics include, found by the preprocessor (a few MiB of 160),
# and boost/config whole (its compiler-specific branches differ from GCC 12's here).
boost_probe=$(mktemp --suffix=.cc)
trap 'rm -f "$boost_probe"' EXIT
grep -rh '^#include <boost/' "$root/runner" | sort -u >"$boost_probe"
echo '#include <boost/version.hpp>' >>"$boost_probe"
mapfile -t boost_headers < <(c++ -std=c++20 -M "$boost_probe" | tr ' \\' '\n\n' |
  grep '^/usr/include/boost/' | sort -u)
[[ ${#boost_headers[@]} -gt 0 ]] || fail "no Boost header found"
copy "${boost_headers[@]}" /usr/include/boost/config
# Libraries, with their versioned names, and the CMake package files beside them.
shopt -s nullglob
libs=(/usr/lib/$arch/libfmt.so* /usr/lib/$arch/libbenchmark.so* /usr/lib/$arch/libbenchmark_main.a
  /usr/lib/$arch/libgtest.a /usr/lib/$arch/libgtest_main.a /usr/lib/$arch/libgmock.a
  /usr/lib/$arch/libgmock_main.a /usr/lib/$arch/libpugixml.so* /usr/lib/$arch/libpugixml.a
  /usr/lib/$arch/libtomlplusplus.so* /usr/lib/$arch/libcrypto.so*)
copy "${libs[@]}"
copy /usr/lib/$arch/cmake/GTest /usr/lib/$arch/cmake/fmt /usr/lib/$arch/cmake/pugixml \
  /usr/lib/$arch/cmake/tomlplusplus /usr/lib/$arch/cmake/benchmark \
  /usr/lib/$arch/cmake/Boost-1.74.0 /usr/lib/$arch/cmake/boost_headers-1.74.0 \
  /usr/lib/$arch/cmake/BoostDetectToolset-1.74.0.cmake \
  /usr/share/cmake/nlohmann_json /usr/share/cmake/CLI11
for pc in /usr/lib/$arch/pkgconfig/{fmt,benchmark,pugixml,tomlplusplus,libcrypto,gtest,gmock}.pc; do
  [[ -e $pc ]] && copy "$pc"
done

size_kib=$(du -sk "$stage" | cut -f1)
size_mib=$(awk -v k="$size_kib" 'BEGIN { printf "%.1f", k / 1024 }')
files=$(find "$stage" -type f | wc -l)
echo "staged $files files, $size_mib MiB, in $stage (limit $limit_mib MiB)"
((size_kib <= limit_mib * 1024)) || fail "$size_mib MiB is over the $limit_mib MiB limit"

((dry_run)) || exit 0
# The dry run: every package must come from the stage when /usr may not be searched. libcrypto is
# named: CMake 4's FindOpenSSL takes pkg-config's /usr/lib before OPENSSL_ROOT_DIR.
build=$(mktemp -d)
trap 'rm -f "$boost_probe"; rm -rf "$build"' EXIT
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_IGNORE_PREFIX_PATH=/usr -DOPENSSL_ROOT_DIR="$prefix" \
  -DOPENSSL_CRYPTO_LIBRARY="$prefix/lib/$arch/libcrypto.so" -DOPENSSL_INCLUDE_DIR="$prefix/include" \
  -DOPENSSL_USE_STATIC_LIBS=OFF -DMLREGRESS_WITH_TORCH=OFF -DMLREGRESS_BUILD_SUITES=OFF \
  -DMLREGRESS_BUILD_TESTS=OFF -DMLREGRESS_INSTALL=OFF >"$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; fail "dry run: configuring against the stage failed"; }
for package in GTest fmt nlohmann_json CLI11 pugixml tomlplusplus Boost benchmark; do
  dir=$(grep "^${package}_DIR:" "$build/CMakeCache.txt" | cut -d= -f2-)
  [[ $dir == "$prefix"/* ]] || fail "dry run: $package was found at '$dir', not in the stage"
done
crypto=$(grep '^OPENSSL_CRYPTO_LIBRARY:' "$build/CMakeCache.txt" | cut -d= -f2-)
[[ $crypto == "$prefix"/* ]] || fail "dry run: libcrypto was found at '$crypto', not in the stage"
echo "dry run: every package found in the stage"
((build_core)) || exit 0
cmake --build "$build" --target mlregress_runner >"$build/build.log" 2>&1 ||
  { tail -30 "$build/build.log"; fail "dry run: building the core against the stage failed"; }
# The compiler here falls back to /usr/include silently; there is none of it there. Every
# dependency header the build read must have come from the stage.
if ninja -C "$build" -t deps | grep -E '^ +/usr/include/(boost|fmt|openssl|x86_64-linux-gnu/openssl|nlohmann|CLI|toml\+\+|gtest|gmock|benchmark|pugi)' \
  >"$build/leaks.txt"; then
  head -5 "$build/leaks.txt"
  fail "dry run: the build read $(wc -l <"$build/leaks.txt") dependency headers from /usr/include, not the stage"
fi
echo "dry run: the core library builds against the stage, every dependency header from it"
