#!/usr/bin/env bash
# Sequential seeds benchmark: does Seeds(8).up_to(40) turn INCONCLUSIVE into an answer without
# crying wolf? Measured on Full.XorSequentialSeedStudy (test_accuracy with Margin{.delta = 0.005},
# train_loss with Margin{.delta = 0.05}; 8 seeds a block, at most 40):
#
#   A/A          AA_RUNS independent trials. Trial i promotes its own 40-seed baseline (seeds
#                B_i .. B_i+39, run --all-seeds) and runs two unchanged candidates against it:
#                  paired  the baseline's seeds with weight_stream=1: the same model trained
#                          from other initial weights and batches (what a CI job on the
#                          baseline's seeds sees after a change that keeps the quality but
#                          moves the numbers);
#                  fresh   seeds B_i+40 .. (run --seed): two independent arms.
#                Targets: at most 1% REGRESSION (Clopper-Pearson 95% bound given), INCONCLUSIVE
#                under 10%, and the mean number of seeds a run took.
#   injected     lr / 10, width 32 -> 4, steps 400 -> 100 against a baseline of seeds 0-39: once
#                on the baseline's seeds (paired) and INJECT_REPS times on fresh seeds. Target:
#                REGRESSION after the first block (8 seeds).
#
#   levers       LEVER_SEEDS real seeds per weight stream (0 and 1) are run once into a table, and
#                build/tests/benchmarks/sequential_seeds_levers simulates LEVER_TRIALS trials per
#                row through the gate's own code on those values: each lever of the gate in its
#                own row (the Holm-aware stop, exact PASS boundaries, the covariate, a 200-seed
#                pool, PASS spending and block size), and the power at promote's printed effect.
#
# Everything is written to a temporary folder (removed at exit; KEEP=1 keeps it). A benchmark,
# not a test: it exits non-zero only when something failed to run, never on a figure.
#
# Usage: ci/sequential-seeds-benchmark.sh BUILD_DIR [AA_RUNS=100] [INJECT_REPS=5]
#        (LEVER_SEEDS=400 and LEVER_TRIALS=10000 from the environment)
set -euo pipefail
export LC_ALL=C

usage() {
  cat >&2 <<'EOF'
usage: ci/sequential-seeds-benchmark.sh BUILD_DIR [AA_RUNS] [INJECT_REPS]

  BUILD_DIR    a CMake build folder with mlregress_suites and sequential_seeds_levers built:
                 cmake --build BUILD_DIR --target mlregress_suites sequential_seeds_levers
  AA_RUNS      independent A/A trials, each with its own 40-seed baseline (default 100)
  INJECT_REPS  fresh-seed repetitions of each injected change (default 5)

Prints, per A/A design, the verdict rates with Clopper-Pearson 95% intervals and the seeds a run
took; per injected change, the verdicts, the look that decided and the seeds taken. KEEP=1 keeps
the run folders. Exits non-zero only if a run failed.
EOF
}

die() {
  echo "sequential-seeds-benchmark: $*" >&2
  exit 1
}

[[ $# -ge 1 && $# -le 3 ]] || { usage; exit 64; }
build=$1
aa_runs=${2:-100}
inject_reps=${3:-5}
for n in "$aa_runs" "$inject_reps"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { usage; exit 64; }
done
bin=$(realpath "$build/suites/mlregress_suites" 2>/dev/null) || die "no $build/suites/mlregress_suites"
[[ -x $bin ]] || die "$bin is not executable"
levers=$build/tests/benchmarks/sequential_seeds_levers
[[ -x $levers ]] || die "no executable $levers (cmake --build $build --target sequential_seeds_levers)"
lever_seeds=${LEVER_SEEDS:-400}
lever_trials=${LEVER_TRIALS:-10000}
[[ $lever_seeds =~ ^[1-9][0-9]*$ && $((lever_seeds % 40)) == 0 && $lever_seeds -ge 240 ]] ||
  die "LEVER_SEEDS must be a multiple of 40, at least 240"
[[ $lever_trials =~ ^[1-9][0-9]*$ ]] || die "LEVER_TRIALS must be a positive number"

work=$(mktemp -d)
if [[ ${KEEP:-0} == 1 ]]; then echo "run folders kept in $work" >&2; else trap 'rm -rf "$work"' EXIT; fi
test_name=XorSequentialSeedStudy
cap=40
index=$work/index.tsv  # one line per run: section, label, run folder, exit code
: >"$index"

# run_study SECTION LABEL RUN_ARGS...: one run in its own --out folder, logged in $index. Exit
# codes 0 (passed) and 2 (regression) are results; anything else is a failure to run.
run_study() {
  local section=$1 label=$2
  shift 2
  local out=$work/runs/$section-$label rc=0
  mkdir -p "$out"
  "$bin" run --tier full --filter "$test_name" --out "$out" --color never --jobs 2 "$@" \
    >"$out.log" 2>&1 || rc=$?
  if [[ $rc -ne 0 && $rc -ne 2 ]]; then
    tail -20 "$out.log" >&2
    die "run $section/$label exited $rc (log: $out.log)"
  fi
  printf '%s\t%s\t%s\t%s\n' "$section" "$label" "$(realpath "$out/latest")" "$rc" >>"$index"
}

# promote RUN_FOLDER BASELINES (--force: the tree may be dirty).
promote() {
  "$bin" promote "$1" --baselines "$2" --reason "sequential seeds benchmark" --force \
    >"$2.promote.log" 2>&1 || { cat "$2.promote.log" >&2; die "promote $1 failed"; }
}

last_run() { tail -1 "$index" | cut -f3; }

echo "A/A: $aa_runs trials (a 40-seed baseline, a paired and a fresh candidate each)" >&2
for ((i = 0; i < aa_runs; ++i)); do
  base_seed=$((1000 + 2 * cap * i))
  run_study aa-base "$i" --seed "$base_seed" --all-seeds
  mkdir -p "$work/baselines/aa-$i"
  promote "$(last_run)" "$work/baselines/aa-$i"
  run_study aa-paired "$i" --seed "$base_seed" --set "$test_name.weight_stream=1" \
    --baselines "$work/baselines/aa-$i"
  run_study aa-fresh "$i" --seed $((base_seed + cap)) --baselines "$work/baselines/aa-$i"
  (((i + 1) % 10 == 0)) && echo "  $((i + 1)) of $aa_runs" >&2
done

echo "injected changes: 3 changes x (1 paired + $inject_reps fresh)" >&2
run_study inject-base seeds-0 --seed 0 --all-seeds
mkdir -p "$work/baselines/inject"
promote "$(last_run)" "$work/baselines/inject"
declare -A changes=(
  [lr/10]=$test_name.lr=1e-4
  [width-4]=$test_name.width=4
  [steps/4]=$test_name.steps=100
)
for change in lr/10 width-4 steps/4; do
  label=${change//\//-}
  run_study "inject-$label" paired --seed 0 --set "${changes[$change]}" \
    --baselines "$work/baselines/inject"
  for ((r = 0; r < inject_reps; ++r)); do
    run_study "inject-$label" "fresh-$r" --seed $((100000 + cap * r)) --set "${changes[$change]}" \
      --baselines "$work/baselines/inject"
  done
done

echo "levers: $lever_seeds seeds x 2 weight streams into a table" >&2
mkdir -p "$work/baselines/none"
for stream in 0 1; do
  for ((s = 0; s < lever_seeds; s += cap)); do
    run_study "table-$stream" "$s" --seed $((5000 + s)) --all-seeds \
      --set "$test_name.weight_stream=$stream" --baselines "$work/baselines/none"
  done
done
python3 - "$index" "$work/table.tsv" <<'EOF_TABLE'
import json
import sys

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
values = {}
for section, _, folder, _ in rows:
    if not section.startswith("table-"):
        continue
    stream = int(section.split("-")[1])
    test = json.load(open(f"{folder}/results.json"))["tests"][0]
    by_metric = {m["name"]: dict(zip(m["seeds"], m["samples"])) for m in test["metrics"]}
    for seed, accuracy in by_metric["test_accuracy"].items():
        values[(seed, stream)] = (accuracy, by_metric["train_loss"][seed],
                                  by_metric["test_set_rule_accuracy"][seed])
with open(sys.argv[2], "w") as out:
    out.write("seed\tweight_stream\ttest_accuracy\ttrain_loss\ttest_set_rule_accuracy\n")
    for (seed, stream), v in sorted(values.items()):
        out.write(f"{seed}\t{stream}\t{v[0]!r}\t{v[1]!r}\t{v[2]!r}\n")
EOF_TABLE

# --- The tables, from each run folder's results.json.
python3 - "$index" <<'EOF'
import json
import math
import statistics
import sys

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
TEST = "XorSequentialSeedStudy"


def study(folder):
    for test in json.load(open(f"{folder}/results.json"))["tests"]:
        if test["name"] == TEST:
            return test
    raise SystemExit(f"{folder}: no {TEST}")


def binomial_cdf(k, n, p):
    return sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k + 1))


def solve(f, target):
    # f decreases in p on [0, 1]: the p where f(p) = target, by bisection.
    low, high = 0.0, 1.0
    for _ in range(100):
        mid = (low + high) / 2
        if f(mid) > target:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def clopper_pearson(k, n, level=0.95):
    # The exact interval: P(X >= k; p_low) = a and P(X <= k; p_high) = a, a = (1 - level) / 2.
    a = (1 - level) / 2
    low = 0.0 if k == 0 else solve(lambda p: -(1 - binomial_cdf(k - 1, n, p)), -a)
    high = 1.0 if k == n else solve(lambda p: binomial_cdf(k, n, p), a)
    return low, high


def metric(test, name):
    return next(m for m in test["metrics"] if m["name"] == name)


def run_summary(folder):
    test = study(folder)
    verdicts = {m["name"]: m["verdict"] for m in test["metrics"]}
    looks = {m["name"]: len(m.get("looks", [])) for m in test["metrics"]}
    return test, verdicts, looks, len(test["seed_runs"])


print("Sequential seeds, Full.XorSequentialSeedStudy: Seeds(8).up_to(40), alpha 0.01 (Holm over")
print("the run's three metrics), test_accuracy margin 0.005 adjusted by test_set_rule_accuracy")
print("(margin 0.02) against fresh seeds, train_loss margin 0.05")
print()
print("A/A (unchanged model), one independent 40-seed baseline per trial")
print(f"{'design':<8} {'metric':<14} {'runs':>4}  {'REGRESSION':<26} {'INCONCLUSIVE':<26} {'PASS':>5} {'IMPR':>5}  seeds/run (mean, max, median)")
for design in ("paired", "fresh"):
    runs = [run_summary(r[2]) for r in rows if r[0] == f"aa-{design}"]
    seeds = [s for _, _, _, s in runs]
    for name in ("test_accuracy", "train_loss", "test_set_rule_accuracy"):
        counts = {}
        for _, verdicts, _, _ in runs:
            counts[verdicts[name]] = counts.get(verdicts[name], 0) + 1
        n = len(runs)

        def rate(v):
            k = counts.get(v, 0)
            low, high = clopper_pearson(k, n)
            return f"{k:>3} = {100 * k / n:4.1f}% [{100 * low:.1f}, {100 * high:.1f}]"

        print(f"{design:<8} {name:<14} {n:>4}  {rate('REGRESSION'):<26} {rate('INCONCLUSIVE'):<26} "
              f"{counts.get('PASS', 0):>5} {counts.get('IMPROVED', 0):>5}  "
              f"{statistics.mean(seeds):.1f}, {max(seeds)}, median {statistics.median(seeds):g}")
    any_regression = sum(1 for _, v, _, _ in runs if "REGRESSION" in v.values())
    low, high = clopper_pearson(any_regression, len(runs))
    print(f"{'':<8} {'either metric':<14} {len(runs):>4}  REGRESSION {any_regression} = "
          f"{100 * any_regression / len(runs):.1f}% [{100 * low:.1f}, {100 * high:.1f}]")
print("(Clopper-Pearson 95% intervals in brackets; targets: REGRESSION <= 1%, INCONCLUSIVE < 10%)")
print()
print("Injected changes against a baseline of seeds 0-39")
print(f"{'change':<10} {'run':<9} {'test_accuracy':<14} {'look':>4}  {'train_loss':<14} {'look':>4}  seeds")
first_block = []
for change in ("lr-10", "width-4", "steps-4"):
    for r in rows:
        if r[0] != f"inject-{change}":
            continue
        test, verdicts, looks, seeds = run_summary(r[2])
        acc, loss = verdicts["test_accuracy"], verdicts["train_loss"]
        print(f"{change:<10} {r[1]:<9} {acc:<14} {looks['test_accuracy']:>4}  {loss:<14} "
              f"{looks['train_loss']:>4}  {seeds}")
        first_block.append(any(verdicts[m] == "REGRESSION" and looks[m] == 1 for m in verdicts))
print(f"a REGRESSION decided at the first look (8 seeds): {sum(first_block)} of {len(first_block)} runs")
EOF
echo
echo "Levers, simulated from the real values (sequential_seeds_levers, $lever_trials trials a row)"
"$levers" "$work/table.tsv" "$lever_trials"
