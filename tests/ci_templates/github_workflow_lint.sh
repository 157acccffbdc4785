#!/usr/bin/env bash
# ci/templates/github-actions.yml through actionlint, GitHub's workflow linter (installed from PyPI
# by install_ci_tools.sh): keys, types of `${{ }}` expressions, action inputs, cron, `needs`.
# Skips (exit 77) where actionlint cannot be had; github_and_jenkins_templates_run.sh runs the
# workflow's shell either way.
#   github_workflow_lint.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR SOURCE_DIR}" && pwd)
source_dir=$(cd "${2:?usage: $0 BUILD_DIR SOURCE_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)

status=0
tools=$("$here/install_ci_tools.sh" "$build") || status=$?
[ "$status" -eq 0 ] || exit "$status"  # 77: skipped, with the reason printed
workflow="$source_dir/ci/templates/github-actions.yml"
"$tools/venv/bin/actionlint" -version | head -1
# shellcheck and pyflakes off: the findings must not depend on what else a machine has on PATH.
if ! "$tools/venv/bin/actionlint" -no-color -shellcheck= -pyflakes= "$workflow"; then
  echo "FAIL: actionlint finds problems in ci/templates/github-actions.yml (above)" >&2
  exit 1
fi
echo "ok   actionlint: ci/templates/github-actions.yml"
