#!/usr/bin/env bash
# Installs what mlregress takes from PyPI, each into a venv of its own under the deps folder
# (MLREGRESS_DEPS_DIR, default .deps/ in the repository), at the versions pinned in
# ci/requirements/:
#   .deps/libtorch  torch (ci/requirements/libtorch.txt): the LibTorch of the default build, the
#                   C++ library inside the PyTorch wheel. --no-deps: only its C++ library and CMake
#                   package are used. On this kind of machine pip takes the wheel from the disk.
#   .deps/tools     clang-format and the other tools of the test command (ci/requirements/tools.txt)
#   .deps/libtorch-cuda  (only when asked for) the C++ headers and libraries of PyTorch's CUDA
#                   wheel (ci/requirements/libtorch-cuda.txt), unpacked, not installed: what
#                   ci/cuda-libtorch-check.sh compiles and links the CUDA code against
# A venv is made again only when its requirements file changed (a copy is kept in the venv,
# written last, so an interrupted install is redone). Safe to run again: with everything in place
# it does nothing and touches no network.
#   ci/install-python-deps.sh [libtorch] [tools] [libtorch-cuda]     (no argument: the first two)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deps=${MLREGRESS_DEPS_DIR:-$root/.deps}
python=${MLREGRESS_PYTHON:-python3}

# install NAME PIP_OPTION...: the venv deps/NAME from ci/requirements/NAME.txt.
install() {
  local name=$1
  shift
  local requirements="$root/ci/requirements/$name.txt" venv="$deps/$name"
  if cmp -s "$requirements" "$venv/requirements.txt"; then
    return
  fi
  echo "install-python-deps: $name ($(grep -v '^#' "$requirements" | paste -sd ' ')) into $venv"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@" -r "$requirements" \
    2> >(grep -v "^WARNING: Location .* is ignored" >&2)
  cp "$requirements" "$venv/requirements.txt"
}

# unpack_cuda_libtorch: deps/libtorch-cuda/torch/{include,share,lib} from the wheel of
# ci/requirements/libtorch-cuda.txt: the headers, the CMake package and the C++ libraries (about
# 1 GB of the wheel's 1.5; the Python bindings are left out).
unpack_cuda_libtorch() {
  local requirements="$root/ci/requirements/libtorch-cuda.txt" target="$deps/libtorch-cuda"
  if cmp -s "$requirements" "$target/requirements.txt"; then
    return
  fi
  echo "install-python-deps: libtorch-cuda ($(grep -v '^#' "$requirements" | paste -sd ' ')) into $target"
  rm -rf "$target"
  mkdir -p "$target/wheel"
  "$python" -m pip download --quiet --disable-pip-version-check --no-deps -d "$target/wheel" \
    -r "$requirements" 2> >(grep -v "^WARNING: Location .* is ignored" >&2)
  "$python" - "$target" "$target"/wheel/torch-*.whl <<'PY'
import re, sys, zipfile
target, wheel = sys.argv[1], sys.argv[2]
wanted = re.compile(r"torch/(include/|share/|lib/lib(c10|c10_cuda|torch|torch_cpu|torch_cuda)\.so$)")
with zipfile.ZipFile(wheel) as archive:
    for name in archive.namelist():
        if wanted.match(name):
            archive.extract(name, target)
PY
  rm -rf "$target/wheel"
  cp "$requirements" "$target/requirements.txt"
}

# One install at a time: ctest runs the tests that call this script in parallel.
mkdir -p "$deps"
exec 9>"$deps/.install.lock"
flock 9

what=("$@")
((${#what[@]} > 0)) || what=(libtorch tools)
for name in "${what[@]}"; do
  case $name in
    libtorch) install libtorch --no-deps ;;
    tools) install tools ;;
    libtorch-cuda) unpack_cuda_libtorch ;;
    *) echo "install-python-deps: unknown item '$name' (libtorch, tools, libtorch-cuda)" >&2; exit 2 ;;
  esac
done
