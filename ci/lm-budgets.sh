#!/usr/bin/env bash
# The language model's tests against their budgets (issue: fast <= 5 s together, medium <= 30 s,
# the full studies <= 3 min at their usual seed count), measured as the wall time of one `run` of
# each tier's Lm* tests against the committed baselines, REPEATS times; prints each time, the
# median per tier and the CPU. A benchmark script: it prints figures and never fails on them.
#   ci/lm-budgets.sh BINARY [REPEATS]
# e.g. ci/lm-budgets.sh build/suites/mlregress_suites 3
set -euo pipefail
binary=$(realpath "${1:?usage: $0 BINARY [REPEATS]}")
repeats=${2:-3}
source_dir=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export MLREGRESS_REPO="$source_dir"

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
printf "%-8s %-10s %s\n" tier budget_s "wall seconds per run, shortest first, and their median"
for tier_budget in "Fast 5" "Medium 30" "Full 180"; do
  read -r tier budget <<<"$tier_budget"
  times=()
  for ((i = 0; i < repeats; i++)); do
    start=$(date +%s%N)
    status=0
    "$binary" run --filter "$tier.Lm*" --baselines "$source_dir/baselines" --color never \
      --out "$work/$tier-$i" >"$work/$tier-$i.log" 2>&1 || status=$?
    end=$(date +%s%N)
    [ "$status" -eq 0 ] || { cat "$work/$tier-$i.log"; echo "lm-budgets: $tier run exited $status"; exit 1; }
    times+=("$(((end - start) / 1000000))")  # milliseconds
  done
  printf '%-8s %-10s' "$tier" "$budget"
  printf '%s\n' "${times[@]}" | sort -n |
    awk '{ms[NR] = $1; printf " %.1f", $1 / 1000} END {printf "  median %.1f\n", ms[int((NR + 1) / 2)] / 1000}'
done
