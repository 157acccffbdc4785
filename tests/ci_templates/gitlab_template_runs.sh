#!/usr/bin/env bash
# ci/templates/gitlab-ci.yml as a team uses it, run by gitlab-ci-local with its shell executor on a
# project of its own: the consumer of tests/package (find_package(mlregress) against an installed
# prefix) in a fresh git repository, the template copied in unchanged as .gitlab-ci.yml and only
# its variables set (MLREGRESS_PREFIX, TEST_BINARY), as a team sets them in its CI settings.
#   1. which jobs each pipeline source gets (push, merge request, schedule, "Run pipeline");
#   2. the manual promote-baselines job on the empty baselines folder: its baselines.diff, applied
#      and committed as the template tells a team to, becomes the project's baselines;
#   3. a push pipeline: build + fast tier pass against them, every declared artifact is there;
#   4. a merge request pipeline: the medium job runs the fast and medium tiers, the fast job not;
#   5. a planted regression (MLREGRESS_EXTRA_ARGS=--set ...) fails the fast job, and its JUnit,
#      report and run folder are still kept.
#   gitlab_template_runs.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR SOURCE_DIR}" && pwd)
source_dir=$(cd "${2:?usage: $0 BUILD_DIR SOURCE_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
# json FILE EXPRESSION: prints a Python expression over the JSON document d of FILE.
json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

tools=$("$here/install_ci_tools.sh" "$build")
gitlab_ci_local="$tools/node_modules/.bin/gitlab-ci-local"
version=$("$gitlab_ci_local" --version)
[[ "$version" == 4.60.* ]] || fail "gitlab-ci-local $version, not 4.60.x"

# mlregress installed where a team's CI image has it.
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }

# The team's project: its sources, an empty baselines folder, the template, a .gitignore for what
# builds and runs leave behind, all committed.
project="$work/project"
mkdir -p "$project/baselines"
cp "$source_dir/tests/package/consumer/CMakeLists.txt" "$source_dir/tests/package/consumer/linear_fit_test.cc" "$project/"
cp "$source_dir/ci/templates/gitlab-ci.yml" "$project/.gitlab-ci.yml"
touch "$project/baselines/.gitkeep"
printf '%s\n' /build/ /runs/ /.gitlab-ci-local/ /junit.xml /metrics.txt /summary.md /report.html /baselines.diff \
  >"$project/.gitignore"
git_in_project() { git -C "$project" -c user.name=ci-test -c user.email=ci-test@localhost "$@"; }
git_in_project init -q -b main
git_in_project add -A
git_in_project commit -q -m "A LibTorch project with mlregress tests"

state="$project/.gitlab-ci-local"
artifacts="$state/artifacts"

# pipeline LOG [JOB...] [OPTION...]: gitlab-ci-local in the project, as a team's CI runs the
# template: a shell runner, the template's variables pointed at this project; no JOB runs the
# whole pipeline. Output in $work/LOG.log. Each call starts from an empty state folder, so the
# job logs found there are this pipeline's. (Job names come first: --manual and --variable take
# every word up to the next option.)
pipeline() {
  local log=$1
  shift
  rm -rf "$state"
  (cd "$project" && "$gitlab_ci_local" "$@" --no-color --force-shell-executor --json-schema-validation \
     --home "$work/gitlab-ci-local-home" \
     --variable "MLREGRESS_PREFIX=$prefix" --variable "TEST_BINARY=build/consumer_tests") \
    >"$work/$log.log" 2>&1
}
show() { echo "----- $1 -----" >&2; cat "$work/$1.log" >&2; }
job_ran() { [ -f "$state/output/$1.log" ]; }

# 1. Rules, per pipeline source: job=when for each job that is not `never`; a manual job without
# allow_failure would hold the pipeline as "blocked" until someone starts it.
jobs_for() {
  (cd "$project" && "$gitlab_ci_local" --no-color --home "$work/gitlab-ci-local-home" --list-json \
     --variable "CI_PIPELINE_SOURCE=$1") >"$work/list-$1.json" 2>"$work/list-$1.err" \
    || { cat "$work/list-$1.err" >&2; fail "gitlab-ci-local --list-json for a $1 pipeline failed"; }
  # The JSON follows a warning gitlab-ci-local prints on stdout when CI_PIPELINE_SOURCE is set.
  python3 -c 'import json, sys
text = open(sys.argv[1]).read()
jobs = json.loads(text[text.index("[\n"):])
blocking = lambda j: "(blocks the pipeline)" if j["when"] == "manual" and not j["allow_failure"] else ""
print(" ".join(sorted(j["name"] + "=" + j["when"] + blocking(j) for j in jobs if j["when"] != "never")))' "$work/list-$1.json"
}
expect_jobs() {
  local source=$1 expected=$2 got
  got=$(jobs_for "$source")
  [ "$got" = "$expected" ] || fail "a $source pipeline gets jobs '$got', expected '$expected'"
}
expect_jobs push "build=on_success mlregress-fast=on_success promote-baselines=manual"
expect_jobs merge_request_event "build=on_success mlregress-full=manual mlregress-medium=on_success promote-baselines=manual"
expect_jobs schedule "build=on_success mlregress-full=on_success"
expect_jobs web "build=on_success mlregress-fast=on_success mlregress-full=manual promote-baselines=manual"
echo "ok   rules: push fast, merge request fast+medium, schedule every tier, full on demand, promote manual"

# 2. The first baselines, through the manual promote job. --needs brings the build job first.
pipeline promote promote-baselines --needs --manual promote-baselines --variable "PROMOTE_REASON=first baselines" \
  || { show promote; fail "the promote-baselines job failed"; }
{ job_ran build && job_ran promote-baselines; } || { show promote; fail "promote did not run build and promote-baselines"; }
diff_artifact="$artifacts/promote-baselines/baselines.diff"
[ -s "$diff_artifact" ] || { show promote; fail "promote-baselines kept no baselines.diff"; }
grep -q '^+++ b/baselines/consumer_tests/.*\.toml' "$diff_artifact" \
  || fail "baselines.diff adds no baselines/consumer_tests/*.toml: $(cat "$diff_artifact")"
grep -q '^+reason = "first baselines"' "$diff_artifact" || fail "baselines.diff does not carry PROMOTE_REASON"
grep -q '^+++ b/baselines/consumer_tests/' "$state/output/promote-baselines.log" \
  || fail "the promote-baselines log does not show the TOML diff for review"
ls "$artifacts/promote-baselines/baselines/consumer_tests/"*.toml >/dev/null 2>&1 \
  || fail "promote-baselines kept no baselines folder"
# What a reviewer does with it: the diff applied on a clean checkout, committed.
git_in_project reset -q
rm -rf "$project/baselines/consumer_tests"
git_in_project apply "$diff_artifact" || fail "baselines.diff does not apply to the branch"
git_in_project add baselines
git_in_project commit -q -m "Baselines of the consumer's tests"
[ -z "$(git_in_project status --porcelain --untracked-files=no)" ] || fail "the project is dirty after committing the baselines"
echo "ok   promote-baselines: TOML diff shown and kept, applied and committed"

# 3. A push pipeline against the committed baselines.
pipeline push || { show push; fail "the push pipeline failed against its own baselines"; }
{ job_ran build && job_ran mlregress-fast; } || { show push; fail "a push pipeline did not run build and mlregress-fast"; }
if job_ran mlregress-medium; then fail "a push pipeline ran mlregress-medium"; fi
fast="$artifacts/mlregress-fast"
for file in junit.xml metrics.txt summary.md report.html runs/latest/results.json runs/latest/junit.xml \
            runs/latest/report.html runs/latest/curves; do
  [ -e "$fast/$file" ] || { show push; fail "mlregress-fast did not keep $file"; }
done
run_id=$(json "$fast/runs/latest/results.json" 'd["run"]["id"]')
[ -d "$fast/runs/$run_id" ] || fail "the kept runs/latest does not lead to the run folder runs/$run_id"
[ "$(json "$fast/runs/latest/results.json" 'd["run"]["exit_status"]')" = passed ] || fail "the fast run did not pass"
json "$fast/runs/latest/results.json" '[m["verdict"] for t in d["tests"] for m in t["metrics"]]' | grep -q "'PASS'" \
  || fail "the fast run compared no metric with the committed baselines"
[ "$(json "$fast/runs/latest/environment.json" 'd["git"]["commit"]')" = "$(git_in_project rev-parse HEAD)" ] \
  || fail "the run did not record the project's commit (MLREGRESS_REPO)"
[ "$(json "$fast/runs/latest/environment.json" 'd["git"]["dirty"]')" = False ] || fail "the run recorded a dirty checkout"
grep -q '<testcase[^>]*name="[^"]*LinearFitConverges' "$fast/junit.xml" || fail "junit.xml has no LinearFitConverges testcase"
grep -q '^# EOF' "$fast/metrics.txt" || fail "metrics.txt is not OpenMetrics (no '# EOF'): $(head -5 "$fast/metrics.txt")"
grep -q 'LinearFitConverges' "$fast/metrics.txt" || fail "metrics.txt has no metric of LinearFitConverges"
grep -qi '<html' "$fast/report.html" || fail "report.html is not a page"
first_summary_line=$(grep -m1 . "$fast/summary.md")
grep -qF -- "$first_summary_line" "$state/output/mlregress-fast.log" || fail "the Markdown summary is not in the job log"
echo "ok   push pipeline: build + fast tier PASS against the baselines; junit.xml, metrics.txt, summary.md, report.html, run folder kept"

# 4. A merge request pipeline: the medium job, which gates on the fast and medium tiers.
pipeline merge-request --variable CI_PIPELINE_SOURCE=merge_request_event \
  || { show merge-request; fail "the merge request pipeline failed"; }
job_ran mlregress-medium || { show merge-request; fail "a merge request pipeline did not run mlregress-medium"; }
if job_ran mlregress-fast; then fail "a merge request pipeline ran mlregress-fast as well"; fi
medium="$artifacts/mlregress-medium"
[ "$(json "$medium/runs/latest/results.json" '",".join(d["run"]["tiers"])')" = fast,medium ] \
  || fail "mlregress-medium did not run the fast and medium tiers"
for file in junit.xml metrics.txt summary.md report.html; do
  [ -s "$medium/$file" ] || fail "mlregress-medium did not keep $file"
done
echo "ok   merge request pipeline: mlregress-medium runs fast+medium and passes, mlregress-fast does not run"

# 5. A planted regression: 5 training steps instead of 200, through the template's extra arguments.
status=0
pipeline regression mlregress-fast --variable "MLREGRESS_EXTRA_ARGS=--set LinearFitConverges.steps=5" || status=$?
[ "$status" -ne 0 ] || { show regression; fail "a planted regression did not fail the pipeline"; }
job_ran mlregress-fast || { show regression; fail "mlregress-fast did not run"; }
grep -q "REGRESSION" "$state/output/mlregress-fast.log" || { show regression; fail "the job log does not report the regression"; }
grep -Eq 'mlregress-fast +finished in .* FAIL 2\b' "$work/regression.log" \
  || { show regression; fail "mlregress-fast did not end with the run's exit code 2"; }
regressed="$artifacts/mlregress-fast"
[ -d "$regressed/runs" ] || { show regression; fail "the failed mlregress-fast kept no artifacts"; }
[ "$(json "$regressed/runs/latest/results.json" 'd["run"]["exit_code"]')" = 2 ] \
  || fail "the kept run folder does not record the regression (exit code 2)"
grep -q '<failure[^>]*REGRESSION' "$regressed/junit.xml" || fail "the kept junit.xml has no REGRESSION failure"
for file in report.html metrics.txt summary.md runs/latest/report.html; do
  [ -s "$regressed/$file" ] || fail "the failed job did not keep $file"
done
echo "ok   planted regression: mlregress-fast fails, junit.xml (REGRESSION), report.html, metrics.txt and the run folder kept"
