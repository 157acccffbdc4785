#!/usr/bin/env bash
# What deterministic kernels cost: the fast and medium tiers run under `run --determinism off`,
# `warn` (the default) and `strict`, the three alternating, RUNS times each (default 4), and the
# wall time of each whole run (results.json run.duration_s) printed per tier and mode as the
# median, the range and the ratio to off; also which tests failed under strict (a kernel without a
# deterministic implementation). The figures go in runner/docs/numerics.md, "Cost of determinism".
#
#   ci/determinism-cost.sh SUITES [RUNS] [OUT_DIR]
#
# SUITES is the example suites binary (build/suites/mlregress_suites). Run it on a quiet machine:
# another build on the same cores moves the figures more than the modes do.
set -euo pipefail
if (($# < 1)); then
  echo "usage: $0 SUITES [RUNS] [OUT_DIR]" >&2
  exit 4
fi
suites=$1
runs=${2:-4}
out=${3:-$(mktemp -d)}
[[ -x $suites ]] || {
  echo "$0: $suites is not an executable test binary; build mlregress_suites first" >&2
  exit 4
}
[[ $runs =~ ^[1-9][0-9]*$ ]] || {
  echo "$0: RUNS is a whole number of at least 1, not '$runs'" >&2
  exit 4
}
mkdir -p "$out"
modes=(off warn strict)
for tier in fast medium; do
  for ((i = 1; i <= runs; ++i)); do
    for mode in "${modes[@]}"; do
      folder=$out/$tier/$mode/$i
      mkdir -p "$out/$tier/$mode"
      status=0
      "$suites" run --tier "$tier" --determinism "$mode" --color never --out "$folder" \
        >"$folder.log" 2>&1 || status=$?
      echo "$tier $mode run $i: exit $status"
    done
  done
done

python3 - "$out" "$runs" <<'PY'
import json, statistics, sys
from pathlib import Path

out, runs = Path(sys.argv[1]), int(sys.argv[2])
print(f"\nwall time of the whole tier (results.json run.duration_s), {runs} alternating runs each")
print("| tier | mode | median | range | / off | tests failed |")
print("|---|---|---|---|---|---|")
for tier in ("fast", "medium"):
    medians = {}
    for mode in ("off", "warn", "strict"):
        times, failed = [], set()
        for i in range(1, runs + 1):
            results = json.loads((out / tier / mode / str(i) / "latest" / "results.json").read_text())
            times.append(results["run"]["duration_s"])
            failed |= {t["full_name"] for t in results["tests"] if t["status"] in ("failed", "crashed", "timed_out")}
        medians[mode] = statistics.median(times)
        ratio = medians[mode] / medians["off"]
        print(f"| {tier} | {mode} | {medians[mode]:.2f} s | {min(times):.2f}–{max(times):.2f} s "
              f"| {ratio:.2f} | {', '.join(sorted(failed)) or '—'} |")
PY
