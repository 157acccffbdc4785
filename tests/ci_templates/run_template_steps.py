"""Runs the shell of ci/templates/github-actions.yml and ci/templates/Jenkinsfile as GitHub Actions
and Jenkins run it, with a real mlregress test binary in a git repository of its own, and checks
what a team relies on:
  - each trigger gets its tiers (push fast, pull request fast+medium, nightly every tier, on demand
    the chosen ones);
  - a planted regression fails the run step with exit code 2, as the shell the CI uses runs it;
  - the steps that publish (summary, JUnit, artifacts, HTML report) still run after it, and the
    paths they publish are files the run wrote;
  - the promote job or stage accepts the regression, promotes it and shows the TOML diff.
GitHub's `uses:` steps are not run: the files their inputs name must exist. The Jenkinsfile's
Groovy is not run: its stages and post section are read for their shell scripts and paths.
  run_template_steps.py SOURCE_DIR TEST_BINARY WORK_DIR
TEST_BINARY is a binary whose fast test `Passes` records `value` (param value, default 1.5,
lower is better): tests/fixture's mlregress_fixture_suite.
"""
import json
import os
import re
import sys

import yaml

from template_check_support import GIT, base_env, fail, ok, prepare, run_script

source_dir, test_binary, work = (os.path.abspath(argument) for argument in sys.argv[1:4])
templates = os.path.join(source_dir, "ci", "templates")
# Only the test that can be gated; --set plants a regression of it.
select = "--filter Passes"
planted = select + " --set Passes.value=3"


# The team's repository: one commit with the baselines of `Passes` at its default value.
origin = os.path.join(work, "origin")
os.makedirs(origin)
prepare(f"git init -q -b main && touch README && {GIT} add README && {GIT} commit -q -m start", origin)
env = {**base_env(), "MLREGRESS_REPO": origin}
prepare(f'"{test_binary}" run {select} --out first-runs --color never', origin, env)
prepare(f'mkdir baselines && "{test_binary}" promote first-runs/latest --baselines baselines --reason first', origin, env)
prepare(f"rm -rf first-runs && {GIT} add baselines && {GIT} commit -q -m baselines", origin)
checkouts = 0


def checkout():
    """A fresh clone, as each CI job starts from."""
    global checkouts
    checkouts += 1
    path = os.path.join(work, f"checkout-{checkouts}")
    prepare(f"git clone -q {origin} {path}", work)
    return path


# ---------------------------------------------------------------------------------------------
# GitHub Actions

SIMPLE_EXPRESSION = re.compile(r"[A-Za-z_][\w-]*(\.[\w-]+)*")


def evaluate(expression, context):
    """The expressions the workflow puts where values go: a context path, or `path || other`."""
    left, _, right = (part.strip() for part in expression.partition("||"))
    if not SIMPLE_EXPRESSION.fullmatch(left):
        raise ValueError(expression)
    value = context
    for key in left.split("."):
        value = value.get(key, "") if isinstance(value, dict) else ""
    # As GitHub prints values into text: booleans in lower case, null as nothing.
    value = str(value).lower() if isinstance(value, bool) else "" if value is None else str(value)
    if value or not right:
        return value
    return evaluate(right, context)


def substitute(text, context, where):
    def one(match):
        try:
            return evaluate(match.group(1), context)
        except ValueError:
            fail(f"{where}: this check cannot evaluate ${{{{ {match.group(1)} }}}}")
    return re.sub(r"\$\{\{\s*(.*?)\s*\}\}", one, str(text))


def substitute_inputs(step, context):
    """An action's inputs with their expressions evaluated; those that are not a context path
    (annotate_only's comparison) are left out: only paths are checked."""
    resolved = {}
    for key, value in (step.get("with") or {}).items():
        try:
            resolved[key] = re.sub(r"\$\{\{\s*(.*?)\s*\}\}", lambda m: evaluate(m.group(1), context), str(value))
        except ValueError:
            pass
    return resolved


def read_outputs(path):
    outputs, lines = {}, open(path).read().splitlines()
    while lines:
        line = lines.pop(0)
        if "<<" in line:  # name<<DELIMITER, value lines, DELIMITER
            name, delimiter = line.split("<<", 1)
            value = []
            while lines and lines[0] != delimiter:
                value.append(lines.pop(0))
            lines = lines[1:]
            outputs[name] = "\n".join(value)
        elif "=" in line:
            name, value = line.split("=", 1)
            outputs[name] = value
    return outputs


class JobRun:
    def __init__(self):
        self.failed = False
        # (name, step, outcome): a run step's exit code, "action" for a `uses:` step that would
        # run, "skipped" for a step the runner skips.
        self.steps = []
        self.summary = ""
        self.workspace = ""

    def first_failure(self):
        return next((name, step.get("log", "")) for name, step, outcome in self.steps
                    if outcome not in (0, "action", "skipped"))


def run_github_job(workflow, job_name, event, inputs, overrides):
    """The job's steps in order, as the runner takes them: `run:` steps through the job's shell,
    a step after a failure only when its `if:` says always() or !cancelled()."""
    job = workflow["jobs"][job_name]
    workspace = checkout()
    summary_file = os.path.join(work, f"summary-{checkouts}.md")
    open(summary_file, "w").close()
    context = {
        "github": {"event_name": event, "workspace": workspace, "run_id": "1", "run_attempt": "1",
                   "server_url": "https://github.com", "repository": "team/model", "event": {}},
        "inputs": inputs,
        "steps": {},
        "env": {},
    }
    shell = ((job.get("defaults") or workflow.get("defaults") or {}).get("run") or {}).get("shell")
    # GitHub's own command lines for its shells; without `shell:` a Linux runner uses bash -e.
    commands = {"bash": ["bash", "--noprofile", "--norc", "-eo", "pipefail"], "sh": ["sh", "-e"], None: ["bash", "-e"]}
    if shell not in commands:
        fail(f"github-actions.yml: this check does not know the shell '{shell}'")
    shell_argv = commands[shell]
    # The fixture's sources are in mlregress's tree, not in this checkout: MLREGRESS_REPO names
    # the checkout, whose git state a team's binary finds by itself.
    env = {**base_env(), "MLREGRESS_REPO": workspace}
    for scope in (workflow.get("env") or {}, job.get("env") or {}):
        env.update({key: substitute(value, context, f"env {key}") for key, value in scope.items()})
    env.update(overrides)  # what a team writes into the env block for its project
    context["env"] = dict(env)
    result = JobRun()
    result.workspace = workspace
    for index, step in enumerate(job["steps"]):
        name = step.get("name") or step.get("uses") or f"step {index}"
        condition = str(step.get("if", ""))
        if result.failed and "!cancelled()" not in condition and "always()" not in condition:
            result.steps.append((name, step, "skipped"))
            continue
        if "uses" in step:
            step["with_resolved"] = substitute_inputs(step, context)
            result.steps.append((name, step, "action"))
            continue
        step_env = dict(env)
        step_env.update({key: substitute(value, context, f"{name}: env {key}")
                         for key, value in (step.get("env") or {}).items()})
        output_file = os.path.join(work, "github-output")
        open(output_file, "w").close()
        step_env.update(GITHUB_OUTPUT=output_file, GITHUB_STEP_SUMMARY=summary_file,
                        GITHUB_WORKSPACE=workspace, GITHUB_EVENT_NAME=event, CI="true")
        script = substitute(step["run"], context, name)
        code, log = run_script(script, shell_argv, workspace, step_env)
        step["log"] = log
        if "id" in step:
            context["steps"][step["id"]] = {"outputs": read_outputs(output_file)}
        result.steps.append((name, step, code))
        if code != 0:
            result.failed = True
    result.summary = open(summary_file).read()
    return result


def check_github():
    path = os.path.join(templates, "github-actions.yml")
    workflow = yaml.safe_load(open(path))
    # PyYAML reads the key `on` as the boolean True (YAML 1.1); GitHub reads it as "on".
    triggers = workflow.get("on", workflow.get(True)) or {}
    for trigger in ("push", "pull_request", "schedule", "workflow_dispatch"):
        if trigger not in triggers:
            fail(f"github-actions.yml: no `{trigger}` trigger")
    if not any("cron" in entry for entry in triggers["schedule"]):
        fail("github-actions.yml: the schedule has no cron")
    overrides = {"TEST_BINARY": test_binary, "BUILD_COMMAND": "true", "MLREGRESS_PREFIX": "/nonexistent",
                 "MLREGRESS_EXTRA_ARGS": select}

    # Each trigger's tiers, read back from the run folder the job left.
    expected = [("push", {}, "fast"), ("pull_request", {}, "fast,medium"), ("schedule", {}, "fast,medium,full"),
                ("workflow_dispatch", {"tiers": "fast,medium", "extra_args": "", "promote": False}, "fast,medium")]
    for event, inputs, tiers in expected:
        job = run_github_job(workflow, "tests", event, inputs, overrides)
        if job.failed:
            failed = job.first_failure()
            fail(f"github-actions.yml: the tests job failed on a {event} event at '{failed[0]}':\n{failed[1]}")
        results = json.load(open(os.path.join(job.workspace, "runs", "latest", "results.json")))
        got = ",".join(results["run"]["tiers"])
        if got != tiers:
            fail(f"github-actions.yml: a {event} event ran the tiers {got}, expected {tiers}")
    ok("github-actions.yml: push fast, pull request fast+medium, schedule every tier, workflow_dispatch the chosen tiers")

    # A planted regression: the job fails with the run's exit code, and everything is published.
    job = run_github_job(workflow, "tests", "pull_request", {}, {**overrides, "MLREGRESS_EXTRA_ARGS": planted})
    run_steps = [(name, step, code) for name, step, code in job.steps
                 if "run" in step and re.search(r"\brun --tier\b", step["run"])]
    if len(run_steps) != 1:
        fail(f"github-actions.yml: expected one step that runs the tiers, found {len(run_steps)}")
    name, run_step, code = run_steps[0]
    if code != 2:
        fail(f"github-actions.yml: '{name}' exited {code} on a planted regression, not the run's 2:\n{run_step.get('log')}")
    if run_step.get("continue-on-error"):
        fail(f"github-actions.yml: '{name}' has continue-on-error: the job would pass on a regression")
    after = job.steps[[step for _, step, _ in job.steps].index(run_step) + 1:]
    skipped = [name for name, _, outcome in after if outcome == "skipped"]
    if skipped or not after:
        fail(f"github-actions.yml: after a failed run these steps would not run: {skipped or 'no step at all'}")
    for name, step, outcome in after:
        if outcome not in (0, "action"):
            fail(f"github-actions.yml: '{name}' failed after the planted regression:\n{step.get('log')}")
    if "REGRESSION" not in job.summary:
        fail(f"github-actions.yml: the job summary does not report the regression:\n{job.summary}")
    uses = {step["uses"].split("@")[0]: step for _, step, _ in after if "uses" in step}
    for action in ("mikepenz/action-junit-report", "actions/upload-artifact"):
        if action not in uses:
            fail(f"github-actions.yml: no {action} step after the run")
    for _, step, _ in after:
        if "uses" not in step:
            continue
        if not re.fullmatch(r"[\w.-]+/[\w.-]+@v\d+(\.\d+)*", step["uses"]):
            fail(f"github-actions.yml: {step['uses']} is not pinned to a version tag")
        for key in ("path", "report_paths"):
            for entry in str(step["with_resolved"].get(key, "")).split():
                if not os.path.exists(os.path.join(job.workspace, entry)):
                    fail(f"github-actions.yml: {step['uses']} {key} '{entry}' is not something the run wrote")
                if key == "path" and os.path.islink(os.path.join(job.workspace, entry)):
                    fail(f"github-actions.yml: {step['uses']} uploads the symlink '{entry}', not the run folder")
    junit = os.path.join(job.workspace, uses["mikepenz/action-junit-report"]["with_resolved"]["report_paths"])
    if "<failure" not in open(junit).read():
        fail("github-actions.yml: the JUnit file the reporter publishes has no failure for the regression")
    uploaded = " ".join(step["with_resolved"]["path"] for _, step, _ in after if step.get("uses", "").startswith("actions/upload-artifact"))
    if "report.html" not in uploaded or not any(os.path.isfile(os.path.join(job.workspace, entry, "results.json")) for entry in uploaded.split()):
        fail(f"github-actions.yml: the uploads ({uploaded}) are not the run folder and its report.html")
    ok("github-actions.yml: a planted regression fails the run step with exit 2; summary, JUnit, run folder and report.html are published")

    # Promotion on demand: the regression becomes the baseline, and the diff is shown.
    job = run_github_job(workflow, "promote-baselines", "workflow_dispatch",
                         {"tiers": "fast", "extra_args": "", "promote": True, "reason": "adopt value 3"},
                         {**overrides, "MLREGRESS_EXTRA_ARGS": planted})
    if job.failed:
        failed = job.first_failure()
        fail(f"github-actions.yml: promote-baselines failed at '{failed[0]}':\n{failed[1]}")
    if "```diff" not in job.summary or 'reason = "adopt value 3"' not in job.summary:
        fail(f"github-actions.yml: promote-baselines does not show the TOML diff in the summary:\n{job.summary}")
    for _, step, _ in job.steps:
        for entry in str((step.get("with_resolved") or {}).get("path", "")).split():
            if not os.path.exists(os.path.join(job.workspace, entry)):
                fail(f"github-actions.yml: promote-baselines uploads '{entry}', which it did not write")
    ok("github-actions.yml: promote-baselines promotes a regressed run and shows the TOML diff")


# ---------------------------------------------------------------------------------------------
# Jenkins


def groovy_blocks(text):
    """Checks that braces and parentheses pair up outside strings and comments; returns, for each
    `name(...)? {` opening, the block's text, keyed by the words before the brace."""
    blocks, stack, index, length = [], [], 0, len(text)
    code = []  # the text with strings and comments blanked, to find the structure in
    while index < length:
        if text.startswith("//", index):
            end = text.find("\n", index)
            end = length if end < 0 else end
            code.append(" " * (end - index))
            index = end
        elif text.startswith("'''", index) or text.startswith('"""', index):
            end = text.find(text[index:index + 3], index + 3)
            if end < 0:
                fail("Jenkinsfile: a triple-quoted string is not closed")
            code.append(re.sub(r"[^\n]", " ", text[index:end + 3]))
            index = end + 3
        elif text[index] in "'\"":
            end = index + 1
            while end < length and text[end] != text[index]:
                end += 2 if text[end] == "\\" else 1
            code.append(" " * (end + 1 - index))
            index = end + 1
        else:
            code.append(text[index])
            index += 1
    code = "".join(code)
    pairs = {")": "(", "}": "{"}
    for position, char in enumerate(code):
        if char in "({":
            stack.append((char, position))
        elif char in ")}":
            if not stack or stack[-1][0] != pairs[char]:
                fail(f"Jenkinsfile: unmatched '{char}' at line {code.count(chr(10), 0, position) + 1}")
            opening, start = stack.pop()
            if char == "}":
                head = text[max(0, code.rfind("\n", 0, start)):start].strip()
                blocks.append((head, text[start + 1:position]))
    if stack:
        fail(f"Jenkinsfile: '{stack[-1][0]}' at line {code.count(chr(10), 0, stack[-1][1]) + 1} is not closed")
    return blocks


def groovy_string(text):
    """A ''' string's content as the shell gets it: a backslash before a newline joins the lines."""
    return text.replace("\\\n", "")


def check_jenkins():
    text = open(os.path.join(templates, "Jenkinsfile")).read()
    blocks = groovy_blocks(text)

    def block(head, containing=""):
        found = [body for block_head, body in blocks if block_head == head and containing in body]
        if len(found) != 1:
            fail(f"Jenkinsfile: expected one block `{head} {{` containing '{containing}', found {len(found)}")
        return found[0]

    if not re.search(r"triggers\s*\{\s*cron\(", text):
        fail("Jenkinsfile: no cron trigger")
    run_tiers = re.search(r"def RUN_TIERS = '''(.*?)'''", text, re.S)
    if not run_tiers:
        fail("Jenkinsfile: no RUN_TIERS script")
    run_tiers = groovy_string(run_tiers.group(1))
    stages = {"Fast tier": ("fast", None), "Medium tier": ("fast,medium", "changeRequest()"),
              "Full tier": ("fast,medium,full", "triggeredBy 'TimerTrigger'")}
    for stage, (tiers, condition) in stages.items():
        body = block(f"stage('{stage}')")
        if f"TIERS = '{tiers}'" not in body:
            fail(f"Jenkinsfile: stage '{stage}' does not run the tiers {tiers}")
        if condition and not re.search(r"when\s*\{[^}]*" + re.escape(condition), body, re.S):
            fail(f"Jenkinsfile: stage '{stage}' is not conditioned on {condition}")
        if not re.search(r"\bsh\b[^\n]*script: RUN_TIERS", body) or "returnStatus" in body:
            fail(f"Jenkinsfile: stage '{stage}' does not fail with RUN_TIERS's exit code")
    ok("Jenkinsfile: branch builds fast, pull requests (changeRequest) fast+medium, the cron build (TimerTrigger) every tier")
    post = block("always")
    for step in ("junit", "archiveArtifacts", "publishHTML"):
        if not re.search(rf"\b{step}\b", post):
            fail(f"Jenkinsfile: post {{ always {{ }} }} does not call {step}")

    environment = block("environment", "TEST_BINARY")  # the pipeline's, not a stage's TIERS
    env = base_env()
    env.update(dict(re.findall(r"^\s*(\w+) = '([^']*)'", environment, re.M)))
    workspace = checkout()
    # MLREGRESS_REPO: as for GitHub above.
    env.update(TEST_BINARY=test_binary, MLREGRESS_PREFIX="/nonexistent", MLREGRESS_EXTRA_ARGS=planted,
               MLREGRESS_REPO=workspace, EXTRA_ARGS="", TIERS="fast,medium", BUILD_URL="https://jenkins/job/1/")
    # Jenkins runs an sh step as `sh -xe SCRIPT`.
    code, log = run_script(run_tiers, ["sh", "-xe"], workspace, env)
    if code != 2:
        fail(f"Jenkinsfile: RUN_TIERS exited {code} on a planted regression, not the run's 2:\n{log}")
    report = re.search(r"label: 'mlregress report'.*?'''(.*?)'''", post, re.S)
    if not report:
        fail("Jenkinsfile: post has no 'mlregress report' sh step")
    code, log = run_script(groovy_string(report.group(1)), ["sh", "-xe"], workspace, env)
    if code != 0:
        fail(f"Jenkinsfile: the post report step failed:\n{log}")
    junit = re.search(r"junit testResults: '([^']+)'", post)
    html = re.search(r"reportDir: '([^']+)',\s*reportFiles: '([^']+)'", post)
    archived = re.search(r"archiveArtifacts artifacts: '([^']+)'", post)
    if not (junit and html and archived):
        fail("Jenkinsfile: cannot read the paths of junit, publishHTML and archiveArtifacts")
    paths = [junit.group(1), os.path.join(html.group(1), html.group(2)), "runs/latest/results.json"]
    paths += [pattern.strip().replace("/**", "") for pattern in archived.group(1).split(",")]
    for path in paths:
        if not os.path.exists(os.path.join(workspace, path)):
            fail(f"Jenkinsfile: post publishes '{path}', which the run did not write")
    if "<failure" not in open(os.path.join(workspace, junit.group(1))).read():
        fail("Jenkinsfile: the JUnit file published has no failure for the regression")
    if "REGRESSION" not in open(os.path.join(workspace, "summary.md")).read():
        fail("Jenkinsfile: the Markdown summary does not report the regression")
    ok("Jenkinsfile: a planted regression fails RUN_TIERS with exit 2; junit, report.html, summary and run folder are there to publish")

    promote = re.search(r"label: 'mlregress promote', script: '''(.*?)'''", block("stage('Promote baselines')"), re.S)
    if not promote:
        fail("Jenkinsfile: the promote stage has no 'mlregress promote' sh step")
    workspace = checkout()
    env.update(MLREGRESS_REPO=workspace, PROMOTE_REASON="adopt value 3", TIERS="fast")
    code, log = run_script(groovy_string(promote.group(1)), ["sh", "-xe"], workspace, env)
    if code != 0:
        fail(f"Jenkinsfile: the promote stage failed on a regressed run:\n{log}")
    if 'reason = "adopt value 3"' not in log or not os.path.getsize(os.path.join(workspace, "baselines.diff")):
        fail(f"Jenkinsfile: the promote stage does not show the TOML diff:\n{log}")
    ok("Jenkinsfile: the promote stage promotes a regressed run and shows the TOML diff")


check_github()
check_jenkins()
