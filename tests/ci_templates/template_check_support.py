"""What the checks of ci/templates share: how they report, how they prepare a repository, the
environment a CI agent starts from, and running a script file through a shell as a CI system does.
"""
import os
import subprocess
import sys
import tempfile

GIT = "git -c user.name=ci-test -c user.email=ci-test@localhost"


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def ok(message):
    print(f"ok   {message}", flush=True)


def prepare(command, cwd, env=None):
    """A preparation step of a check (a commit, a clone); its failure is not the template's."""
    result = subprocess.run(command, cwd=cwd, env=env, shell=True, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"preparing the repository: `{command}` exited {result.returncode}:\n{result.stdout}{result.stderr}")
    return result.stdout


def base_env():
    """What a CI agent has in its environment before the pipeline adds its own."""
    return {key: os.environ[key] for key in ("PATH", "HOME", "LANG") if key in os.environ}


def run_script(script, shell_argv, cwd, env, timeout=None):
    """Runs SCRIPT as a file through SHELL_ARGV (the CI systems hand their shell a file too).
    Returns the exit code, None when it ran past TIMEOUT seconds, and stdout and stderr together."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "step.sh")
        with open(path, "w") as file:
            file.write(script)
        try:
            result = subprocess.run(shell_argv + [path], cwd=cwd, env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as expired:
            output = expired.stdout.decode(errors="replace") if isinstance(expired.stdout, bytes) else expired.stdout
            return None, (output or "") + f"\n(timed out after {timeout} s)\n"
    return result.returncode, result.stdout
