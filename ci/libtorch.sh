# Sourced by the ci/ scripts: which LibTorch a build uses, and its build folder.
#
# MLREGRESS_LIBTORCH chooses the LibTorch:
#   wheel (default)  the LibTorch inside the PyTorch wheel that ci/install-python-deps.sh puts in
#                    .deps/libtorch (ci/requirements/libtorch.txt: 2.13.0, CPU)    build folder build/
#   distro           the distribution's package (Debian 12: libtorch-dev 1.13; Debian 13: 2.6),
#                    installed by ci/install-deps.sh                                 build-distro/
#   /a/path          an unpacked pytorch.org archive (its libtorch/ folder), or any
#                    other LibTorch prefix (the folder holding lib/ and share/)      build-libtorch/
# MLREGRESS_BUILD_DIR names another build folder.

mlregress_libtorch_choice() { echo "${MLREGRESS_LIBTORCH:-wheel}"; }

# The build folder of the chosen LibTorch.
mlregress_build_dir() {
  if [[ -n ${MLREGRESS_BUILD_DIR:-} ]]; then
    echo "$MLREGRESS_BUILD_DIR"
    return
  fi
  case $(mlregress_libtorch_choice) in
    wheel) echo build ;;
    distro) echo build-distro ;;
    *) echo build-libtorch ;;
  esac
}

# The LibTorch folder CMake gets as CMAKE_PREFIX_PATH: the folder holding lib/ and share/ (not
# share/cmake, or Torch's CMake package finds a system LibTorch's libraries before its own).
# Returns 2 with a message when the choice names nothing usable.
mlregress_libtorch_prefix() {
  local root choice prefix venv
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  choice=$(mlregress_libtorch_choice)
  case $choice in
    wheel)
      venv=${MLREGRESS_DEPS_DIR:-$root/.deps}/libtorch
      if [[ ! -x $venv/bin/python ]]; then
        echo "MLREGRESS_LIBTORCH=wheel: no venv at $venv (ci/install-python-deps.sh libtorch makes it)" >&2
        return 2
      fi
      # find_spec locates the package without importing it: the venv holds torch without the
      # Python packages it imports (--no-deps).
      prefix=$("$venv/bin/python" -c 'import importlib.util, os
spec = importlib.util.find_spec("torch")
print(os.path.dirname(spec.origin) if spec else "")')
      ;;
    distro) prefix=/usr ;;
    /*) prefix=$choice ;;
    *)
      echo "MLREGRESS_LIBTORCH=$choice: expected wheel, distro or an absolute path to a LibTorch folder" >&2
      return 2
      ;;
  esac
  if ! compgen -G "$prefix/share/cmake/Torch/TorchConfig.cmake" >/dev/null &&
    ! compgen -G "$prefix/lib/*/cmake/Torch/TorchConfig.cmake" >/dev/null; then
    echo "MLREGRESS_LIBTORCH=$choice: no LibTorch at '$prefix' (no share/cmake/Torch/TorchConfig.cmake)" >&2
    return 2
  fi
  echo "$prefix"
}
