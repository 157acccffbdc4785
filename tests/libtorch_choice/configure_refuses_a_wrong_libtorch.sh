#!/usr/bin/env bash
# The configure stops with a message naming the problem, instead of a wall of link errors, when:
#   1. the LibTorch was built with the pre-C++11 string ABI (_GLIBCXX_USE_CXX11_ABI=0): a stand-in
#      LibTorch whose libc10.so and libtorch.so are compiled that way (and, as the control, the
#      same stand-in compiled with the C++11 ABI configures);
#   2. two LibTorch installs are mixed: the PyTorch wheel's named by its share/cmake folder (what
#      torch.utils.cmake_prefix_path prints) while the distribution's LibTorch is installed, so
#      that Torch's CMake package takes the system's libraries (skipped where there is no
#      distribution LibTorch or no wheel LibTorch).
#   configure_refuses_a_wrong_libtorch.sh SOURCE_DIR [WHEEL_TORCH_PREFIX]
set -euo pipefail
source_dir=$(cd "${1:?usage: $0 SOURCE_DIR [WHEEL_TORCH_PREFIX]}" && pwd)
wheel_prefix=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# configure NAME PREFIX_PATH: configures mlregress's core and torch layer (nothing is built);
# output in $work/NAME.log, exit status returned.
configure() {
  cmake -S "$source_dir" -B "$work/$1" -G Ninja -DCMAKE_PREFIX_PATH="$2" -DMLREGRESS_BUILD_TESTS=OFF \
    -DMLREGRESS_BUILD_SUITES=OFF -DMLREGRESS_INSTALL=OFF >"$work/$1.log" 2>&1
}

# stand_in_libtorch DIR ABI: a LibTorch folder with the layout and CMake package of the real one,
# whose libraries export functions taking std::string, compiled with _GLIBCXX_USE_CXX11_ABI=ABI.
stand_in_libtorch() {
  local dir=$1 abi=$2
  mkdir -p "$dir/lib" "$dir/include" "$dir/share/cmake/Torch"
  echo '#include <string>
std::string c10_name(const std::string& s) { return s + "c10"; }' >"$work/c10.cc"
  for library in c10 torch; do
    c++ -shared -fPIC -D_GLIBCXX_USE_CXX11_ABI="$abi" -o "$dir/lib/lib$library.so" "$work/c10.cc"
  done
  cat >"$dir/share/cmake/Torch/TorchConfig.cmake" <<'CMAKE'
# As LibTorch's own: the prefix from this file's place, the libraries by find_library.
get_filename_component(TORCH_INSTALL_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../../" ABSOLUTE)
set(TORCH_INCLUDE_DIRS "${TORCH_INSTALL_PREFIX}/include")
find_library(TORCH_LIBRARY torch PATHS "${TORCH_INSTALL_PREFIX}/lib")
find_library(c10_LIBRARY c10 PATHS "${TORCH_INSTALL_PREFIX}/lib")
add_library(torch SHARED IMPORTED)
set_target_properties(torch PROPERTIES IMPORTED_LOCATION "${TORCH_LIBRARY}"
                      INTERFACE_INCLUDE_DIRECTORIES "${TORCH_INCLUDE_DIRS}")
set(TORCH_LIBRARIES torch "${c10_LIBRARY}")
set(Torch_FOUND TRUE)
CMAKE
}

# 1. The other C++ ABI, and the control.
stand_in_libtorch "$work/libtorch-pre-cxx11" 0
if configure pre-cxx11 "$work/libtorch-pre-cxx11"; then
  cat "$work/pre-cxx11.log"
  fail "a LibTorch built with _GLIBCXX_USE_CXX11_ABI=0 configured"
fi
# (CMake wraps the message's lines.)
grep -q "C++ ABI mismatch" "$work/pre-cxx11.log" && grep -q "built with _GLIBCXX_USE_CXX11_ABI=0" "$work/pre-cxx11.log" ||
  { cat "$work/pre-cxx11.log"; fail "the ABI mismatch is not named"; }
echo "ok   a LibTorch built with _GLIBCXX_USE_CXX11_ABI=0 is refused, naming the ABI"
stand_in_libtorch "$work/libtorch-cxx11" 1
configure cxx11 "$work/libtorch-cxx11" || { cat "$work/cxx11.log"; fail "the same LibTorch built with the C++11 ABI does not configure"; }
echo "ok   the same LibTorch built with the C++11 ABI configures"

# 2. Two installs mixed.
system_libtorch=$(ls /usr/lib/*/libtorch.so /usr/lib/libtorch.so 2>/dev/null | head -1 || true)
if [[ -z $system_libtorch || -z $wheel_prefix || $wheel_prefix == /usr || ! -f $wheel_prefix/share/cmake/Torch/TorchConfig.cmake ]]; then
  echo "skip a mixed install: needs the distribution's LibTorch and the wheel's (have: '${system_libtorch}', '${wheel_prefix}')"
  exit 0
fi
if configure mixed "$wheel_prefix/share/cmake"; then
  grep TORCH_LIBRARY "$work/mixed/CMakeCache.txt"
  fail "the wheel's CMake package with the system's libtorch.so configured"
fi
grep -q "Two LibTorch installs are mixed" "$work/mixed.log" || { cat "$work/mixed.log"; fail "the mix is not named"; }
grep -q "$system_libtorch" "$work/mixed.log" || { cat "$work/mixed.log"; fail "the system library is not named"; }
configure wheel "$wheel_prefix" || { cat "$work/wheel.log"; fail "the wheel's LibTorch folder itself does not configure"; }
echo "ok   the wheel's share/cmake beside $system_libtorch is refused as a mix; its torch folder configures"
