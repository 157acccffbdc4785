#!/usr/bin/env bash
# GPUs shared by ctest: mlregress_discover_tests(... GPUS 1) gives every test RESOURCE_GROUPS
# "1,gpus:1"; `ctest --resource-spec-file` with two made-up "GPUs" (ids 0 and 1; no device is
# touched) runs four tests on them at once, and each run must record the device ctest gave it as
# its CUDA_VISIBLE_DEVICES, no two runs overlapping in time on one device. A run outside ctest
# records none; a device the user chose is kept.
#   ctest_gpu_resources.sh FIXTURE_BINARY SOURCE_DIR
set -euo pipefail
fixture=${1:?usage: $0 FIXTURE_BINARY SOURCE_DIR}
source_dir=$(cd "${2:?usage: $0 FIXTURE_BINARY SOURCE_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export MLREGRESS_REPO="$work"

# The ctest file mlregress_discover_tests writes after a build, written the same way.
cmake -D "TEST_EXECUTABLE=$fixture" -D "CTEST_FILE=$work/tests.cmake" -D TIMEOUT_FAST=120 \
  -D TIMEOUT_MEDIUM=900 -D TIMEOUT_FULL=3600 -D "RUNS_DIR=$work/runs" -D GPUS=1 -D EXTRA_ARGS= \
  -P "$source_dir/runner/cmake/MlregressAddTests.cmake"
grep -q 'RESOURCE_GROUPS "1,gpus:1"' "$work/tests.cmake" || fail "no RESOURCE_GROUPS in the ctest file"
echo "include(\"$work/tests.cmake\")" >"$work/CTestTestfile.cmake"
cat >"$work/spec.json" <<'JSON'
{"version": {"major": 1, "minor": 0},
 "local": [{"gpus": [{"id": "0", "slots": 1}, {"id": "1", "slots": 1}]}]}
JSON
(cd "$work" && ctest --resource-spec-file spec.json -j 4 \
   -R '^Fast\.(Passes|AllParameterTypes)$|^Full\.(RecordsNonFinite|FailsWithAHugeMessage)$' \
   >ctest.log 2>&1) || { cat "$work/ctest.log"; fail "ctest failed"; }

/usr/bin/python3 - "$work/runs" <<'PY' || fail "the runs do not show the devices ctest gave"
import json, os, sys
runs = []
for name in sorted(os.listdir(sys.argv[1])):
    folder = os.path.join(sys.argv[1], name)
    if os.path.islink(folder):
        continue  # latest
    if not os.path.isfile(os.path.join(folder, "results.json")):
        continue
    env = json.load(open(os.path.join(folder, "environment.json")))["run"]
    res = json.load(open(os.path.join(folder, "results.json")))["run"]
    gpus = env.get("ctest_gpus")
    assert gpus and len(gpus) == 1 and gpus[0] in ("0", "1"), f"{name}: ctest_gpus {gpus}"
    assert env.get("cuda_visible_devices") == gpus[0], f"{name}: CUDA_VISIBLE_DEVICES {env.get('cuda_visible_devices')}"
    runs.append((res["started_at"], res["finished_at"], gpus[0], name))
assert len(runs) == 4, f"{len(runs)} runs, expected 4"
for a in runs:
    for b in runs:
        if a is not b and a[2] == b[2] and a[0] < b[1] and b[0] < a[1]:
            raise AssertionError(f"{a[3]} and {b[3]} ran at once on device {a[2]}")
print(f"ok   4 runs, devices {sorted(r[2] for r in runs)}, none shared at once")
PY

"$fixture" run --filter Passes --out "$work/plain" --color never >/dev/null
grep -q ctest_gpus "$work"/plain/latest/environment.json && fail "a run outside ctest records ctest GPUs"
CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0=gpus CTEST_RESOURCE_GROUP_0_GPUS=id:1,slots:1 \
  CUDA_VISIBLE_DEVICES=3 "$fixture" run --filter Passes --out "$work/chosen" --color never >/dev/null
grep -q '"cuda_visible_devices": "3"' "$work"/chosen/latest/environment.json \
  || fail "the device the user chose was replaced"
echo "ok   outside ctest no device is recorded; a device the user chose is kept"
