#!/usr/bin/env bash
# The main job (the fast tier against the committed baselines) on a machine other than the one
# that promoted them: the probe is told another CPU model, core count and hostname. Exact values
# are bound to the environment profile that measured them, so there they must be NOT_COMPARABLE
# (a note, not a failure), and the run must pass.
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
"$suites" run --tier fast --baselines "$source_dir/baselines" --out runs --color never >run.log 2>&1 || status=$?
[ "$status" -eq 0 ] || { cat run.log; echo "FAIL: the fast tier exits $status on another machine"; exit 1; }
python3 - runs/latest/results.json runs/latest/environment.json <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
environment = json.load(open(sys.argv[2]))
assert environment["cpu"]["model"] == "AMD EPYC 7B13 64-Core Processor", \
    f"the run did not see the other machine: {environment['cpu']}"
verdicts = {}
for t in run["tests"]:
    for m in t["metrics"]:
        verdicts.setdefault(m["verdict"], []).append(t["name"] + "." + m["name"])
exact = [t["name"] + "." + m["name"] for t in run["tests"] for m in t["metrics"]
         if m.get("policy", {}).get("kind") == "exact"]
assert exact, "the fast tier records no exact metric: this check would prove nothing"
not_comparable = set(verdicts.get("NOT_COMPARABLE", []))
missing = [name for name in exact if name not in not_comparable]
assert not missing, f"exact metrics judged against another machine's values: {missing}"
print(f"ok   on another machine: {len(exact)} exact metrics NOT_COMPARABLE, "
      f"verdicts {sorted((k, len(v)) for k, v in verdicts.items())}")
PY
