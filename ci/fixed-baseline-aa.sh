#!/usr/bin/env bash
# Fixed-baseline A/A: how much of a fresh-seed A/A table depends on the one baseline it was run
# against. Full.XorSequentialSeedStudy, unchanged code, its default design
# Seeds(12).then_blocks_of(8).up_to(52).pass_early(): BASELINES baselines of 52 seeds each
# (baseline b promotes seeds 52b .. 52b+51, run --all-seeds), then RUNS fresh-seed candidates
# against each (run r of baseline b: --seed 100000 + 52 (b RUNS + r)). A table whose runs all
# share one baseline measures that baseline's draw as much as the gate: its runs are not
# independent trials, and their INCONCLUSIVE rate moves with where the baseline's 52-seed mean
# happened to fall. ci/sequential-seeds-benchmark.sh, by contrast, gives every trial its own
# baseline.
#
# Prints, per baseline, its mean test_accuracy and covariate, then the candidates' verdicts
# (test_accuracy: PASS / INCONCLUSIVE / REGRESSION; REGRESSION of any metric) with
# Clopper-Pearson 95% intervals and the seeds taken (median, mean, p90); then all runs together.
# A benchmark, not a test: exits non-zero only when something failed to run.
#
# Usage: ci/fixed-baseline-aa.sh BUILD_DIR [BASELINES=3] [RUNS=30]   (KEEP=1 keeps the runs)
set -euo pipefail
export LC_ALL=C

usage() {
  cat >&2 <<'EOF_USAGE'
usage: ci/fixed-baseline-aa.sh BUILD_DIR [BASELINES] [RUNS]

  BUILD_DIR  a CMake build folder with mlregress_suites built (and its tokenizer tool)
  BASELINES  52-seed baselines, seeds 0-51, 52-103, ... (default 3)
  RUNS       fresh-seed A/A runs against each (default 30)
EOF_USAGE
}

die() {
  echo "fixed-baseline-aa: $*" >&2
  exit 1
}

[[ $# -ge 1 && $# -le 3 ]] || { usage; exit 64; }
build=$1
baselines=${2:-3}
runs=${3:-30}
for n in "$baselines" "$runs"; do [[ $n =~ ^[1-9][0-9]*$ ]] || { usage; exit 64; }; done
bin=$build/suites/mlregress_suites
[[ -x $bin ]] || die "no executable $bin (build the target mlregress_suites)"
test=XorSequentialSeedStudy
cap=52

work=$(mktemp -d)
if [[ ${KEEP:-0} == 1 ]]; then echo "runs kept in $work" >&2; else trap 'rm -rf "$work"' EXIT; fi
index=$work/index.tsv  # baseline, role, run folder
: >"$index"
mkdir -p "$work/none"

# run_one LABEL BASELINES_DIR RUN_ARGS...: exit codes 0 and 2 are results, others failures.
run_one() {
  local label=$1 against=$2 rc=0
  shift 2
  local out=$work/runs/$label
  mkdir -p "$out"
  "$bin" run --tier full --filter "$test" --out "$out" --color never --jobs 2 \
    --baselines "$against" "$@" >"$out.log" 2>&1 || rc=$?
  [[ $rc -eq 0 || $rc -eq 2 ]] || { tail -20 "$out.log" >&2; die "run $label exited $rc"; }
  realpath "$out/latest"
}

for ((b = 0; b < baselines; ++b)); do
  echo "baseline $b: seeds $((cap * b))-$((cap * b + cap - 1)), then $runs fresh runs" >&2
  folder=$(run_one "base-$b" "$work/none" --seed $((cap * b)) --all-seeds)
  printf '%s\tbaseline\t%s\n' "$b" "$folder" >>"$index"
  mkdir -p "$work/baselines-$b"
  "$bin" promote "$folder" --baselines "$work/baselines-$b" --reason "fixed-baseline A/A" \
    --force >"$work/promote-$b.log" 2>&1 || { cat "$work/promote-$b.log" >&2; die "promote failed"; }
  for ((r = 0; r < runs; ++r)); do
    folder=$(run_one "aa-$b-$r" "$work/baselines-$b" --seed $((100000 + cap * (b * runs + r))))
    printf '%s\tcandidate\t%s\n' "$b" "$folder" >>"$index"
  done
done

PYTHONPATH=$(dirname "$0") python3 - "$index" "$test" <<'EOF'
import json
import statistics
import sys

from binomial_interval import rate

index, test_name = sys.argv[1:3]
rows = [line.rstrip("\n").split("\t") for line in open(index)]


def study(folder):
    for test in json.load(open(f"{folder}/results.json"))["tests"]:
        if test["name"] == test_name:
            return test
    sys.exit(f"fixed-baseline-aa: no {test_name} in {folder}/results.json")


def metric(test, name):
    return next(m for m in test["metrics"] if m["name"] == name)


def table(label, candidates):
    n = len(candidates)
    verdicts = [{m["name"]: m["verdict"] for m in t["metrics"]} for t in candidates]
    seeds = sorted(len(t["seed_runs"]) for t in candidates)
    count = lambda v: sum(1 for x in verdicts if x["test_accuracy"] == v)
    any_regression = sum(1 for x in verdicts if "REGRESSION" in x.values())
    print(f"{label:<10} PASS {rate(count('PASS'), n)}  INCONCLUSIVE {rate(count('INCONCLUSIVE'), n)}"
          f"  REGRESSION(any) {rate(any_regression, n)}  seeds median {statistics.median(seeds):g}"
          f" mean {statistics.mean(seeds):.1f} p90 {seeds[min(n - 1, int(0.9 * n))]}")


print(f"Fixed-baseline A/A, {test_name}, fresh seeds against 52-seed baselines")
everyone = []
for b in sorted({r[0] for r in rows}, key=int):
    base = study(next(r[2] for r in rows if r[0] == b and r[1] == "baseline"))
    acc = metric(base, "test_accuracy")["samples"]
    cov = metric(base, "test_set_rule_accuracy")["samples"]
    candidates = [study(r[2]) for r in rows if r[0] == b and r[1] == "candidate"]
    everyone += candidates
    print(f"baseline {b}: seeds {52 * int(b)}-{52 * int(b) + 51}, test_accuracy mean "
          f"{statistics.mean(acc):.5f} sd {statistics.stdev(acc):.5f}, covariate mean "
          f"{statistics.mean(cov):.5f}")
    table(f"  runs", candidates)
table("all", everyone)
print("(Clopper-Pearson 95% intervals. Runs against one baseline share its draw: they are not")
print("independent trials of the gate.)")
EOF
