#!/usr/bin/env bash
# The medium tier's XorAdamLossCurve against the committed baseline: as shipped its loss curve and
# its tail loss PASS; with the learning rate ten times too high (lr_scale=10) the loss jumps to
# several units in the first steps and recovers, so the tail loss alone still passes its loose
# band while the curve, gated step by step against the reference curve, is a REGRESSION at the
# step where it left the band.
set -euo pipefail
suites=${1:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
source_dir=${2:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { "$suites" run --filter XorAdamLossCurve --out "$out" --color never --baselines "$source_dir/baselines" "$@"; }

run >"$out/shipped.log" || { cat "$out/shipped.log"; echo "FAIL: XorAdamLossCurve fails as shipped"; exit 1; }
/usr/bin/python3 - "$out/latest/results.json" <<'PY'
import json, sys
test = json.load(open(sys.argv[1]))["tests"][0]
curve = next(c for c in test["curves"] if c["name"] == "loss")
tail = next(m for m in test["metrics"] if m["name"] == "tail_loss")
assert curve["verdict"] == "PASS" and tail["verdict"] == "PASS", (curve, tail)
print(f"ok   as shipped: loss curve PASS ({curve['note']}), tail_loss PASS")
PY

set +e
run --set XorAdamLossCurve.lr_scale=10 >"$out/lr10.log"
status=$?
set -e
[ "$status" -eq 2 ] || { cat "$out/lr10.log"; echo "FAIL: lr x10 gave exit $status, expected 2 (regression)"; exit 1; }
/usr/bin/python3 - "$out/latest/results.json" <<'PY'
import json, sys
test = json.load(open(sys.argv[1]))["tests"][0]
curve = next(c for c in test["curves"] if c["name"] == "loss")
tail = next(m for m in test["metrics"] if m["name"] == "tail_loss")
assert tail["verdict"] in ("PASS", "IMPROVED"), tail
assert curve["verdict"] == "REGRESSION", curve
first = curve["excursion"]["first_exit_step"]
assert first is not None and first < 10, curve["excursion"]
print(f"ok   lr x10: tail_loss {tail['verdict']} ({tail['baseline']:.4f} -> {tail['value']:.4f}), "
      f"loss curve REGRESSION from step {first}")
PY
grep "^CURVE" "$out/lr10.log"
