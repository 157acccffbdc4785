#!/usr/bin/env bash
# The main job (the fast tier against the committed baselines) on a machine other than the one
# that promoted them: the probe is told another CPU model, core count and hostname. Portable exact
# values (whole numbers: counts, steps, caught or not) are gated there like anywhere, and the
# numerics values (floats), whose profile is the LibTorch build, the ATen CPU capability, the CPU's
# vendor and math extensions and the threads, not the CPU's name, get the verdicts they get on
# this machine: the CPU's name changes no verdict, nothing is NOT_COMPARABLE, and --strict-env
# fails only where this machine itself has UNGATED values (none on the machine kind that promoted
# the baselines: there every metric must PASS). Planted: the CPU's name in the numerics profile
# (every float UNGATED under the other name).
#   main_job_on_another_machine.sh PATH_TO_mlregress_suites SOURCE_DIR
set -euo pipefail
suites=${1:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
source_dir=${2:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export MLREGRESS_REPO="$work"

status=0
"$suites" run --tier fast --baselines "$source_dir/baselines" --out here --color never >here.log 2>&1 || status=$?
[ "$status" -eq 0 ] || { cat here.log; echo "FAIL: the fast tier exits $status on this machine"; exit 1; }
export MLREGRESS_ENVIRONMENT_OVERRIDE='{"cpu": {"model": "AMD EPYC 7B13 64-Core Processor", "logical_cores": 96}, "hostname": "ci-runner-elsewhere"}'
status=0
"$suites" run --tier fast --baselines "$source_dir/baselines" --out runs --color never --strict-env >run.log 2>&1 || status=$?
python3 - here/latest/results.json runs/latest/results.json runs/latest/environment.json "$source_dir/baselines/mlregress_suites" "$status" <<'PY'
import glob, json, sys, tomllib
here = json.load(open(sys.argv[1]))
run = json.load(open(sys.argv[2]))
environment = json.load(open(sys.argv[3]))
status = int(sys.argv[5])
assert environment["cpu"]["model"] == "AMD EPYC 7B13 64-Core Processor", \
    f"the run did not see the other machine: {environment['cpu']}"
scopes = {}
for path in glob.glob(sys.argv[4] + "/*.toml"):
    for test, entry in tomllib.load(open(path, "rb")).get("tests", {}).items():
        for metric, stored in entry.get("metrics", {}).items():
            if stored.get("policy") == "exact":
                scopes[test + "." + metric] = stored.get("scope", "numerics")
def verdicts_of(document):
    return {t["name"] + "." + m["name"]: (m["verdict"], m.get("note", ""))
            for t in document["tests"] for m in t["metrics"]}
natural, moved = verdicts_of(here), verdicts_of(run)
exact = [name for name in moved if name in scopes]
portable = [name for name in exact if scopes[name] == "portable"]
numerics = [name for name in exact if scopes[name] == "numerics"]
assert portable and numerics, f"this check needs both kinds: portable {portable}, numerics {numerics}"
wrong = [f"{name} {moved[name]}" for name in portable if moved[name][0] != "PASS"]
assert not wrong, f"portable exact values not gated on another machine: {wrong}"
wrong = [f"{name}: {natural[name][0]} here, {moved[name][0]} there ({moved[name][1]})"
         for name in moved if natural.get(name, ("",))[0] != moved[name][0]]
assert not wrong, f"the CPU's name changed verdicts: {wrong}"
wrong = [name for name, (v, _) in moved.items() if v == "NOT_COMPARABLE"]
assert not wrong, f"NOT_COMPARABLE on another machine: {wrong}"
ungated = [name for name, (v, _) in moved.items() if v == "UNGATED"]
expected = 11 if ungated else 0
assert status == expected, f"--strict-env exits {status}, expected {expected} (ungated: {ungated})"
counts = {}
for v, _ in moved.values():
    counts[v] = counts.get(v, 0) + 1
print(f"ok   on another machine: {len(portable)} portable exact metrics PASS, {len(numerics)} "
      f"numerics exact metrics as on this machine ({len(ungated)} UNGATED here: this machine "
      f"runs other kernels than the promoting one); verdicts {sorted(counts.items())}")
PY
