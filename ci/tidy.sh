#!/usr/bin/env bash
# clang-tidy (.clang-tidy: bugprone-*, performance-*, a few readability checks) over the core's
# sources, with the build's compile_commands.json. Prints the findings and exits non-zero when
# there are any. Not part of CI: a new clang-tidy release adds checks. The torch layer is left
# out by default: Debian's clang-tidy 14 cannot parse LibTorch 1.13's headers in C++20 mode.
#   ci/tidy.sh [BUILD_DIR] [FILE...]      (default: build/, every runner/src/core file)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build}
shift || true
if [ ! -f "$build_dir/compile_commands.json" ]; then
  echo "tidy: no $build_dir/compile_commands.json; configure first (ci/configure-and-build.sh)" >&2
  exit 2
fi
if (($# == 0)); then
  mapfile -t files < <(git ls-files 'runner/src/core/*.cc')
else
  files=("$@")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# GCC's precompiled headers mean nothing to clang: parse torch's headers instead.
sed -E 's# -Winvalid-pch -include [^ ]*cmake_pch\.hxx##g' "$build_dir/compile_commands.json" \
  >"$work/compile_commands.json"
log="$work/tidy.log"
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$work" --quiet >"$log" 2>/dev/null || true
findings=$(grep -c 'warning:\|error:' "$log" || true)
grep -A3 'warning:\|error:' "$log" || true
echo "tidy: $findings finding(s) in ${#files[@]} files"
[ "$findings" -eq 0 ]
