#!/usr/bin/env bash
# The example suites' full tier (the 20-seed study, the ablation, the learning-rate sweep over
# seeds) against the committed baselines, run on one machine and as 4 shards merged: the merged
# results.json must equal the single-machine one in every per-seed sample, seed run, verdict and
# gate number. A merged run with one sample changed must not, or the comparison proves nothing.
#   full_tier_shards_merge.sh SUITES_BINARY SOURCE_DIR
set -euo pipefail
binary=${1:?usage: $0 SUITES_BINARY SOURCE_DIR}
source_dir=$(cd "${2:?usage: $0 SUITES_BINARY SOURCE_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export MLREGRESS_REPO="$work"
args=(--tier full --baselines "$source_dir/baselines" --color never --jobs 2)

status=0
# Shards run every seed of a sequential test (no shard can tell when the gate is decided), so the
# single machine runs them all too: both then hold the same samples and decide at the same look.
"$binary" run "${args[@]}" --all-seeds --out "$work/single" >"$work/single.log" 2>&1 || status=$?
shards=()
for i in 0 1 2 3; do
  "$binary" run "${args[@]}" --shard "$i/4" --out "$work/shard-$i" >"$work/shard-$i.log" 2>&1 || true
  shards+=("$(readlink -f "$work/shard-$i/latest")")
done
merged_status=0
"$binary" merge "${shards[@]}" --out "$work/merged" --color never >"$work/merge.log" 2>&1 || merged_status=$?
[ "$merged_status" -eq "$status" ] || { tail -20 "$work/merge.log"; fail "merge exit $merged_status, one machine $status"; }

# same A B: the runs agree on everything but times and file places.
same() {
  /usr/bin/python3 "$source_dir/tests/e2e/same_run_results.py" "$1" "$2"
}
single=$(readlink -f "$work/single/latest")
merged=$(readlink -f "$work/merged/latest")
same "$single" "$merged" || fail "the merged run differs from the single-machine run"

cp -r "$merged" "$work/planted"
sed -i '0,/"samples": \[/s//"samples": [0.123456, /' "$work/planted/results.json"
if same "$single" "$work/planted" >/dev/null; then fail "a changed sample passes the comparison"; fi
echo "ok   a planted sample is caught"
