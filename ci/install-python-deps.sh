#!/usr/bin/env bash
# Installs what mlregress takes from PyPI, each item into a folder of its own under the deps folder
# (MLREGRESS_DEPS_DIR, default .deps/ in the repository), at the versions pinned in
# ci/requirements/ITEM.txt:
#   libtorch       a venv with torch: the LibTorch of the default build, the C++ library inside the
#                  PyTorch wheel. --no-deps: only its C++ library and CMake package are used. On
#                  this kind of machine pip takes the wheel from the disk.
#   tools          a venv with clang-format and the other tools of the test command
#   libtorch-cuda  (on demand) the C++ headers and libraries of PyTorch's CUDA wheel, unpacked, not
#                  installed: what ci/cuda-libtorch-check.sh compiles and links the CUDA code against
#   ci-tools       (on demand) a venv with actionlint, wheels only, for tests/ci_templates
# An item is made again only when its requirements file changed (a copy is kept in its folder,
# written last, so an interrupted install is redone). Safe to run again: with everything in place
# it does nothing and touches no network.
#   ci/install-python-deps.sh [ITEM...]     (no argument: libtorch and tools)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deps=${MLREGRESS_DEPS_DIR:-$root/.deps}
python=${MLREGRESS_PYTHON:-python3}

# pip PIP_ARGUMENT...: pip, quiet, without the notes about this machine's unused local indexes.
pip() {
  "$python" -m pip --disable-pip-version-check "$@" 2> >(grep -v "^WARNING: Location .* is ignored" >&2)
}

# venv TARGET REQUIREMENTS PIP_OPTION...: a venv in TARGET with REQUIREMENTS installed.
venv() {
  local target=$1 requirements=$2
  shift 2
  "$python" -m venv "$target"
  python="$target/bin/python" pip install --quiet "$@" -r "$requirements"
}

# unpack_cuda_libtorch TARGET REQUIREMENTS: TARGET/torch/{include,share,lib} from the wheel: the
# headers, the CMake package and the C++ libraries (about 1 GB of the wheel's 1.5; the Python
# bindings are left out).
unpack_cuda_libtorch() {
  local target=$1 requirements=$2
  mkdir -p "$target/wheel"
  pip download --quiet --no-deps -d "$target/wheel" -r "$requirements"
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
}

# item NAME MAKE...: deps/NAME made by `MAKE... deps/NAME ci/requirements/NAME.txt`, unless it was
# made from the same requirements file already.
item() {
  local name=$1
  shift
  local requirements="$root/ci/requirements/$name.txt" target="$deps/$name"
  if cmp -s "$requirements" "$target/requirements.txt"; then
    return
  fi
  echo "install-python-deps: $name ($(grep -v '^#' "$requirements" | paste -sd ' ')) into $target"
  rm -rf "$target"
  "$1" "$target" "$requirements" "${@:2}"
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
    libtorch) item libtorch venv --no-deps ;;
    tools) item tools venv ;;
    libtorch-cuda) item libtorch-cuda unpack_cuda_libtorch ;;
    # Wheels only: an sdist's build may download what this machine cannot reach.
    ci-tools) item ci-tools venv --no-deps --only-binary=:all: ;;
    *) echo "install-python-deps: unknown item '$name' (libtorch, tools, libtorch-cuda, ci-tools)" >&2; exit 2 ;;
  esac
done
