#!/usr/bin/env bash
# Installs the tools of tools/requirements.txt (actionlint) from PyPI, at its pinned versions, into
# a venv in BUILD_DIR/ci-tools, or MLREGRESS_CI_TOOLS_DIR when set (a folder kept between builds
# saves the install), once and again only when the requirements change, and prints that folder.
# Exits 77, with the reason, when they cannot be had here (no wheel for this platform, PyPI out of
# reach): the test then skips instead of failing.
#   install_ci_tools.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tools=${MLREGRESS_CI_TOOLS_DIR:-$build/ci-tools}

fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$tools"
# Two builds sharing MLREGRESS_CI_TOOLS_DIR may test at once.
exec 9>"$tools/.install.lock"
flock 9

# The copy of the requirements is written last: an interrupted install is redone next time.
installed="$tools/installed-requirements.txt"
if ! cmp -s "$here/tools/requirements.txt" "$installed"; then
  rm -rf "$tools/venv" "$installed"
  # Debian's Python: its venv module comes with python3-venv (ci/install-deps.sh).
  /usr/bin/python3 -m venv "$tools/venv" >"$tools/venv.log" 2>&1 \
    || { cat "$tools/venv.log" >&2; fail "/usr/bin/python3 -m venv failed: install python3-venv (ci/install-deps.sh)"; }
  # Wheels only: an sdist's build may download what this machine cannot reach.
  if ! "$tools/venv/bin/pip" install --no-deps --only-binary=:all: -r "$here/tools/requirements.txt" \
       >"$tools/pip-install.log" 2>&1; then
    echo "SKIP: the CI tools cannot be installed from PyPI here ($(grep -v '^#' "$here/tools/requirements.txt" | xargs)):" >&2
    grep -E '^(ERROR|WARNING: Retrying)' "$tools/pip-install.log" | tail -3 >&2 || tail -3 "$tools/pip-install.log" >&2
    exit 77
  fi
  cp "$here/tools/requirements.txt" "$installed"
fi
echo "$tools"
