#!/usr/bin/env python3
"""Plants what check_core_layers.py must catch, each in a copy of the real runner/ tree, and shows
it caught: an upward include, an upward call through a public header implemented higher up, an
include within one layer, a loop, a folder the table lacks, a
table row without its folder, the LibTorch layer reaching into the core. The unchanged copy
passes, so the check is not failing on everything.

Usage: check_core_layers_test.py RUNNER_DIR"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check_core_layers.py")


def copy_runner(source, into):
    runner = os.path.join(into, "runner")
    shutil.copytree(os.path.join(source, "src"), os.path.join(runner, "src"))
    shutil.copytree(os.path.join(source, "include"), os.path.join(runner, "include"))
    os.makedirs(os.path.join(runner, "docs"))
    shutil.copy(os.path.join(source, "docs", "architecture.md"), os.path.join(runner, "docs"))
    return runner


def append(path, text):
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)


def replace(path, old, new):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert old in text, f"{path} lacks {old!r}"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new))


def run_check(runner):
    return subprocess.run([sys.executable, CHECK, runner], capture_output=True, text=True)


def plant_upward(runner):
    append(os.path.join(runner, "src/core/support/clock.cc"), '#include "cli/exit_code.h"\n')
    return "support/clock.cc:", "cli/ (layer 15) is above support/ (layer 1)"


def plant_upward_call(runner):
    # A public header implemented high up, included low down: the call goes upward even though
    # the include names no core folder (as support/ once called cli/'s exit_code_name).
    append(os.path.join(runner, "src/core/support/clock.cc"), '#include "mlregress/throughput.h"\n')
    return ("support/clock.cc:", "mlregress/throughput.h (implemented in timing/)",
            "timing/ (layer 12) is above support/ (layer 1)")


def plant_same_layer(runner):
    os.makedirs(os.path.join(runner, "src/core/extra"))
    append(os.path.join(runner, "src/core/extra/a.h"), "#pragma once\n")
    replace(os.path.join(runner, "docs/architecture.md"), "| 2 | `statistics/` |",
            "| 1 | `extra/` | planted |\n| 2 | `statistics/` |")
    append(os.path.join(runner, "src/core/support/clock.cc"), '#include "extra/a.h"\n')
    return "support/clock.cc:", "extra/ shares layer 1 with support/"


def plant_loop(runner):
    append(os.path.join(runner, "src/core/statistics/holm.cc"), '#include "record/run_result.h"\n')
    return "statistics/holm.cc:", "around a loop: analysis record statistics"


def plant_unlisted_folder(runner):
    os.makedirs(os.path.join(runner, "src/core/newcomer"))
    append(os.path.join(runner, "src/core/newcomer/x.h"), "#pragma once\n")
    return "newcomer/", "does not name"


def plant_listed_but_missing(runner):
    replace(os.path.join(runner, "docs/architecture.md"), "| 2 | `statistics/` |",
            "| 2 | `ghost/` | planted |\n| 2 | `statistics/` |")
    return "architecture.md:", "names ghost/"


def plant_torch_reaching_into_core(runner):
    torch_dir = os.path.join(runner, "src/torch")
    name = sorted(n for n in os.listdir(torch_dir) if n.endswith(".cc"))[0]
    append(os.path.join(torch_dir, name), '#include "record/run_result.h"\n')
    return name, "includes the core's record/run_result.h"


def main():
    source = os.path.abspath(sys.argv[1])
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        clean = run_check(copy_runner(source, os.path.join(tmp, "clean")))
        if clean.returncode != 0:
            failures.append(f"the unchanged tree fails the check:\n{clean.stderr}")
    plants = [plant_upward, plant_upward_call, plant_same_layer, plant_loop, plant_unlisted_folder,
              plant_listed_but_missing, plant_torch_reaching_into_core]
    for plant in plants:
        with tempfile.TemporaryDirectory() as tmp:
            runner = copy_runner(source, tmp)
            expected = plant(runner)
            result = run_check(runner)
            if result.returncode != 1:
                failures.append(f"{plant.__name__}: exit {result.returncode}, expected 1")
            for text in expected:
                if text not in result.stderr:
                    failures.append(f"{plant.__name__}: the message lacks {text!r}:\n"
                                    f"{result.stderr}")
            print(f"{plant.__name__}: caught (exit {result.returncode})")
    for failure in failures:
        print("FAIL " + failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
