#!/usr/bin/env bash
# The XOR study's per-seed values as a table: Full.XorSequentialSeedStudy run on SEEDS seeds
# (5000 .. 5000+SEEDS-1, in runs of 52 with --all-seeds, no baseline) once per weight stream
# (weight_stream=0 and 1: the same data, other initial weights), written as
#   seed  weight_stream  test_accuracy  train_loss  test_set_rule_accuracy
# (a header line, then one line per seed and stream, sorted). The simulations that measure the
# study's noise read it: sequential_seeds_levers (ci/sequential-seeds-benchmark.sh, which calls
# this script) and seed_floor_benchmark (ci/seed-floor-benchmark.sh BUILD_DIR TABLE.tsv).
# About 3 minutes for 520 seeds on 2 cores.
#
# Usage: ci/xor-seed-table.sh BUILD_DIR OUT.tsv [SEEDS=520]   (SEEDS a multiple of 52)
set -euo pipefail
export LC_ALL=C

die() {
  echo "xor-seed-table: $*" >&2
  exit 1
}

if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: ci/xor-seed-table.sh BUILD_DIR OUT.tsv [SEEDS=520]  (mlregress_suites built)" >&2
  exit 64
fi
build=$1
out_table=$2
seeds=${3:-520}
cap=52
[[ $seeds =~ ^[1-9][0-9]*$ && $((seeds % cap)) == 0 ]] || die "SEEDS must be a multiple of $cap"
bin=$(realpath "$build/suites/mlregress_suites" 2>/dev/null) || die "no $build/suites/mlregress_suites"
test_name=XorSequentialSeedStudy

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/none"
: >"$work/folders.tsv"
for stream in 0 1; do
  for ((s = 0; s < seeds; s += cap)); do
    out=$work/runs/$stream-$s
    mkdir -p "$out"
    rc=0
    "$bin" run --tier full --filter "$test_name" --out "$out" --color never --jobs 2 \
      --seed $((5000 + s)) --all-seeds --set "$test_name.weight_stream=$stream" \
      --baselines "$work/none" >"$out.log" 2>&1 || rc=$?
    [[ $rc -eq 0 || $rc -eq 2 ]] || { tail -20 "$out.log" >&2; die "run $stream/$s exited $rc"; }
    printf '%s\t%s\n' "$stream" "$(realpath "$out/latest")" >>"$work/folders.tsv"
  done
done
python3 - "$work/folders.tsv" "$out_table" "$test_name" <<'EOF_TABLE'
import json
import sys

folders, out_path, test_name = sys.argv[1:4]
values = {}
for line in open(folders):
    stream, folder = line.rstrip("\n").split("\t")
    test = next(t for t in json.load(open(f"{folder}/results.json"))["tests"]
                if t["name"] == test_name)
    by_metric = {m["name"]: dict(zip(m["seeds"], m["samples"])) for m in test["metrics"]}
    for seed, accuracy in by_metric["test_accuracy"].items():
        values[(seed, int(stream))] = (accuracy, by_metric["train_loss"][seed],
                                       by_metric["test_set_rule_accuracy"][seed])
with open(out_path, "w") as out:
    out.write("seed\tweight_stream\ttest_accuracy\ttrain_loss\ttest_set_rule_accuracy\n")
    for (seed, stream), v in sorted(values.items()):
        out.write(f"{seed}\t{stream}\t{v[0]!r}\t{v[1]!r}\t{v[2]!r}\n")
EOF_TABLE
echo "xor-seed-table: $seeds seeds x 2 weight streams written to $out_table" >&2
