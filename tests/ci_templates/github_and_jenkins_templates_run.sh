#!/usr/bin/env bash
# ci/templates/github-actions.yml and ci/templates/Jenkinsfile, checked as far as they can be
# without GitHub or Jenkins: the shell both templates run, run as GitHub Actions and Jenkins run
# it, with a real mlregress binary and a planted regression (run_template_steps.py says what it
# checks). github_workflow_lint.sh lints the workflow.
#   github_and_jenkins_templates_run.sh SOURCE_DIR FIXTURE_BINARY
# FIXTURE_BINARY: tests/fixture's mlregress_fixture_suite (torch-free, its test Passes is gated).
set -euo pipefail
source_dir=$(cd "${1:?usage: $0 SOURCE_DIR FIXTURE_BINARY}" && pwd)
fixture=${2:?usage: $0 SOURCE_DIR FIXTURE_BINARY}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# Debian's Python, which has python3-yaml (ci/install-deps.sh); the python3 on PATH may be another.
/usr/bin/python3 -c 'import yaml' 2>/dev/null || fail "/usr/bin/python3 cannot import yaml: install python3-yaml (ci/install-deps.sh)"
/usr/bin/python3 -B "$here/run_template_steps.py" "$source_dir" "$fixture" "$work"
