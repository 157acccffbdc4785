#!/usr/bin/env bash
# Error rates of interleaved A/B timing (`run --ab`) on this machine:
#   false alarms  the binary against itself (A/A), COMPARISONS_AA times: how many comparisons
#                 end in a REGRESSION (target: at most 1 of 20);
#   detection     the same binary with a planted slowdown in the candidate
#                 (--set TEST.extra_work=EXTRA_WORK, real extra forward/backward work per step),
#                 COMPARISONS_DETECT times: how many are a REGRESSION (target: at least 9 of 10).
# It also prints the slowdown the planted work actually caused (the median cost ratios of the
# detection comparisons), since the detection rate means little if the slowdown is not >= 15%.
#
# A benchmark, not a test: it prints figures and exits non-zero only when a run failed to run
# (exit codes other than 0 and 2), never on a rate.
#
# Usage: ci/ab-benchmark.sh PATH_TO_mlregress_suites
#   environment: TEST (CnnStepThroughput), EXTRA_WORK (0.2), ROUNDS (10),
#                COMPARISONS_AA (20), COMPARISONS_DETECT (10), OUT (a temporary folder)
set -euo pipefail
export LC_ALL=C

suites=${1:?usage: ci/ab-benchmark.sh PATH_TO_mlregress_suites}
test_name=${TEST:-CnnStepThroughput}
extra_work=${EXTRA_WORK:-0.2}
rounds=${ROUNDS:-10}
comparisons_aa=${COMPARISONS_AA:-20}
comparisons_detect=${COMPARISONS_DETECT:-10}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

# One comparison; prints "<exit code> <verdicts> <median cost ratios>" from its ab.json.
compare() {
  local folder=$1
  shift
  set +e
  "$suites" run --ab "$suites" --filter "$test_name" --rounds "$rounds" --color never --out "$folder" "$@" \
    >"$folder.log" 2>&1
  local status=$?
  set -e
  if [ "$status" -ne 0 ] && [ "$status" -ne 2 ]; then
    echo "ab-benchmark: a comparison failed to run (exit $status); see $folder.log" >&2
    exit 1
  fi
  python3 - "$folder/latest/ab.json" "$status" <<'PY'
import json, sys
ab = json.load(open(sys.argv[1]))
m = ab["metrics"]
print(sys.argv[2], ",".join(x["verdict"] for x in m), ",".join("%.4f" % x["median_cost_ratio"] for x in m))
PY
}

echo "A/B benchmark: $test_name, $rounds rounds per comparison, binary $suites"
false_alarms=0
aa_ratios=()
for i in $(seq 1 "$comparisons_aa"); do
  read -r status verdicts ratios < <(compare "$out/aa-$i")
  [ "$status" -eq 2 ] && false_alarms=$((false_alarms + 1))
  aa_ratios+=("${ratios%%,*}")
  printf 'A/A %2d/%d: exit %s  %-40s cost ratio %s\n' "$i" "$comparisons_aa" "$status" "$verdicts" "${ratios%%,*}"
done

detected=0
detect_ratios=()
for i in $(seq 1 "$comparisons_detect"); do
  read -r status verdicts ratios < <(compare "$out/detect-$i" --set "$test_name.extra_work=$extra_work")
  [ "$status" -eq 2 ] && detected=$((detected + 1))
  detect_ratios+=("${ratios%%,*}")
  printf 'planted %2d/%d: exit %s  %-40s cost ratio %s\n' "$i" "$comparisons_detect" "$status" "$verdicts" "${ratios%%,*}"
done

python3 - "${aa_ratios[*]}" "${detect_ratios[*]}" <<'PY'
import statistics, sys
aa = [float(x) for x in sys.argv[1].split()]
det = [float(x) for x in sys.argv[2].split()]
print("A/A median cost ratios: median %+.1f%%, range [%+.1f%%, %+.1f%%]"
      % (100 * (statistics.median(aa) - 1), 100 * (min(aa) - 1), 100 * (max(aa) - 1)))
print("planted slowdown measured: median %+.1f%%, range [%+.1f%%, %+.1f%%]"
      % (100 * (statistics.median(det) - 1), 100 * (min(det) - 1), 100 * (max(det) - 1)))
PY
echo "A/A false REGRESSIONs: $false_alarms/$comparisons_aa (target <= 1)"
echo "planted slowdown (extra_work=$extra_work) detected: $detected/$comparisons_detect (target >= 9)"
echo "runs kept in $out"
