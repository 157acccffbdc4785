#!/usr/bin/env bash
# A new runner with another LibTorch version (the probe is told 2.99.0) against a copy of the
# committed baselines: the fast tier's numerics values (floats) have no baseline for its numerics
# profile, so they are UNGATED; portable values still PASS. Without --strict-env the run passes
# and ends with the NOT GATED summary; with it `run`, `merge`, `compare` and `report` exit 11
# (not_gated), naming each ungated metric. `baselines adopt RUN --confirm RUN2` then adds this
# runner's values, the same strict run exits 0, and every value stored for other machines (and
# every portable value) is unchanged. Planted: strict reusing exit 2, a verdict that passes an
# ungated value silently, adopt touching another machine's value.
#   strict_env_and_adopt_on_another_machine.sh PATH_TO_mlregress_suites SOURCE_DIR
set -euo pipefail
suites=${1:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
source_dir=${2:?usage: $0 PATH_TO_mlregress_suites SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export MLREGRESS_REPO="$work"
cp -r "$source_dir/baselines" baselines
cp -r baselines baselines.before
fail() { echo "FAIL: $*"; exit 1; }
# Runs the fast tier; the exit code is the function's output, the console goes to $1.log.
fast_tier() {
  local log=$1; shift
  local status=0
  "$suites" run --tier fast --baselines baselines --color never "$@" >"$log.log" 2>&1 || status=$?
  echo "$status"
}
other_torch='{"framework": {"version": "2.99.0"}, "cpu": {"model": "Another CPU"}}'
# The fast tier's values of scope numerics: CnnTrainingIsBitwiseDeterministic.final_loss,
# DeepTanhWithoutClippingExplodes.max_finite_grad_norm, LmInitialLossIsLnVocabulary.initial_loss
# and LmOverfitsOneBatch.final_loss.
numerics_values=4

# 1. The natural machine: the reference run for compare.
[ "$(fast_tier here --out here)" -eq 0 ] || { cat here.log; fail "the fast tier fails here"; }

# 2. Another LibTorch: passes without --strict-env, listing what it could not gate.
export MLREGRESS_ENVIRONMENT_OVERRIDE=$other_torch
[ "$(fast_tier lenient --out first)" -eq 0 ] || { cat lenient.log; fail "lenient run did not pass"; }
grep -q "^\[NOT GATED \] $numerics_values metrics not gated on this machine" lenient.log ||
  { cat lenient.log; fail "no NOT GATED summary"; }
grep -q 'baselines adopt' lenient.log || fail "the summary does not name baselines adopt"

# 3. --strict-env: exit 11, each ungated metric named on the console and in results.json.
status=$(fast_tier strict --out second --strict-env)
[ "$status" -eq 11 ] || { cat strict.log; fail "strict run exits $status, not 11 (not_gated)"; }
python3 - second/latest/results.json strict.log "$numerics_values" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
console = open(sys.argv[2]).read()
expected = int(sys.argv[3])
assert run["run"]["exit_status"] == "not_gated", run["run"]
ungated = [(t["name"], m) for t in run["tests"] for m in t["metrics"] if m["verdict"] == "UNGATED"]
assert len(ungated) == expected, [f"{t}.{m['name']}" for t, m in ungated]
for test, m in ungated:
    assert f"[NOT GATED ] {test}.{m['name']}: UNGATED" in console, f"{test}.{m['name']} not named"
    assert "framework 'libtorch 2.13.0' → 'libtorch 2.99.0'" in m["note"], m["note"]
others = {m["verdict"] for t in run["tests"] for m in t["metrics"] if m["verdict"] != "UNGATED"}
assert others == {"PASS"}, others
print(f"ok   strict run: exit 11, {len(ungated)} UNGATED named, every other metric PASS")
PY

# 4. merge, compare and report honour --strict-env the same way.
for shard in 0 1; do
  "$suites" run --tier fast --baselines baselines --color never --shard "$shard/2" --out shards \
    >"shard$shard.log" 2>&1 || fail "shard $shard failed"
done
shard_folders=$(find shards -mindepth 1 -maxdepth 1 -type d | sort)
status=0; "$suites" merge $shard_folders --out merged --strict-env >merge.log 2>&1 || status=$?
[ "$status" -eq 11 ] || { cat merge.log; fail "merge --strict-env exits $status, not 11"; }
status=0; "$suites" merge $shard_folders --out merged >merge2.log 2>&1 || status=$?
[ "$status" -eq 0 ] || { cat merge2.log; fail "merge without --strict-env exits $status"; }
status=0; "$suites" compare here/latest first/latest --strict-env >compare.log 2>&1 || status=$?
[ "$status" -eq 11 ] || { cat compare.log; fail "compare --strict-env exits $status, not 11"; }
status=0; "$suites" compare here/latest first/latest >compare2.log 2>&1 || status=$?
[ "$status" -eq 0 ] || { cat compare2.log; fail "compare without --strict-env exits $status"; }
status=0
"$suites" report first/latest --baselines baselines --format markdown --out report.md --strict-env \
  || status=$?
[ "$status" -eq 11 ] || fail "report --strict-env exits $status, not 11"
grep -q 'NOT_GATED' report.md || { cat report.md; fail "the Markdown headline is not NOT_GATED"; }
echo "ok   merge, compare and report --strict-env: exit 11; without it: exit 0"

# 5. Adopt from the two runs (they agree bit for bit), then the strict run passes.
"$suites" baselines adopt "$(readlink -f first/latest)" --confirm "$(readlink -f second/latest)" \
  --baselines baselines --reason "new runner: LibTorch 2.99.0" >adopt.log 2>&1 ||
  { cat adopt.log; fail "adopt failed"; }
[ "$(grep -c '^  adopted ' adopt.log)" -eq "$numerics_values" ] ||
  { cat adopt.log; fail "adopt did not add $numerics_values values"; }
[ "$(fast_tier adopted --out third --strict-env)" -eq 0 ] ||
  { cat adopted.log; fail "the strict run still fails after adopt"; }
grep -q 'NOT GATED' adopted.log && fail "still NOT GATED after adopt"

# 6. Nothing stored for other machines changed: every value present before is there, unchanged.
python3 - baselines.before/mlregress_suites baselines/mlregress_suites "$numerics_values" <<'PY'
import glob, os, sys, tomllib
added = 0
expected = int(sys.argv[3])
for before_path in sorted(glob.glob(sys.argv[1] + "/*.toml")):
    after_path = os.path.join(sys.argv[2], os.path.basename(before_path))
    before = tomllib.load(open(before_path, "rb"))["tests"]
    after = tomllib.load(open(after_path, "rb"))["tests"]
    for test, entry in before.items():
        for metric, stored in entry.get("metrics", {}).items():
            now = after[test]["metrics"][metric]
            for key in ("value", "samples", "direction", "policy", "scope", "rtol", "atol"):
                assert stored.get(key) == now.get(key), f"{test}.{metric}.{key} changed"
            for key in ("values", "cv"):
                old, new = stored.get(key, {}), now.get(key, {})
                assert all(new.get(k) == v for k, v in old.items()), f"{test}.{metric}.{key}: {old} → {new}"
                added += len(set(new) - set(old)) if key == "values" else 0
assert added == expected, f"{added} values added, not {expected}"
print(f"ok   adopt added {added} values; every value stored before is unchanged")
PY
