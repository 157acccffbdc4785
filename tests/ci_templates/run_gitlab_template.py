"""Runs the pipelines of a project's .gitlab-ci.yml (ci/templates/gitlab-ci.yml, copied in
unchanged) with gitlab_pipeline.py's GitLab and shell runner, and checks what a team relies on:
  1. which jobs each pipeline source gets (push, merge request, schedule, "Run pipeline"), and no
     branch pipeline beside the merge request pipeline;
  2. the manual promote-baselines job on the empty baselines folder: its baselines.diff, applied
     and committed as the template tells a team to, becomes the project's baselines;
  3. a push pipeline: build + fast tier pass against them, every declared artifact is there;
  4. a merge request pipeline: the medium job runs the fast and medium tiers, the fast job not;
  5. a planted regression (MLREGRESS_EXTRA_ARGS=--set ... as a push option) fails the fast job with
     the run's exit code 2, and its JUnit, report and run folder are still kept.
  run_gitlab_template.py PROJECT PREFIX TORCH_PREFIX WORK_DIR
PROJECT: a committed git repository with the template as .gitlab-ci.yml, an empty baselines
folder and tests/package's consumer (its test binary build/consumer_tests); PREFIX: where
mlregress is installed; TORCH_PREFIX: the LibTorch it was built against.
"""
import json
import os
import shlex
import sys
import xml.etree.ElementTree as ElementTree

from gitlab_pipeline import GitLab
from template_check_support import GIT, fail, ok, prepare

project, prefix, torch_prefix, work = (os.path.abspath(argument) for argument in sys.argv[1:5])
gitlab = GitLab(os.path.join(project, ".gitlab-ci.yml"), project, os.path.join(work, "gitlab"), {
    # What a team sets in its project's CI/CD settings.
    "MLREGRESS_PREFIX": prefix,
    "LIBTORCH_PREFIX": torch_prefix,
    "TEST_BINARY": "build/consumer_tests",
    # A runner that keeps each job's work tree between pipelines, uncleaned: the setup the
    # template's first tier command prepares for. build/ stays incremental (one consumer build for
    # all pipelines), and the outputs of a job's previous run are still there when it runs again.
    "GIT_CLONE_PATH": "$CI_BUILDS_DIR/$CI_JOB_NAME",
    "GIT_CLEAN_FLAGS": "none",
})


def failed_in(pipeline, message):
    fail(f"{message}\n{pipeline.logs()}")


def kept(job, path):
    return os.path.join(job.artifacts, path)


def json_of(job, path):
    return json.load(open(kept(job, path)))


def junit_testcases(path):
    root = ElementTree.parse(path).getroot()
    if root.tag not in ("testsuites", "testsuite"):
        fail(f"{path} is not JUnit: its root is <{root.tag}>")
    return list(root.iter("testcase"))


def check_artifacts_kept(pipeline, job):
    """Every artifacts:paths and reports entry matched a file, each report is readable, and a
    symlink kept (runs/latest) leads to something kept, not into the job's work tree."""
    if job.artifacts is None:
        failed_in(pipeline, f"{job.name} kept no artifacts")
    if job.missing_artifacts:
        failed_in(pipeline, f"{job.name}: these artifact paths matched nothing: {job.missing_artifacts}")
    for path in job.reports.get("junit", []):
        junit_testcases(kept(job, path))
    inside = os.path.realpath(job.artifacts) + os.sep
    for folder, subfolders, files in os.walk(job.artifacts):
        for name in files + subfolders:
            link = os.path.join(folder, name)
            if os.path.islink(link) and not os.path.realpath(link).startswith(inside):
                fail(f"{job.name} keeps the symlink {os.path.relpath(link, job.artifacts)}, which leads out of its artifacts")


# 1. Rules, per pipeline source: job=when for each job in the pipeline; a manual job without
# allow_failure would hold the pipeline as "blocked" until someone starts it.
def jobs_text(source, open_merge_request=False):
    planned = gitlab.jobs_for(source, open_merge_request)
    if planned is None:
        return "no pipeline"
    blocking = lambda job: " (blocks the pipeline)" if job.when == "manual" and not job.allow_failure else ""
    return " ".join(sorted(f"{job.name}={job.when}{blocking(job)}" for job in planned.values()))


expected_jobs = [
    ("push", False, "build=on_success mlregress-fast=on_success promote-baselines=manual"),
    ("push", True, "no pipeline"),
    ("merge_request_event", False, "build=on_success mlregress-full=manual mlregress-medium=on_success promote-baselines=manual"),
    ("schedule", False, "build=on_success mlregress-full=on_success"),
    ("web", False, "build=on_success mlregress-fast=on_success mlregress-full=manual promote-baselines=manual"),
]
for source, open_merge_request, expected in expected_jobs:
    got = jobs_text(source, open_merge_request)
    if got != expected:
        what = f"a {source} pipeline" + (" of a branch with an open merge request" if open_merge_request else "")
        fail(f"{what} gets '{got}', expected '{expected}'")
ok("rules: push fast, merge request fast+medium (and no branch pipeline beside it), schedule every tier, "
   "full on demand, promote manual")

# 2. The first baselines, through the manual promote job, started with its reason.
promote = gitlab.run_pipeline("promote", "push", {"PROMOTE_REASON": "first baselines"},
                              jobs=["promote-baselines"], start_manual=["promote-baselines"])
# The pipeline's status would not do: promote-baselines may fail without failing the pipeline.
if [(job.name, job.status) for job in promote.jobs.values()] != [("build", "success"), ("promote-baselines", "success")]:
    failed_in(promote, "the promote-baselines job did not run after build and pass")
promote_job = promote.jobs["promote-baselines"]
check_artifacts_kept(promote, promote_job)
diff_artifact = kept(promote_job, "baselines.diff")
diff = open(diff_artifact).read()
if not any(line.startswith("+++ b/baselines/consumer_tests/") and line.endswith(".toml") for line in diff.splitlines()):
    failed_in(promote, f"baselines.diff adds no baselines/consumer_tests/*.toml:\n{diff}")
if '+reason = "first baselines"' not in diff.splitlines():
    fail(f"baselines.diff does not carry PROMOTE_REASON:\n{diff}")
if "+++ b/baselines/consumer_tests/" not in promote_job.log:
    failed_in(promote, "the promote-baselines log does not show the TOML diff for review")
if not any(name.endswith(".toml") for name in os.listdir(kept(promote_job, "baselines/consumer_tests"))):
    fail("promote-baselines kept no baselines folder")
# What a reviewer does with it: the diff applied on the branch, committed.
prepare(f"git apply {shlex.quote(diff_artifact)} && {GIT} add baselines && {GIT} commit -q -m 'Baselines of the consumer tests'", project)
if prepare("git status --porcelain", project):
    fail("the project is dirty after committing the baselines")
ok("promote-baselines: TOML diff shown and kept, applied and committed")

# 3. A push pipeline against the committed baselines.
push = gitlab.run_pipeline("push", "push")
if push.status() != "success":
    failed_in(push, "the push pipeline failed against its own baselines")
if [job.name for job in push.jobs.values() if job.ran()] != ["build", "mlregress-fast"]:
    failed_in(push, "a push pipeline did not run build and then mlregress-fast alone")
fast = push.jobs["mlregress-fast"]
check_artifacts_kept(push, fast)
for path in ("junit.xml", "metrics.txt", "summary.md", "report.html", "runs/latest/results.json",
             "runs/latest/junit.xml", "runs/latest/report.html", "runs/latest/curves"):
    if not os.path.exists(kept(fast, path)):
        failed_in(push, f"mlregress-fast did not keep {path}")
results = json_of(fast, "runs/latest/results.json")
if not os.path.isdir(kept(fast, f"runs/{results['run']['id']}")):
    fail(f"the kept runs/latest does not lead to the run folder runs/{results['run']['id']}")
if results["run"]["exit_status"] != "passed":
    fail(f"the fast run did not pass: {results['run']['exit_status']}")
if "PASS" not in [metric["verdict"] for test in results["tests"] for metric in test["metrics"]]:
    fail("the fast run compared no metric with the committed baselines")
environment = json_of(fast, "runs/latest/environment.json")
if environment["git"]["commit"] != push.commit:
    fail(f"the run recorded the commit {environment['git']['commit']}, not the pipeline's {push.commit} (MLREGRESS_REPO)")
if environment["git"]["dirty"] is not False:
    fail("the run recorded a dirty checkout")
if not any("LinearFitConverges" in case.get("name", "") for case in junit_testcases(kept(fast, "junit.xml"))):
    fail("junit.xml has no LinearFitConverges testcase")
if fast.reports != {"junit": ["junit.xml"], "metrics": ["metrics.txt"]}:
    fail(f"mlregress-fast's reports for the merge request widgets are {fast.reports}")
metrics = open(kept(fast, "metrics.txt")).read()
if "# EOF" not in metrics.splitlines() or "LinearFitConverges" not in metrics:
    fail(f"metrics.txt is not OpenMetrics of LinearFitConverges:\n{metrics[:500]}")
if "<html" not in open(kept(fast, "report.html")).read().lower():
    fail("report.html is not a page")
summary_first_line = next(line for line in open(kept(fast, "summary.md")).read().splitlines() if line.strip())
if summary_first_line not in fast.log:
    failed_in(push, "the Markdown summary is not in the job log")
ok("push pipeline: build + fast tier PASS against the baselines; junit.xml, metrics.txt, summary.md, report.html, run folder kept")

# 4. A merge request pipeline: the medium job, which gates on the fast and medium tiers.
merge_request = gitlab.run_pipeline("merge-request", "merge_request_event")
if merge_request.status() != "success":
    failed_in(merge_request, "the merge request pipeline failed")
if [job.name for job in merge_request.jobs.values() if job.ran()] != ["build", "mlregress-medium"]:
    failed_in(merge_request, "a merge request pipeline did not run build and then mlregress-medium alone")
medium = merge_request.jobs["mlregress-medium"]
check_artifacts_kept(merge_request, medium)
tiers = ",".join(json_of(medium, "runs/latest/results.json")["run"]["tiers"])
if tiers != "fast,medium":
    fail(f"mlregress-medium ran the tiers {tiers}, not fast,medium")
for path in ("junit.xml", "metrics.txt", "summary.md", "report.html"):
    if not os.path.getsize(kept(medium, path)):
        fail(f"mlregress-medium kept an empty {path}")
ok("merge request pipeline: mlregress-medium runs fast+medium and passes, mlregress-fast does not run")

# 5. A planted regression: 5 training steps instead of 200, pushed with
# `git push -o ci.variable="MLREGRESS_EXTRA_ARGS=..."`. mlregress-fast ran before in this work
# tree: what it keeps now must be this run's.
regression = gitlab.run_pipeline("regression", "push", {"MLREGRESS_EXTRA_ARGS": "--set LinearFitConverges.steps=5"})
regressed = regression.jobs.get("mlregress-fast")
if regression.status() != "failed" or regressed is None or not regressed.ran():
    failed_in(regression, "a planted regression did not fail the pipeline in mlregress-fast")
if regressed.exit_code != 2:
    failed_in(regression, f"mlregress-fast ended with exit code {regressed.exit_code}, not the run's 2 (a regression)")
if "REGRESSION" not in regressed.log:
    failed_in(regression, "the job log does not report the regression")
check_artifacts_kept(regression, regressed)
if json_of(regressed, "runs/latest/results.json")["run"]["exit_code"] != 2:
    fail("the kept run folder does not record the regression (exit code 2)")
failures = [failure for case in junit_testcases(kept(regressed, "junit.xml")) for failure in case.iter("failure")]
if not any("REGRESSION" in (failure.get("message", "") + (failure.text or "")) for failure in failures):
    fail("the kept junit.xml has no REGRESSION failure")
for path in ("report.html", "metrics.txt", "summary.md", "runs/latest/report.html"):
    if not os.path.getsize(kept(regressed, path)):
        fail(f"the failed job kept an empty {path}")
ok("planted regression: mlregress-fast fails with exit code 2; junit.xml (REGRESSION), report.html, metrics.txt and the run folder kept")
