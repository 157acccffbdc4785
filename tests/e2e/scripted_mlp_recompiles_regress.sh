#!/usr/bin/env bash
# A compiler regression with identical outputs: Medium.ScriptedMlpCompilation's exact counts,
# promoted into a baseline of this machine's environment profile, pass when run again; with a
# planted data path that sometimes yields an unbatched example (or a tensor requiring gradients)
# every output still equals eager LibTorch's (the test's own assertions pass), but each new input
# signature costs the TorchScript executor another specialisation: a REGRESSION of
# forward.specialisations and forward.compiling_calls.
set -euo pipefail
suites=${1:?usage: $0 PATH_TO_mlregress_suites}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/baselines"
run() { "$suites" run --filter ScriptedMlpCompilation --out "$out/runs" --color never "$@"; }

run >"$out/first.log" || { cat "$out/first.log"; echo "FAIL: ScriptedMlpCompilation fails as shipped"; exit 1; }
"$suites" promote "$out/runs/latest" --baselines "$out/baselines" --reason "compilation counts" --force >/dev/null
run --baselines "$out/baselines" >"$out/again.log" || { cat "$out/again.log"; echo "FAIL: an unchanged run does not pass"; exit 1; }
grep -q "^METRIC *forward.specialisations *1 → 1 .* PASS" "$out/again.log" \
  || { cat "$out/again.log"; echo "FAIL: the unchanged run's specialisations are not 1 → 1 PASS"; exit 1; }
/usr/bin/python3 - "$out/runs/latest/results.json" <<'PY'
import json, sys
names = [m["name"] for m in json.load(open(sys.argv[1]))["tests"][0]["metrics"]]
# CountsOnly: the four exact counts, no latency to cry wolf on a shared machine.
assert names == ["forward.specialisations", "forward.compiling_calls",
                 "forward.argument_signatures", "forward.operators"], names
PY
echo "ok   unchanged: $(grep "specialisation.* over 24 calls" "$out/again.log")"

for plant in unbatched_every=4 grad_every=5; do
  status=0
  run --baselines "$out/baselines" --set "ScriptedMlpCompilation.$plant" >"$out/$plant.log" || status=$?
  [ "$status" -eq 2 ] || { cat "$out/$plant.log"; echo "FAIL: $plant gave exit $status, expected 2 (regression)"; exit 1; }
  grep -q "^METRIC *forward.specialisations *1 → 2 .* REGRESSION" "$out/$plant.log" \
    || { cat "$out/$plant.log"; echo "FAIL: $plant: no REGRESSION of forward.specialisations 1 → 2"; exit 1; }
  grep -q "^\[  FAILED  \] Medium.ScriptedMlpCompilation (regression)" "$out/$plant.log" \
    || { cat "$out/$plant.log"; echo "FAIL: $plant failed the test itself (its outputs differ?), not only its baseline"; exit 1; }
  echo "ok   $plant: outputs identical, REGRESSION: $(grep -o "compiled at call .*; [0-9]* argument" "$out/$plant.log" | head -1)"
done
