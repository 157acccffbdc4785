#!/usr/bin/env bash
# The medium tier's frozen-evaluation-set test must pass as shipped and fail when its planted bug
# is switched on: training labels shuffled against their images (--set
# CnnFrozenEvalSet.permute_labels=true) leave the validation accuracy near chance.
set -euo pipefail
suites=${1:?usage: $0 PATH_TO_mlregress_suites}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { "$suites" run --filter CnnFrozenEvalSet --out "$out" --color never "$@"; }

run >/dev/null || { echo "FAIL: CnnFrozenEvalSet fails as shipped"; exit 1; }
echo "ok   as shipped: passes"

set +e
run --set CnnFrozenEvalSet.permute_labels=true >/dev/null
status=$?
set -e
[ "$status" -eq 1 ] || { echo "FAIL: with shuffled labels it exited $status, expected 1 (test failed)"; exit 1; }
python3 - "$out/latest/results.json" <<'PY'
import json, sys
test = json.load(open(sys.argv[1]))["tests"][0]
messages = " ".join(f["message"] for f in test["failures"])
assert "near chance" in messages, messages
print("ok   shuffled labels: fails with", [m["name"] + "=" + str(m["value"]) for m in test["metrics"]])
PY
