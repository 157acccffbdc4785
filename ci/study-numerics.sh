#!/usr/bin/env bash
# Which recorded float values stay bit-identical when the CPU code path LibTorch dispatches to
# changes (runner/docs/numerics.md is made from its output). Runs the selected tiers once per
# setting: natural (twice, for run-to-run repeatability), the ATen kernels' capability lowered,
# oneDNN and MKL pinned low (together and one at a time), everything pinned low, glibc's libm
# dispatch lowered on top of that, and two intra-op threads; then prints ci/numerics_table.py's
# tables.
#
#   ci/study-numerics.sh [--binary PATH] [--tiers fast,medium] [--timing-rounds N] OUT
#     --binary         the test binary (default build/suites/mlregress_suites)
#     --tiers          comma-separated tiers (default fast,medium)
#     --timing-rounds  extra natural/pinned run pairs per tier, alternating, for the wall-time
#                      cost of pinning (default 2; 0: none)
#   leaves OUT/<tier>/<setting>/ (an --out folder: run folders, latest, ledger.jsonl, run.log),
#   OUT/<tier>/settings.tsv, and OUT/tables.md (what it prints).
#
# The variables are read once per process at first use, so each setting is a fresh process
# tree: the runner's workers inherit the environment.
set -euo pipefail
binary=build/suites/mlregress_suites
tiers=fast,medium
timing_rounds=2
usage="usage: $0 [--binary PATH] [--tiers fast,medium] [--timing-rounds N] OUT"
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary=${2:?$usage}; shift 2 ;;
    --tiers) tiers=${2:?$usage}; shift 2 ;;
    --timing-rounds) timing_rounds=${2:?$usage}; shift 2 ;;
    -h | --help) echo "$usage"; exit 0 ;;
    -*) echo "$usage" >&2; exit 4 ;;
    *) out=$1; shift ;;
  esac
done
[ -n "${out:-}" ] || { echo "$usage" >&2; exit 4; }
[ -x "$binary" ] || { echo "study-numerics: no executable $binary" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)

source "$here/kernel-settings.sh"
settings=("${kernel_settings[@]}")
# The setting the timing rounds compare with A: everything pinned low.
pinned=D
unset_args=("${kernel_unset_args[@]}")

# One run of one setting. Exit 0 (passed), 1 (a test failed: a value moved past an in-test
# assertion, which the table shows) and 2 (regression) are results; anything else is a broken
# run and stops the study.
run_setting() {
  local tier=$1 spec=$2 name threads vars status=0
  IFS='|' read -r name threads vars <<<"$spec"
  mkdir -p "$out/$tier/$name"
  # shellcheck disable=SC2086 # vars is a list of NAME=VALUE words
  env "${unset_args[@]}" $vars "$binary" run --tier "$tier" --threads "$threads" --color never \
    --out "$out/$tier/$name" >>"$out/$tier/$name/run.log" 2>&1 || status=$?
  case "$status" in
    0 | 1 | 2) ;;
    *) tail -n 40 "$out/$tier/$name/run.log" >&2
       echo "study-numerics: $tier/$name exited $status" >&2; exit 1 ;;
  esac
  echo "study-numerics: $tier/$name exit $status" >&2
}

spec_of() { kernel_setting_spec "$1"; }

IFS=',' read -r -a tier_list <<<"$tiers"
folders=()
for tier in "${tier_list[@]}"; do
  mkdir -p "$out/$tier"
  printf '%s\n' "${settings[@]}" | tr '|' '\t' >"$out/$tier/settings.tsv"
  for spec in "${settings[@]}"; do run_setting "$tier" "$spec"; done
  # Alternating pairs, so a machine that gets busier or quieter over time weighs on both alike.
  for _ in $(seq 1 "$timing_rounds"); do
    run_setting "$tier" "$(spec_of A)"
    run_setting "$tier" "$(spec_of "$pinned")"
  done
  folders+=("$out/$tier")
done
python3 "$here/numerics_table.py" --pinned "$pinned" "${folders[@]}" | tee "$out/tables.md"
