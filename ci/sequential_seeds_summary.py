#!/usr/bin/env python3
"""The tables of ci/sequential-seeds-benchmark.sh, from the index of its run folders (one line per
run: name, trial, run folder, exit status); several indexes (batches kept with KEEP=1) are read
as one, so that batches with other FIRST_SEEDs add up to one table.

Usage: ci/sequential_seeds_summary.py INDEX.tsv [INDEX.tsv ...]
"""
import json
import statistics
import sys

from binomial_interval import rate

if len(sys.argv) < 2:
    sys.exit("usage: ci/sequential_seeds_summary.py INDEX.tsv [INDEX.tsv ...]")
rows = []
for path in sys.argv[1:]:
    try:
        lines = open(path).read().splitlines()
    except OSError as error:
        sys.exit(f"sequential_seeds_summary: cannot read {path}: {error}")
    for number, line in enumerate(lines, start=1):
        fields = line.split("\t")
        if len(fields) != 4:
            sys.exit(f"sequential_seeds_summary: {path}:{number}: expected 4 tab-separated fields "
                     "(name, trial, run folder, exit status)")
        rows.append(fields)
STUDIES = {  # study: (test, the metric a margin of half a seed-sd is asked of)
    "fixture": ("NoisyAccuracyStudy", "accuracy"),
    "xor": ("XorSequentialSeedStudy", "test_accuracy"),
}


def study(folder, name):
    for test in json.load(open(f"{folder}/results.json"))["tests"]:
        if test["name"] == name:
            return test
    raise SystemExit(f"{folder}: no {name}")


def run_summary(folder, test_name):
    test = study(folder, test_name)
    verdicts = {m["name"]: m["verdict"] for m in test["metrics"]}
    looks = {m["name"]: len(m.get("looks", [])) for m in test["metrics"]}
    return verdicts, looks, len(test["seed_runs"])


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def declared_design(test):
    first, cap = test.get("seed_block", 0), test.get("seed_cap", 0)
    text = f"Seeds({first})"
    if test.get("seed_next_block"):
        text += f".then_blocks_of({test['seed_next_block']})"
    text += f".up_to({cap})"
    if test.get("seed_pass_spending") == "pocock":
        text += ".pass_early()"
    if test.get("seed_likelihood_ratio"):
        text += ".likelihood_ratio()"
    if test.get("seed_pass_error", 0.025) != 0.025:
        text += f".pass_error({test['seed_pass_error']:g})"
    if test.get("seed_pass_rise"):
        text += f".pass_rise({test['seed_pass_rise']:g}, {test['seed_pass_rise_from']})"
    return text


designs = {}
for name, (test_name, _) in STUDIES.items():
    for r in rows:
        if r[0].startswith(f"aa-{name}-"):
            designs[name] = declared_design(study(r[2], test_name))
            break
print("Sequential seeds: " + "; ".join(f"{k} {v}" for k, v in designs.items()) + "; alpha 0.01 with Holm")
print("over each run's metrics; the accuracy margin is 0.005, about half a seed-sd, adjusted by a covariate")
print("against fresh seeds. A/A: unchanged candidates, one independent baseline per trial.")
print()
print(f"{'study':<8} {'design':<13} {'REGRESSION (any metric)':<32} {'INCONCLUSIVE (accuracy)':<32} "
      "seeds: median p90 p95 mean max")
for name, (test_name, accuracy) in STUDIES.items():
    all_runs = []
    for design in ("paired", "paired-stored", "paired-pool", "fresh-own", "fresh-pool"):
        runs = [run_summary(r[2], test_name) for r in rows if r[0] == f"aa-{name}-{design}"]
        if not runs:
            continue
        all_runs += runs
        n = len(runs)
        regressions = sum(1 for v, _, _ in runs if "REGRESSION" in v.values())
        inconclusive = sum(1 for v, _, _ in runs if v[accuracy] == "INCONCLUSIVE")
        seeds = [s for _, _, s in runs]
        print(f"{name:<8} {design:<13} {rate(regressions, n):<32} {rate(inconclusive, n):<32} "
              f"{statistics.median(seeds):>6g} {percentile(seeds, 0.9):>3} {percentile(seeds, 0.95):>3} "
              f"{statistics.mean(seeds):4.1f} {max(seeds):>3}")
    if not all_runs:
        continue
    regressions = sum(1 for v, _, _ in all_runs if "REGRESSION" in v.values())
    print(f"{name:<8} {'all A/A':<13} {rate(regressions, len(all_runs)):<32}")
print("(Clopper-Pearson 95% intervals in brackets. Targets: REGRESSION <= 1% with the upper bound")
print("below 1.5% over >= 300 runs; fresh INCONCLUSIVE <= 10% and median <= 20 seeds (with a pool);")
print("paired median <= 12 seeds.)")
print()
print("Injected changes, Full.XorSequentialSeedStudy, against a baseline of seeds 0-51")
print(f"{'change':<10} {'run':<9} {'test_accuracy':<14} {'look':>4}  {'train_loss':<14} {'look':>4}  seeds")
first_block = []
for change in ("lr-10", "width-4", "steps-4"):
    for r in rows:
        if r[0] != f"inject-{change}":
            continue
        verdicts, looks, seeds = run_summary(r[2], "XorSequentialSeedStudy")
        acc, loss = verdicts["test_accuracy"], verdicts["train_loss"]
        print(f"{change:<10} {r[1]:<9} {acc:<14} {looks['test_accuracy']:>4}  {loss:<14} "
              f"{looks['train_loss']:>4}  {seeds}")
        first_block.append(any(verdicts[m] == "REGRESSION" and looks[m] == 1 for m in verdicts))
if first_block:
    print(f"a REGRESSION decided at the first look (the first block): {sum(first_block)} of {len(first_block)} runs")
