#!/usr/bin/env python3
"""The scoring behind runner/docs/planted-bugs.md's confusion matrix catches what it is meant to:
a verdict that names a wrong class without offering `unknown`, a share of right classes under 90%,
and a planted switch nobody said the class of. Each case plants one of them in made-up plants
(the table's own functions, no run needed) and checks the problem is reported; the honest case
reports none.

Usage: planted_cause_scoring_test.py SOURCE_DIR
"""
import importlib.util
import pathlib
import sys

source = pathlib.Path(sys.argv[1])
spec = importlib.util.spec_from_file_location("planted_bugs_table",
                                              source / "ci" / "planted-bugs-table.py")
table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(table)

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


def cause(cls, *alternatives):
    return {"class": cls, "rule": "r", "alternatives": [{"class": a, "rule": "r"}
                                                       for a in alternatives]}


def plant(switch, *causes):
    counts = {}
    for c in causes:
        counts[c["class"]] = counts.get(c["class"], 0) + 1
    return (switch, "Medium.T", counts, list(causes))


OP = "CnnTrainingStepCost.extra_op=true"
ALLOC = "CnnTrainingStepCost.extra_allocation=true"
COMPILE = "ScriptedMlpCompilation.unbatched_every=6"

# Honest: every change gets its class; a compile plant's operator count offers unknown.
honest = [plant(OP, cause("operator_count")), plant(ALLOC, cause("allocation"), cause("allocation")),
          plant(COMPILE, cause("compile"), cause("compile"),
                cause("operator_count", "compile", "unknown"))]
matrix, problems = table.confusion_matrix(honest)
expect(problems == [], f"an honest corpus reports problems: {problems}")
expect("| `compile` | · | · | · | · | · | **1** |" in matrix,
       f"the compile row does not count the compile plant:\n{matrix}")
expect("3 of 3 planted changes get the right class (100%)" in matrix, matrix)

# A verdict of a wrong class that does not offer unknown is caught, even when the plant's majority
# class is right.
_, problems = table.confusion_matrix(honest + [plant(OP, cause("operator_count"),
                                                     cause("operator_count"), cause("allocation"))])
expect(any("reported allocation for a planted operator_count change without offering unknown" in p
           for p in problems), f"a wrong class without unknown passed: {problems}")

# Fewer than 90% right: caught, though each wrong verdict offers unknown.
wrong = [plant(OP, cause("allocation", "unknown"))] * 2
matrix, problems = table.confusion_matrix(honest + wrong)
expect(any("of the planted changes get the right class (at least 90% required)" in p
           for p in problems), f"60% right passed: {problems}")
expect("3 of 5 planted changes get the right class (60%); 2 another class" in matrix, matrix)

# A plant whose values all passed is counted under "none", not as right.
matrix, _ = table.confusion_matrix(honest + [plant(OP)])
expect("1 no verdict to explain" in matrix and "3 of 4 planted changes" in matrix, matrix)

# A switch without a planted class is an error, not a silent row.
_, problems = table.confusion_matrix([plant("Some.switch=1", cause("data"))])
expect(any("no planted cause" in p for p in problems), f"an unknown switch passed: {problems}")

for failure in failures:
    print(f"FAIL: {failure}")
print("ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
