#!/usr/bin/env bash
# ci/templates/gitlab-ci.yml as a team uses it, on a project of its own: the consumer of
# tests/package (find_package(mlregress) against an installed prefix) in a fresh git repository,
# the template copied in unchanged as .gitlab-ci.yml and only its variables set (MLREGRESS_PREFIX,
# LIBTORCH_PREFIX, TEST_BINARY), as a team sets them in its CI settings. run_gitlab_template.py runs its pipelines
# the way GitLab and a shell runner do (gitlab_pipeline.py) and says what it checks: the jobs of
# each pipeline source, the manual promote-baselines job, a push and a merge request pipeline
# with every artifact kept, and a planted regression that fails the job and keeps its artifacts.
# TORCH_PREFIX: the LibTorch mlregress was built against, the template's LIBTORCH_PREFIX.
#   gitlab_template_runs.sh BUILD_DIR SOURCE_DIR TORCH_PREFIX
set -euo pipefail
usage="usage: $0 BUILD_DIR SOURCE_DIR TORCH_PREFIX"
build=$(cd "${1:?$usage}" && pwd)
source_dir=$(cd "${2:?$usage}" && pwd)
torch_prefix=${3:?$usage}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# Debian's Python, which has python3-yaml (ci/install-deps.sh); the python3 on PATH may be another.
/usr/bin/python3 -c 'import yaml' 2>/dev/null || fail "/usr/bin/python3 cannot import yaml: install python3-yaml (ci/install-deps.sh)"

# mlregress installed where a team's CI image has it.
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }

# The team's project: its sources, an empty baselines folder, the template, a .gitignore for what
# builds and runs leave behind, all committed.
project="$work/project"
mkdir -p "$project/baselines"
consumer="$source_dir/tests/package/consumer"
cp "$consumer/CMakeLists.txt" "$consumer/linear_fit_test.cc" "$consumer/line_data.h" "$consumer/line_data.cc" "$project/"
cp "$source_dir/ci/templates/gitlab-ci.yml" "$project/.gitlab-ci.yml"
touch "$project/baselines/.gitkeep"
printf '%s\n' /build/ /runs/ /junit.xml /metrics.txt /summary.md /report.html /baselines.diff >"$project/.gitignore"
git_in_project() { git -C "$project" -c user.name=ci-test -c user.email=ci-test@localhost "$@"; }
git_in_project init -q -b main
git_in_project add -A
git_in_project commit -q -m "A LibTorch project with mlregress tests"

/usr/bin/python3 -B "$here/run_gitlab_template.py" "$project" "$prefix" "$torch_prefix" "$work"
