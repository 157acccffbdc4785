#!/usr/bin/env bash
# clang-format, with .clang-format, over every C++ file of the repository. One version on every
# machine: the one pinned in ci/requirements/tools.txt, from PyPI, in .deps/tools
# (ci/install-python-deps.sh), not the distribution's, whose version differs between releases and
# formats differently.
#   ci/format.sh           rewrites the files that differ
#   ci/format.sh --check   changes nothing; lists the files that differ and exits 1 (ci/test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
tools=${MLREGRESS_DEPS_DIR:-$PWD/.deps}/tools
[ -x "$tools/bin/clang-format" ] || { echo "format: no clang-format in $tools (ci/install-python-deps.sh tools)" >&2; exit 2; }
PATH="$tools/bin:$PATH"
pinned=$(sed -n 's/^clang-format==//p' ci/requirements/tools.txt)
version=$(clang-format --version)
[[ $version == *" version $pinned"* ]] || { echo "format: $version is not the pinned $pinned (ci/install-python-deps.sh tools)" >&2; exit 2; }
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.cc' '*.h' | sort -u)
if [ "${1:-}" != "--check" ]; then
  printf '%s\0' "${files[@]}" | xargs -0 -P "$(nproc)" -n 16 clang-format -i
  echo "format: ${#files[@]} files formatted"
  exit 0
fi
differ=$(printf '%s\0' "${files[@]}" |
  xargs -0 -P "$(nproc)" -n 1 sh -c 'clang-format --dry-run -Werror "$0" >/dev/null 2>&1 || echo "$0"' | sort)
if [ -n "$differ" ]; then
  echo "format: these files differ from .clang-format (run ci/format.sh and commit):" >&2
  echo "$differ" | sed 's/^/  /' >&2
  exit 1
fi
echo "format: ${#files[@]} files match .clang-format"
