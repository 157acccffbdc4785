#!/usr/bin/env bash
# The main job (the fast tier against the committed baselines) on a machine other than the one
# that promoted them: the probe is told another CPU model, core count and hostname. Portable exact
# values (whole numbers: counts, steps, caught or not) are gated there like anywhere, and so are
# the numerics values (floats), whose profile is the LibTorch build, the ATen CPU capability and
# the threads, not the CPU's name: every exact metric must PASS, none UNGATED or NOT_COMPARABLE,
# and the run must pass with --strict-env. Planted: the CPU's name in the numerics profile (every
# float UNGATED, exit 11).
#   main_job_on_another_machine.sh PATH_TO_mlregress_suites SOURCE_DIR
set -euo pipefail
suites=${1:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
source_dir=${2:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export MLREGRESS_REPO="$work"
export MLREGRESS_ENVIRONMENT_OVERRIDE='{"cpu": {"model": "AMD EPYC 7B13 64-Core Processor", "logical_cores": 96}, "hostname": "ci-runner-elsewhere"}'

status=0
"$suites" run --tier fast --baselines "$source_dir/baselines" --out runs --color never --strict-env >run.log 2>&1 || status=$?
[ "$status" -eq 0 ] || { cat run.log; echo "FAIL: the fast tier exits $status on another machine"; exit 1; }
python3 - runs/latest/results.json runs/latest/environment.json "$source_dir/baselines/mlregress_suites" <<'PY'
import glob, json, sys, tomllib
run = json.load(open(sys.argv[1]))
environment = json.load(open(sys.argv[2]))
assert environment["cpu"]["model"] == "AMD EPYC 7B13 64-Core Processor", \
    f"the run did not see the other machine: {environment['cpu']}"
scopes = {}
for path in glob.glob(sys.argv[3] + "/*.toml"):
    for test, entry in tomllib.load(open(path, "rb")).get("tests", {}).items():
        for metric, stored in entry.get("metrics", {}).items():
            if stored.get("policy") == "exact":
                scopes[test + "." + metric] = stored.get("scope", "numerics")
verdicts, notes = {}, {}
for t in run["tests"]:
    for m in t["metrics"]:
        verdicts[t["name"] + "." + m["name"]] = m["verdict"]
        notes[t["name"] + "." + m["name"]] = m.get("note", "")
exact = [name for name in verdicts if name in scopes]
portable = [name for name in exact if scopes[name] == "portable"]
numerics = [name for name in exact if scopes[name] == "numerics"]
assert portable and numerics, f"this check needs both kinds: portable {portable}, numerics {numerics}"
wrong = [f"{name} {verdicts[name]}: {notes[name]}" for name in exact if verdicts[name] != "PASS"]
assert not wrong, f"exact values not gated on another machine: {wrong}"
wrong = [name for name, v in verdicts.items() if v in ("UNGATED", "NOT_COMPARABLE")]
assert not wrong, f"metrics not gated on another machine: {wrong}"
counts = {}
for v in verdicts.values():
    counts[v] = counts.get(v, 0) + 1
print(f"ok   on another machine: {len(portable)} portable and {len(numerics)} numerics exact "
      f"metrics PASS; verdicts {sorted(counts.items())}")
PY
