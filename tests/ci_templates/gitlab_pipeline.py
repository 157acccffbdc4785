"""A small GitLab for checking ci/templates/gitlab-ci.yml without one: it reads a .gitlab-ci.yml,
decides which jobs a pipeline gets (workflow:rules, rules:if) and runs them in stage and `needs`
order the way a GitLab Runner with the shell executor and bash runs them.

Only what the template uses is implemented. Any other keyword, rule clause or `if:` operator stops
the check with a message instead of being ignored: a check that skipped `cache:`, `only:` or a
`=~` would pass a template that GitLab runs differently.

What is followed from GitLab and its Runner:
  - rules: the first rule whose `if:` holds (or that has none) decides `when` (on_success unless
    it says otherwise) and allow_failure (false unless it says otherwise); no rule holds: the job is
    not in the pipeline. workflow:rules decide the same way whether there is a pipeline at all.
  - variables: predefined < top-level `variables:` < job `variables:` < project settings <
    pipeline variables (push options, the "Run pipeline" form, a manual job's form). `$VAR` and
    `${VAR}` in values are expanded once, an undefined one to nothing; `$$` is a `$`.
  - before_script and script are one bash script under `set -eo pipefail`: the first failing
    command ends it, shell variables carry from one line to the next, and its exit code is the
    job's. after_script is a new bash, run also after a failure, with CI_JOB_STATUS set; its exit
    code does not change the job's status.
  - the work tree is GIT_CLONE_PATH (default $CI_BUILDS_DIR/project), cloned or fetched, checked
    out at the pipeline's commit and cleaned with `git clean GIT_CLEAN_FLAGS` (default -ffdx,
    `none` keeps everything).
  - before a job, the artifacts of the jobs it `needs` (without `needs`, of every job of the
    earlier stages) are extracted into its work tree; after it, artifacts:paths and
    artifacts:reports are kept when artifacts:when (default on_success) says so, symlinks as
    symlinks.
"""
import glob
import os
import re
import shlex
import shutil

import yaml

from template_check_support import base_env, fail, prepare, run_script

TOP_LEVEL_KEYWORDS = {"variables", "workflow", "stages", "default"}
# Keywords whose effect this file implements.
JOB_KEYWORDS = {"stage", "needs", "rules", "variables", "before_script", "script", "after_script",
                "artifacts", "extends", "allow_failure", "when", "timeout"}
# Keywords that choose where a job runs or whether a newer pipeline cancels it: they change
# nothing in what a shell executor does with the scripts.
JOB_KEYWORDS_WITHOUT_EFFECT_HERE = {"interruptible", "image", "tags"}
DEFAULT_KEYWORDS = {"before_script", "after_script", "artifacts", "timeout"} | JOB_KEYWORDS_WITHOUT_EFFECT_HERE
ARTIFACTS_KEYWORDS = {"paths", "reports", "when", "expire_in", "name", "expose_as"}
# Report types that are files for GitLab's widgets; `dotenv` and the like change later jobs'
# variables and are not implemented.
REPORT_TYPES = {"junit", "metrics"}
WHEN_FOR_JOBS = {"on_success", "manual", "always", "on_failure", "never"}
# The Runner starts a login bash; the profile it reads is the runner machine's, left out here so
# that the jobs see only the pipeline's variables.
BASH = ["bash", "--noprofile", "--norc"]


def template_error(message):
    fail(f"gitlab-ci.yml: {message}")


# ---------------------------------------------------------------------------------------------
# Variables and `if:` expressions


def expand(value, variables):
    """$VAR, ${VAR} and $$ in VALUE, as GitLab expands variables inside variables and paths."""
    def one(match):
        if match.group(0) == "$$":
            return "$"
        return variables.get(match.group(1) or match.group(2), "")
    return re.sub(r"\$\$|\$\{(\w+)\}|\$(\w+)", one, str(value))


def variable_values(block, where):
    """A `variables:` block as name -> text; the long form keeps its `value`."""
    values = {}
    for name, value in (block or {}).items():
        if isinstance(value, dict):
            unknown = set(value) - {"value", "description", "options"}
            if unknown:
                template_error(f"{where}: variable {name} uses {sorted(unknown)}, which this check does not implement")
            value = value.get("value", "")
        values[name] = "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
    return values


EXPRESSION_TOKEN = re.compile(
    r"\s*(?:\$\{(?P<braced>\w+)\}|\$(?P<variable>\w+)|\"(?P<double>[^\"]*)\"|'(?P<single>[^']*)'"
    r"|(?P<operator>==|!=|&&|\|\||\(|\))|(?P<null>null)\b|(?P<other>\S+))")


def condition_holds(expression, variables, where):
    """A rules:if expression: variables, quoted strings and null, compared with == and !=, a lone
    variable meaning "defined and not empty", joined by && (binding first) and ||, in parentheses."""
    tokens = []
    for match in EXPRESSION_TOKEN.finditer(expression):
        if match.group("other"):
            template_error(f"{where}: this check does not understand '{match.group('other')}' in `if: {expression}`")
        if match.group("braced") or match.group("variable"):
            tokens.append(("value", variables.get(match.group("braced") or match.group("variable"))))
        elif match.group("double") is not None or match.group("single") is not None:
            tokens.append(("value", match.group("double") if match.group("double") is not None else match.group("single")))
        elif match.group("null"):
            tokens.append(("value", None))
        elif match.group("operator"):
            tokens.append(("operator", match.group("operator")))

    position = 0

    def peek():
        return tokens[position] if position < len(tokens) else ("end", None)

    def take(kind, text=None):
        nonlocal position
        token = peek()
        if token[0] != kind or (text is not None and token[1] != text):
            template_error(f"{where}: cannot read `if: {expression}`")
        position += 1
        return token[1]

    def either():
        result = both()
        while peek() == ("operator", "||"):
            take("operator", "||")
            result = both() or result
        return result

    def both():
        result = comparison()
        while peek() == ("operator", "&&"):
            take("operator", "&&")
            result = comparison() and result
        return result

    def comparison():
        if peek() == ("operator", "("):
            take("operator", "(")
            result = either()
            take("operator", ")")
            return result
        left = take("value")
        if peek() in (("operator", "=="), ("operator", "!=")):
            equal = take("operator") == "=="
            return (left == take("value")) == equal
        return bool(left)

    result = either()
    if position != len(tokens):
        template_error(f"{where}: cannot read `if: {expression}`")
    return result


def first_matching_rule(rules, variables, allowed_keys, where):
    for rule in rules:
        unknown = set(rule) - allowed_keys
        if unknown:
            template_error(f"{where}: a rule uses {sorted(unknown)}, which this check does not implement")
        if "if" not in rule or condition_holds(str(rule["if"]), variables, where):
            return rule
    return None


def duration_seconds(text, where):
    """A job timeout: "30 minutes", "1 hour", "1h 30m"."""
    units = {"h": 3600, "hour": 3600, "hours": 3600, "m": 60, "min": 60, "minute": 60, "minutes": 60,
             "s": 1, "sec": 1, "second": 1, "seconds": 1}
    parts = re.findall(r"(\d+)\s*([a-z]+)", str(text))
    if not parts or re.sub(r"(\d+)\s*([a-z]+)|\s", "", str(text)) or any(unit not in units for _, unit in parts):
        template_error(f"{where}: this check cannot read the timeout '{text}'")
    return sum(int(number) * units[unit] for number, unit in parts)


# ---------------------------------------------------------------------------------------------
# The template


def merged(base, override):
    """`extends` and `default:` as GitLab merges them: hashes key by key, anything else replaced."""
    result = dict(base)
    for key, value in override.items():
        result[key] = merged(result[key], value) if isinstance(value, dict) and isinstance(result.get(key), dict) else value
    return result


def as_list(value):
    return value if isinstance(value, list) else [value]


def script_lines(value, where):
    """A script keyword's commands; nested lists are flattened as GitLab does."""
    lines = []
    for entry in as_list(value or []):
        if isinstance(entry, list):
            lines += script_lines(entry, where)
        elif isinstance(entry, str):
            lines.append(entry)
        else:
            template_error(f"{where}: the script entry {entry!r} is not a string")
    return lines


class Template:
    def __init__(self, path):
        document = yaml.safe_load(open(path))
        definitions = {name: body for name, body in document.items() if name not in TOP_LEVEL_KEYWORDS}
        for name, body in definitions.items():
            if not isinstance(body, dict):
                template_error(f"top-level `{name}` is a keyword this check does not implement")
        self.variables = variable_values(document.get("variables"), "variables")
        workflow = document.get("workflow") or {}
        if set(workflow) - {"rules"}:
            template_error(f"workflow uses {sorted(set(workflow) - {'rules'})}, which this check does not implement")
        self.workflow_rules = workflow.get("rules")
        self.stages = [".pre"] + list(document.get("stages") or ["build", "test", "deploy"]) + [".post"]
        default = document.get("default") or {}
        if set(default) - DEFAULT_KEYWORDS:
            template_error(f"default uses {sorted(set(default) - DEFAULT_KEYWORDS)}, which this check does not implement")
        # name -> definition with extends and default applied, in the template's order.
        self.jobs = {}
        for name in definitions:
            if not name.startswith("."):
                job = merged(default, self.extended(name, definitions, ()))
                self.check_job(name, job)
                self.jobs[name] = job
        for name, job in self.jobs.items():
            for needed in self.needs(name) or {}:
                if needed not in self.jobs:
                    template_error(f"{name} needs {needed}, which is no job")
                if self.stages.index(self.jobs[needed]["stage"]) > self.stages.index(job["stage"]):
                    template_error(f"{name} needs {needed}, which is in a later stage")

    def extended(self, name, definitions, chain):
        job = definitions[name]
        base = {}
        for parent in as_list(job.get("extends", [])):
            if parent not in definitions:
                template_error(f"{name} extends {parent}, which is not defined")
            if parent in chain:
                template_error(f"{name} extends itself through {' -> '.join(chain)}")
            base = merged(base, self.extended(parent, definitions, chain + (name,)))
        return merged(base, {key: value for key, value in job.items() if key != "extends"})

    def check_job(self, name, job):
        unknown = set(job) - JOB_KEYWORDS - JOB_KEYWORDS_WITHOUT_EFFECT_HERE
        if unknown:
            template_error(f"job {name} uses {sorted(unknown)}, which this check does not implement")
        if "script" not in job:
            template_error(f"job {name} has no script")
        job.setdefault("stage", "test")
        if job["stage"] not in self.stages:
            template_error(f"job {name} is in stage {job['stage']}, which `stages` does not list")
        if "rules" in job and "when" in job:
            template_error(f"job {name} has both `rules` and `when`, which GitLab refuses")
        artifacts = job.get("artifacts") or {}
        unknown = set(artifacts) - ARTIFACTS_KEYWORDS
        if unknown:
            template_error(f"job {name}: artifacts use {sorted(unknown)}, which this check does not implement")
        unknown = set(artifacts.get("reports") or {}) - REPORT_TYPES
        if unknown:
            template_error(f"job {name}: reports {sorted(unknown)} are not implemented by this check")
        if artifacts.get("when", "on_success") not in ("on_success", "on_failure", "always"):
            template_error(f"job {name}: artifacts:when {artifacts['when']} is not one GitLab has")
        for needed in as_list(job.get("needs", [])):
            unknown = set(needed) - {"job", "artifacts"} if isinstance(needed, dict) else set()
            if unknown:
                template_error(f"job {name}: needs uses {sorted(unknown)}, which this check does not implement")

    def needs(self, name):
        """The jobs NAME needs, as (job, with its artifacts); None without `needs:`."""
        if "needs" not in self.jobs[name]:
            return None
        return {(entry["job"] if isinstance(entry, dict) else entry):
                (entry.get("artifacts", True) if isinstance(entry, dict) else True)
                for entry in as_list(self.jobs[name]["needs"])}


# ---------------------------------------------------------------------------------------------
# Pipelines


class PlannedJob:
    def __init__(self, name, when, allow_failure):
        self.name, self.when, self.allow_failure = name, when, allow_failure


class JobRun:
    def __init__(self, name, allow_failure):
        self.name = name
        self.allow_failure = allow_failure
        # success, failed, skipped (an earlier job failed), manual (nobody started it)
        self.status = "skipped"
        self.exit_code = None  # the script's; None when it did not run or ran past its timeout
        self.log = ""
        self.artifacts = None  # the folder of its kept artifacts; None when none were kept
        self.missing_artifacts = []  # artifacts:paths and report paths that matched no file
        self.reports = {}  # report type -> kept files, relative to the artifacts folder

    def ran(self):
        return self.status in ("success", "failed")


class Pipeline:
    def __init__(self, name, commit):
        self.name = name
        self.commit = commit
        self.jobs = {}  # name -> JobRun, in the order they ran

    def status(self):
        return "failed" if any(run.status == "failed" and not run.allow_failure for run in self.jobs.values()) else "success"

    def logs(self):
        return "\n".join(f"----- {name}: {run.status} -----\n{run.log}" for name, run in self.jobs.items())


class GitLab:
    """A GitLab project with one shell runner: PROJECT is its repository, PROJECT_VARIABLES what
    its CI/CD settings define; everything the runner writes goes under WORK."""

    def __init__(self, template_path, project, work, project_variables):
        self.template = Template(template_path)
        self.project = project
        self.work = work
        self.project_variables = dict(project_variables)
        self.builds_dir = os.path.join(work, "builds")
        self.pipelines = 0

    def predefined_variables(self, source, commit, pipeline_id, open_merge_request=False):
        variables = {
            "CI": "true", "GITLAB_CI": "true", "CI_SERVER_URL": "https://gitlab.example.com",
            "CI_PROJECT_PATH": "team/model", "CI_PROJECT_NAME": "model", "CI_DEFAULT_BRANCH": "main",
            "CI_PIPELINE_SOURCE": source, "CI_PIPELINE_ID": str(pipeline_id),
            "CI_PIPELINE_URL": f"https://gitlab.example.com/team/model/-/pipelines/{pipeline_id}",
            "CI_COMMIT_SHA": commit, "CI_COMMIT_SHORT_SHA": commit[:8], "CI_BUILDS_DIR": self.builds_dir,
        }
        if source == "merge_request_event":
            # A merge request pipeline has no CI_COMMIT_BRANCH, only the merge request's variables.
            variables.update(CI_COMMIT_REF_NAME="feature", CI_MERGE_REQUEST_IID="1",
                             CI_MERGE_REQUEST_SOURCE_BRANCH_NAME="feature", CI_MERGE_REQUEST_TARGET_BRANCH_NAME="main")
        else:
            branch = "feature" if open_merge_request else "main"
            variables.update(CI_COMMIT_BRANCH=branch, CI_COMMIT_REF_NAME=branch)
            if open_merge_request:
                variables["CI_OPEN_MERGE_REQUESTS"] = "team/model!1"
        return variables

    def variables_for(self, predefined, job_name, pipeline_variables):
        """A job's variables by GitLab's precedence, expanded once."""
        raw = {**predefined, **self.template.variables}
        if job_name is not None:
            job = self.template.jobs[job_name]
            raw.update(variable_values(job.get("variables"), f"job {job_name}"))
            raw.update(CI_JOB_NAME=job_name, CI_JOB_STAGE=job["stage"])
        raw.update(self.project_variables)
        raw.update(pipeline_variables)
        if job_name is not None:
            raw["CI_PROJECT_DIR"] = expand(raw.get("GIT_CLONE_PATH", "$CI_BUILDS_DIR/project"), raw)
        return {name: expand(value, raw) for name, value in raw.items()}

    def jobs_for(self, source, open_merge_request=False):
        """The jobs a pipeline from SOURCE gets (name -> PlannedJob); None when workflow:rules give
        no pipeline at all. OPEN_MERGE_REQUEST: a push to a branch that has one open."""
        return self.plan(self.predefined_variables(source, "0" * 40, 0, open_merge_request), {})

    def plan(self, predefined, pipeline_variables):
        source = predefined["CI_PIPELINE_SOURCE"]
        if self.template.workflow_rules is not None:
            rule = first_matching_rule(self.template.workflow_rules, self.variables_for(predefined, None, pipeline_variables),
                                       {"if", "when"}, "workflow:rules")
            if rule is None or rule.get("when") == "never":
                return None
        planned = {}
        for name, job in self.template.jobs.items():
            variables = self.variables_for(predefined, name, pipeline_variables)
            if "rules" in job:
                rule = first_matching_rule(job["rules"], variables, {"if", "when", "allow_failure"}, f"job {name}")
                if rule is None:
                    continue
                when, allow_failure = rule.get("when", "on_success"), rule.get("allow_failure", job.get("allow_failure", False))
            else:
                when = job.get("when", "on_success")
                # A manual job without rules may fail by default; with rules it may not.
                allow_failure = job.get("allow_failure", when == "manual")
            if not isinstance(allow_failure, bool):
                template_error(f"job {name}: allow_failure {allow_failure} (exit codes) is not implemented by this check")
            if when not in WHEN_FOR_JOBS:
                template_error(f"job {name}: when {when} is not implemented by this check")
            if when != "never":
                planned[name] = PlannedJob(name, when, allow_failure)
        for name in planned:
            for needed in self.template.needs(name) or {}:
                if needed not in planned:
                    template_error(f"a {source} pipeline would not be created: {name} needs {needed}, which its rules leave out")
        return planned

    def run_pipeline(self, name, source, pipeline_variables=None, jobs=None, start_manual=()):
        """A pipeline from SOURCE at the project's HEAD, run to its end. JOBS limits it to those
        jobs and the ones they need; START_MANUAL are the manual jobs someone starts."""
        pipeline_variables = pipeline_variables or {}
        commit = prepare("git rev-parse HEAD", self.project).strip()
        self.pipelines += 1
        predefined = self.predefined_variables(source, commit, self.pipelines)
        planned = self.plan(predefined, pipeline_variables)
        if planned is None:
            template_error(f"a {source} pipeline is not created (workflow:rules)")
        if jobs is not None:
            wanted, chosen = list(jobs), set()
            while wanted:
                job = wanted.pop()
                if job not in planned:
                    template_error(f"a {source} pipeline has no job {job}")
                chosen.add(job)
                wanted += [needed for needed in self.template.needs(job) or {} if needed not in chosen]
            planned = {job: plan for job, plan in planned.items() if job in chosen}
        pipeline = Pipeline(name, commit)
        folder = os.path.join(self.work, "pipelines", f"{self.pipelines}-{name}")
        order = sorted(planned, key=lambda job: self.template.stages.index(self.template.jobs[job]["stage"]))
        while order:
            # The first job whose prerequisites are done; `needs` may point within a stage.
            job = next((job for job in order if all(done in pipeline.jobs for done in self.prerequisites(job, planned))), None)
            if job is None:
                template_error(f"the jobs {order} need each other in a circle")
            order.remove(job)
            pipeline.jobs[job] = self.run_job(job, planned[job], pipeline, planned, predefined, pipeline_variables,
                                              folder, job in start_manual)
        return pipeline

    def prerequisites(self, name, planned):
        needs = self.template.needs(name)
        if needs is not None:
            return list(needs)
        stage = self.template.stages.index(self.template.jobs[name]["stage"])
        return [job for job in planned if self.template.stages.index(self.template.jobs[job]["stage"]) < stage]

    def run_job(self, name, plan, pipeline, planned, predefined, pipeline_variables, folder, started):
        run = JobRun(name, plan.allow_failure)
        prerequisites = [pipeline.jobs[job] for job in self.prerequisites(name, planned)]
        explicitly_needed = self.template.needs(name) is not None
        # A manual job nobody started holds back only the jobs that name it in `needs`.
        passed = all(job.status == "success" or (job.status == "failed" and job.allow_failure)
                     or (job.status == "manual" and job.allow_failure and not explicitly_needed)
                     for job in prerequisites)
        failed = any(job.status == "failed" and not job.allow_failure for job in prerequisites)
        if plan.when == "manual" and not started:
            run.status = "manual"
            return run
        if not {"on_success": passed, "manual": passed, "always": True, "on_failure": failed}[plan.when]:
            return run

        job = self.template.jobs[name]
        variables = self.variables_for(predefined, name, pipeline_variables)
        work_tree = variables["CI_PROJECT_DIR"]
        self.check_out(work_tree, pipeline.commit, variables.get("GIT_CLEAN_FLAGS", "-ffdx"))
        needs = self.template.needs(name)
        for dependency in prerequisites:
            with_artifacts = needs[dependency.name] if needs is not None else True
            if with_artifacts and dependency.artifacts:
                copy_as_artifact(dependency.artifacts, work_tree)

        env = {**base_env(), **variables}
        timeout = duration_seconds(job["timeout"], f"job {name}") if "timeout" in job else None
        commands = script_lines(job.get("before_script"), name) + script_lines(job["script"], name)
        run.exit_code, run.log = run_script(bash_script(commands), BASH, work_tree, env, timeout)
        run.status = "success" if run.exit_code == 0 else "failed"
        if "after_script" in job:
            env["CI_JOB_STATUS"] = run.status
            # GitLab gives after_script 5 minutes.
            code, log = run_script(bash_script(script_lines(job["after_script"], name)), BASH, work_tree, env, 300)
            run.log += f"\nRunning after_script\n{log}"
            if code != 0:
                run.log += f"WARNING: after_script failed with exit code {code}\n"
        run.log += f"Job {'succeeded' if run.status == 'success' else f'failed: exit code {run.exit_code}'}\n"
        os.makedirs(os.path.join(folder, "logs"), exist_ok=True)
        with open(os.path.join(folder, "logs", f"{name}.log"), "w") as file:
            file.write(run.log)
        self.keep_artifacts(job, run, work_tree, variables, os.path.join(folder, "artifacts", name))
        return run

    def check_out(self, work_tree, commit, clean_flags):
        if not os.path.isdir(os.path.join(work_tree, ".git")):
            os.makedirs(os.path.dirname(work_tree), exist_ok=True)
            prepare(f"git clone -q {shlex.quote(self.project)} {shlex.quote(work_tree)}", os.path.dirname(work_tree))
        else:
            prepare("git fetch -q origin", work_tree)
        prepare(f"git checkout -q -f {commit}", work_tree)
        if clean_flags != "none":
            prepare(f"git clean {clean_flags}", work_tree)

    def keep_artifacts(self, job, run, work_tree, variables, folder):
        artifacts = job.get("artifacts") or {}
        when = artifacts.get("when", "on_success")
        if when != "always" and (when == "on_success") != (run.status == "success"):
            return
        run.artifacts = folder
        os.makedirs(folder, exist_ok=True)
        patterns = [("paths", pattern) for pattern in artifacts.get("paths") or []]
        patterns += [(kind, pattern) for kind, value in (artifacts.get("reports") or {}).items() for pattern in as_list(value)]
        for kind, pattern in patterns:
            path = expand(pattern, variables)
            inside = not os.path.isabs(path) and not os.path.normpath(path).startswith("..")
            matches = glob.glob(path, root_dir=work_tree, recursive=True) if inside else []
            if not matches:
                run.missing_artifacts.append(path)
            for match in matches:
                copy_as_artifact(os.path.join(work_tree, match), os.path.join(folder, match))
                if kind != "paths":
                    run.reports.setdefault(kind, []).append(os.path.normpath(match))


def copy_as_artifact(source, target):
    """SOURCE, a file or a folder, copied to TARGET the way an artifact archive is made and
    extracted: symlinks stay symlinks, files already at TARGET are replaced."""
    source, target = os.path.normpath(source), os.path.normpath(target)
    if os.path.isdir(source) and not os.path.islink(source):
        os.makedirs(target, exist_ok=True)
        for entry in os.listdir(source):
            copy_as_artifact(os.path.join(source, entry), os.path.join(target, entry))
        return
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if os.path.lexists(target) and not (os.path.isdir(target) and not os.path.islink(target)):
        os.remove(target)
    shutil.copy2(source, target, follow_symlinks=False)


def bash_script(commands):
    """What the Runner hands bash: set -eo pipefail, then each command shown and run."""
    lines = ["set -eo pipefail", "set +o noclobber"]
    for command in commands:
        lines.append(f"printf '%s\\n' {shlex.quote('$ ' + command.splitlines()[0] if command else '$')}")
        lines.append(command)
    return "\n".join(lines) + "\n"
