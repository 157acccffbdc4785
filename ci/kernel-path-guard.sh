#!/usr/bin/env bash
# The kernel-path guard: runs tiers once more under other CPU code paths (ci/kernel-settings.sh)
# against the committed baselines, and fails on any REGRESSION or failed test. A band that holds
# only for the kernels of the machine that promoted it then fails on every machine, not only on a
# runner whose CPU happens to take another path. UNGATED is allowed (a value stored per numerics
# profile is not gated on another profile) and listed. runner/docs/numerics.md says why.
#
#   ci/kernel-path-guard.sh [--tiers fast,medium] [--settings C,D] BINARY BASELINES OUT
#     --tiers     comma-separated tiers (default fast,medium)
#     --settings  comma-separated setting names of ci/kernel-settings.sh (default C,D: ATen's
#                 default kernels alone, and with oneDNN at SSE4.1 and MKL's compatible code path;
#                 their effects do not add up, so both: C moved a loss 330% on an Intel Xeon
#                 where D moved it 11%)
#   leaves OUT/<setting>/<tier>/ (an --out folder: the run folder, latest, run.log) and
#   OUT/summary.txt (what it prints).
# Exit: 0 no REGRESSION and no failed test; 1 some; 2 a broken run or bad usage.
set -euo pipefail
tiers=fast,medium
settings=C,D
usage="usage: $0 [--tiers fast,medium] [--settings C,D] BINARY BASELINES OUT"
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tiers) tiers=${2:?$usage}; shift 2 ;;
    --settings) settings=${2:?$usage}; shift 2 ;;
    -h | --help) echo "$usage"; exit 0 ;;
    -*) echo "$usage" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ "${#positional[@]}" -eq 3 ] || { echo "$usage" >&2; exit 2; }
binary=${positional[0]} baselines=${positional[1]} out=${positional[2]}
[ -x "$binary" ] || { echo "kernel-path-guard: no executable $binary" >&2; exit 2; }
[ -d "$baselines" ] || { echo "kernel-path-guard: no baseline folder $baselines" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
source "$here/kernel-settings.sh"

mkdir -p "$out"
folders=()
IFS=',' read -r -a setting_list <<<"$settings"
IFS=',' read -r -a tier_list <<<"$tiers"
for name in "${setting_list[@]}"; do
  spec=$(kernel_setting_spec "$name")
  [ -n "$spec" ] || { echo "kernel-path-guard: no setting '$name' in ci/kernel-settings.sh" >&2; exit 2; }
  IFS='|' read -r _ threads vars <<<"$spec"
  for tier in "${tier_list[@]}"; do
    folder="$out/$name/$tier"
    mkdir -p "$folder"
    status=0
    # shellcheck disable=SC2086 # vars is a list of NAME=VALUE words
    env "${kernel_unset_args[@]}" $vars "$binary" run --tier "$tier" --threads "$threads" \
      --baselines "$baselines" --color never --out "$folder" >"$folder/run.log" 2>&1 || status=$?
    # 0 passed, 1 a test failed, 2 a regression: results the summary reads; anything else is a
    # run that could not be judged.
    case "$status" in
      0 | 1 | 2) ;;
      *) tail -n 40 "$folder/run.log" >&2
         echo "kernel-path-guard: $name/$tier exited $status" >&2; exit 2 ;;
    esac
    folders+=("$name|$vars|$folder/latest/results.json")
  done
done

python3 - "${folders[@]}" <<'PY' | tee "$out/summary.txt"
import json, sys
bad = 0
for entry in sys.argv[1:]:
    name, variables, path = entry.split("|", 2)
    run = json.load(open(path))
    verdicts, regressions, ungated, failed = {}, [], [], []
    for test in run["tests"]:
        if test.get("status") not in ("passed", "regressed", "skipped"):
            failed.append(f"{test['name']} ({test.get('status')})")
        for metric in test.get("metrics", []):
            verdict = metric.get("verdict", "")
            verdicts[verdict] = verdicts.get(verdict, 0) + 1
            label = f"{test['name']}.{metric['name']}"
            if verdict == "REGRESSION":
                regressions.append(f"{label} {metric.get('baseline')} -> {metric.get('value')} "
                                   f"({metric.get('tolerance', '')})")
            elif verdict == "UNGATED":
                ungated.append(label)
    counts = ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items()) if v)
    print(f"{name} [{variables or 'natural'}] tier {','.join(run['run'].get('tiers', []))}: {counts}")
    for line in regressions:
        print(f"  REGRESSION {line}")
    for line in failed:
        print(f"  FAILED {line}")
    if ungated:
        print(f"  UNGATED (stored for other numerics profiles): {', '.join(ungated)}")
    bad += len(regressions) + len(failed)
print(f"kernel-path-guard: {bad} REGRESSION or failed test{'s' if bad != 1 else ''}"
      f"{'' if bad else ': every band holds on these kernel paths'}")
sys.exit(1 if bad else 0)
PY
