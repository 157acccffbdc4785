#!/usr/bin/env bash
# Every failed attempt of a flaky-aware test, read back by a real JUnit client: junitparser's
# xunit2 reader (PyPI, pinned in ci/requirements/tools.txt), which knows Maven Surefire's rerun and
# flaky elements. A test whose failure rate passes must read as passed with one flaky failure per
# failed attempt; one whose rate regressed as failed (its <failure> of type regression) with one
# rerun failure per failed attempt; both counted against results.json, so a dropped attempt fails.
#   junit_attempts_read_by_junitparser.sh FLAKY_FIXTURE SOURCE_DIR
set -euo pipefail
fixture=${1:?usage: $0 FLAKY_FIXTURE SOURCE_DIR}
source_dir=${2:?usage: $0 FLAKY_FIXTURE SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
"$source_dir/ci/install-python-deps.sh" tools >/dev/null
python=${MLREGRESS_DEPS_DIR:-$source_dir/.deps}/tools/bin/python

cd "$work"
export MLREGRESS_REPO="$work"
run() { "$fixture" run --color never --jobs 2 --filter SometimesFails --out runs "$@"; }
run >baseline.log 2>&1 || { cat baseline.log; fail "the baseline run failed"; }
"$fixture" promote runs/latest --baselines baselines --reason e2e >/dev/null
# At the baseline's rate, fresh attempts whose gate passed with a failed attempt among them (the
# first such --seed of a fixed list: the outcomes are fixed by the seeds).
found=""
for seed in $(seq 1000 100 4000); do
  rc=0
  run --seed "$seed" --baselines baselines --junit pass.xml >pass.log 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || { cat pass.log; fail "at the baseline's rate the run exits $rc, not 0"; }
  if grep -q '"status": "failed"' runs/latest/results.json; then
    found=$seed
    break
  fi
done
[ -n "$found" ] || fail "no run at the baseline's rate had a failed attempt"
cp runs/latest/results.json pass.json
rc=0
MLREGRESS_FIXTURE_FAILURE_RATE=0.2 run --seed 1000 --baselines baselines --junit fail.xml \
  >fail.log 2>&1 || rc=$?
[ "$rc" -eq 2 ] || { cat fail.log; fail "a rise to 20% exits $rc, not 2 (regression)"; }
cp runs/latest/results.json fail.json

"$python" - <<'PY' || fail "junitparser reads the attempts differently from results.json"
import json, sys
from junitparser.xunit2 import JUnitXml, TestCase
from junitparser import Failure

def case_and_failed_attempts(xml, results):
    # xunit2's TestCase: the one that reads <flakyFailure>, <rerunFailure> and the like.
    cases = [c for suite in JUnitXml.fromfile(xml) for c in suite.iterchildren(TestCase)
             if c.name == "SometimesFails"]
    assert len(cases) == 1, f"{xml}: {len(cases)} testcases named SometimesFails"
    test = [t for t in json.load(open(results))["tests"] if t["name"] == "SometimesFails"][0]
    failed = sum(run["status"] != "passed" for run in test["seed_runs"])
    return cases[0], failed

ok = True
case, failed = case_and_failed_attempts("pass.xml", "pass.json")
flaky = case.flaky_failures() + case.flaky_errors()
print(f"passing rate: is_passed={case.is_passed} flaky={len(flaky)} failed attempts={failed}")
ok &= case.is_passed and failed > 0 and len(flaky) == failed and not case.rerun_failures()
ok &= all(f.message.startswith("attempt ") for f in flaky)

case, failed = case_and_failed_attempts("fail.xml", "fail.json")
reruns = case.rerun_failures() + case.rerun_errors()
final = [r for r in case.result if isinstance(r, Failure)]
print(f"regressed rate: is_passed={case.is_passed} final={[f.type for f in final]} "
      f"reruns={len(reruns)} failed attempts={failed}")
ok &= (not case.is_passed) and [f.type for f in final] == ["regression"]
ok &= failed > 0 and len(reruns) == failed and not case.flaky_failures()
sys.exit(0 if ok else 1)
PY
echo "PASS: junitparser reads every failed attempt (flaky in a passing test, rerun in a regressed one)"
