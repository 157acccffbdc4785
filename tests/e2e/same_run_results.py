"""Two run folders agree on everything but times, ids and file places: the tests (status,
failures, every metric with its samples, seeds, verdict, baseline and gate numbers: p-values,
Holm-adjusted p-values, CI, effect size), their seed runs without durations, the summary and the
run's exit status. Exit 1 naming the first differences. Used by the tests that prove a merged
sharded run equals the single-machine run.

  same_run_results.py RUN_FOLDER_A RUN_FOLDER_B
"""
import json, sys

def comparable(folder):
    results = json.load(open(folder + "/results.json"))
    tests = []
    for test in results["tests"]:
        test = {k: v for k, v in test.items() if k not in ("duration_s", "started_at", "curves")}
        test["seed_runs"] = [{k: v for k, v in run.items() if k != "duration_s"}
                             for run in test.get("seed_runs", [])]
        tests.append(test)
    run = {k: results["run"][k] for k in ("exit_code", "exit_status", "complete", "tiers", "baselines")}
    return {"run": run, "summary": results["summary"], "tests": tests}

def differences(a, b, path=""):
    if type(a) is not type(b):
        yield f"{path}: {a!r} vs {b!r}"
    elif isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                yield f"{path}.{key}: only in {'the first' if key in a else 'the second'}"
            else:
                yield from differences(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list):
        if len(a) != len(b):
            yield f"{path}: {len(a)} vs {len(b)} entries"
        for i, (x, y) in enumerate(zip(a, b)):
            yield from differences(x, y, f"{path}[{i}]")
    elif a != b:
        yield f"{path}: {a!r} vs {b!r}"

a, b = comparable(sys.argv[1]), comparable(sys.argv[2])
found = list(differences(a, b))
if found:
    print(f"{len(found)} differences, first: " + "; ".join(found[:5]))
    sys.exit(1)
metrics = [m for t in a["tests"] for m in t["metrics"]]
samples = sum(len(m.get("samples", [])) for m in metrics)
seed_runs = sum(len(t["seed_runs"]) for t in a["tests"])
gated = sum(1 for m in metrics if "p_worse_holm" in m.get("distribution", {}))
assert samples and gated, "no per-seed samples or gate numbers: the comparison would prove nothing"
print(f"ok   {len(a['tests'])} tests, {len(metrics)} metrics, {samples} per-seed samples, "
      f"{seed_runs} seed runs, {gated} Holm-gated comparisons identical; "
      f"verdicts {sorted({m['verdict'] for m in metrics})}")
