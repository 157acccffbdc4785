#!/usr/bin/env bash
# runner/docs/planted-bugs.md must be exactly what the planted-bug tests record today, and what
# the baseline gate says of the bugs planted against the committed baselines.
set -euo pipefail
suites=${1:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
source_dir=${2:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
read -r -a runs < <("$source_dir/ci/planted-bugs-runs.sh" "$suites" "$source_dir" "$out")
python3 "$source_dir/ci/planted-bugs-table.py" --check "$source_dir/runner/docs/planted-bugs.md" "${runs[@]}"
