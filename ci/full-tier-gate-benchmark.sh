#!/usr/bin/env bash
# Full-tier gate benchmark: does the multi-seed gate neither cry wolf nor miss real regressions?
# Measured on Full.XorSeedStudy (20 seeds, test_accuracy with Margin{.delta = 0.005}):
#
#   A/A          AA_PAIRS comparisons of the unchanged test with itself on fresh seeds. Each pair
#                promotes its own baseline from one block of 20 seeds and runs the candidate on
#                the next block, so the comparisons are independent trials (one shared baseline
#                would lend its luck to all of them) and the Clopper-Pearson bound applies.
#                Target: at most 1% flag a REGRESSION.
#   injected     changes made through --set, against a baseline promoted from seeds 0-19:
#                lr / 10, width 32 -> 4, steps 400 -> 100 must be REGRESSION; lr x 10 and
#                steps 400 -> 200 (about -0.006, under one seed-sd) must be INCONCLUSIVE or
#                REGRESSION, never PASS or IMPROVED. Each change runs once on the baseline's own
#                seeds (the CI default: paired) and INJECT_REPS times on fresh seed blocks.
#   jobs         --jobs 1 against --jobs 2, alternating, ROUNDS times each: the study's own
#                duration (results.json) and the whole process's wall time (target: speed-up
#                >= 1.7 on 2 cores), and identical per-seed values. Other work on the machine
#                takes cores from --jobs 2 first, so the load average is printed with them.
#
# Everything is written to a temporary folder (removed at exit; KEEP=1 keeps it). This is a
# benchmark, not a test: it exits non-zero only when something failed to run, never on a figure;
# the table says which targets were met.
#
# Usage: ci/full-tier-gate-benchmark.sh BUILD_DIR [AA_PAIRS=100] [INJECT_REPS=5] [ROUNDS=3]
set -euo pipefail
export LC_ALL=C  # EPOCHREALTIME and printf use "." as the decimal point

usage() {
  cat >&2 <<'EOF'
usage: ci/full-tier-gate-benchmark.sh BUILD_DIR [AA_PAIRS] [INJECT_REPS] [ROUNDS]

  BUILD_DIR    a CMake build folder with mlregress_suites built:
                 cmake --build BUILD_DIR --target mlregress_suites
  AA_PAIRS     A/A comparisons, each with its own baseline (default 100)
  INJECT_REPS  fresh-seed repetitions of each injected change (default 5)
  ROUNDS       timed runs per --jobs setting (default 3)

Prints the A/A false-alarm rate with its Clopper-Pearson 95% interval, the verdict of every
injected change, and the --jobs 1 / --jobs 2 wall times and per-seed identity. Set KEEP=1 to keep
the run folders. Exits non-zero only if a run failed.
EOF
}

die() {
  echo "full-tier-gate-benchmark: $*" >&2
  exit 1
}

[[ $# -ge 1 && $# -le 4 ]] || { usage; exit 64; }
build=$1
aa_pairs=${2:-100}
inject_reps=${3:-5}
rounds=${4:-3}
for n in "$aa_pairs" "$inject_reps" "$rounds"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { usage; exit 64; }
done
bin=$(realpath "$build/suites/mlregress_suites" 2>/dev/null) || die "no $build/suites/mlregress_suites"
[[ -x $bin ]] || die "$bin is not executable"

work=$(mktemp -d)
if [[ ${KEEP:-0} == 1 ]]; then echo "run folders kept in $work"; else trap 'rm -rf "$work"' EXIT; fi
jobs=2
seeds_per_run=20  # XorSeedStudy's Seeds(20): --seed S runs seeds S .. S+19
index=$work/index.tsv  # one line per run: section, label, run folder, exit code, wall seconds
: >"$index"

# run SECTION LABEL RUN_ARGS...: one run of the study in its own --out folder, logged in $index.
# Exit codes 0 (passed) and 2 (regression) are results; anything else is a failure to run.
run_study() {
  local section=$1 label=$2
  shift 2
  local out=$work/runs/$section-$label
  mkdir -p "$out"
  local start=$EPOCHREALTIME rc=0
  "$bin" run --tier full --filter XorSeedStudy --out "$out" --color never "$@" >"$out.log" 2>&1 || rc=$?
  local wall
  wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
  if [[ $rc -ne 0 && $rc -ne 2 ]]; then
    tail -20 "$out.log" >&2
    die "run $section/$label exited $rc (log: $out.log)"
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$section" "$label" "$(realpath "$out/latest")" "$rc" "$wall" >>"$index"
}

# promote RUN_FOLDER BASELINES: the run becomes the baseline (--force: the tree may be dirty).
promote() {
  "$bin" promote "$1" --baselines "$2" --reason "full-tier gate benchmark" --force \
    >"$2.promote.log" 2>&1 || { cat "$2.promote.log" >&2; die "promote $1 failed"; }
}

last_run() { tail -1 "$index" | cut -f3; }

# --- A/A: independent pairs of seed blocks, starting far from the injected section's seeds.
echo "A/A: $aa_pairs pairs of $seeds_per_run-seed runs" >&2
for ((i = 0; i < aa_pairs; ++i)); do
  base_seed=$((1000 + 2 * seeds_per_run * i))
  run_study aa-base "$i" --seed "$base_seed" --jobs "$jobs"
  mkdir -p "$work/baselines/aa-$i"
  promote "$(last_run)" "$work/baselines/aa-$i"
  run_study aa "$i" --seed $((base_seed + seeds_per_run)) --jobs "$jobs" --baselines "$work/baselines/aa-$i"
done

# --- Injected changes, against a baseline promoted from the default seeds 0-19.
echo "injected changes: baseline, then 5 changes x (1 paired + $inject_reps fresh)" >&2
run_study inject-base seeds-0 --seed 0 --jobs "$jobs"
mkdir -p "$work/baselines/inject"
promote "$(last_run)" "$work/baselines/inject"
declare -A changes=(
  [lr/10]=XorSeedStudy.lr=1e-4
  [width-4]=XorSeedStudy.width=4
  [steps-100]=XorSeedStudy.steps=100
  [lrx10]=XorSeedStudy.lr=1e-2
  [steps-200]=XorSeedStudy.steps=200
)
for change in lr/10 width-4 steps-100 lrx10 steps-200; do
  label=${change//\//-}
  run_study "inject-$label" paired --seed 0 --jobs "$jobs" --set "${changes[$change]}" \
    --baselines "$work/baselines/inject"
  for ((r = 0; r < inject_reps; ++r)); do
    run_study "inject-$label" "fresh-$r" --seed $((100000 + seeds_per_run * r)) --jobs "$jobs" \
      --set "${changes[$change]}" --baselines "$work/baselines/inject"
  done
done

# --- --jobs 1 against --jobs 2, alternating so that load on the machine hits both alike.
echo "jobs: $rounds rounds of --jobs 1 and --jobs 2" >&2
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((r = 0; r < rounds; ++r)); do
  run_study jobs-1 "$r" --seed 0 --jobs 1
  run_study jobs-2 "$r" --seed 0 --jobs 2
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- The table, read from each run folder's results.json.
PYTHONPATH=$(dirname "$0") python3 - "$index" "$(nproc)" "$load_before" "$load_after" <<'EOF'
import json
import statistics
import sys

from binomial_interval import clopper_pearson

index_path, cores, load_before, load_after = sys.argv[1:5]
rows = [line.rstrip("\n").split("\t") for line in open(index_path)]
TEST, METRIC = "XorSeedStudy", "test_accuracy"


def study(folder):
    results = json.load(open(f"{folder}/results.json"))
    for test in results["tests"]:
        if test["name"] == TEST:
            return test
    sys.exit(f"full-tier-gate-benchmark: {TEST} missing from {folder}/results.json")


def accuracy(folder):
    for metric in study(folder)["metrics"]:
        if metric["name"] == METRIC:
            return metric
    sys.exit(f"full-tier-gate-benchmark: {METRIC} missing from {folder}/results.json")


def number(x, spec):  # results.json writes non-finite numbers as strings
    return format(x, spec) if isinstance(x, (int, float)) else str(x)


def yes(ok):
    return "yes" if ok else "NO"


# A/A: a false alarm is a run that flags a REGRESSION on any metric (exit code 2), as CI sees it.
aa_rows = [r for r in rows if r[0] == "aa"]
alarms = sum(rc == "2" for _, _, _, rc, _ in aa_rows)
lower, upper = clopper_pearson(alarms, len(aa_rows))
print(f"\nA/A on fresh seeds ({len(aa_rows)} independent pairs of {TEST} runs)")
for metric in study(aa_rows[0][2])["metrics"]:
    verdicts = [m["verdict"] for _, _, folder, _, _ in aa_rows
                for m in study(folder)["metrics"] if m["name"] == metric["name"]]
    print(f"  {metric['name']:<14} " +
          ", ".join(f"{v} {verdicts.count(v)}" for v in sorted(set(verdicts))))
print(f"  runs flagging a REGRESSION: {alarms}/{len(aa_rows)} = {alarms / len(aa_rows):.3f}, "
      f"Clopper-Pearson 95% interval [{lower:.4f}, {upper:.4f}]; "
      f"target rate <= 0.01 met: {yes(alarms / len(aa_rows) <= 0.01)}")

# Injected changes
print(f"\nInjected changes against the baseline of seeds 0-19 ({METRIC}, margin 0.005)")
print(f"  {'change':<10} {'seeds':<9} {'verdict':<13} {'difference':>10} {'95% CI':>19} "
      f"{'p (Holm)':>9}  {'exit':>4}  target met")
large = {"lr-10", "width-4", "steps-100"}
for section in dict.fromkeys(r[0] for r in rows if r[0].startswith("inject-") and r[0] != "inject-base"):
    change = section[len("inject-"):]
    for _, label, folder, rc, _ in (r for r in rows if r[0] == section):
        m = accuracy(folder)
        d = m.get("distribution", {})
        verdict = m.get("verdict", "?")
        ok = verdict == "REGRESSION" if change in large else verdict in ("INCONCLUSIVE", "REGRESSION")
        ci = d.get("ci95", [None, None])
        p = d.get("p_worse_holm", d.get("p_worse"))
        print(f"  {change:<10} {label:<9} {verdict:<13} {number(d.get('difference'), '+.4f'):>10} "
              f"[{number(ci[0], '+.4f')}, {number(ci[1], '+.4f')}] {number(p, '.2g'):>9}  {rc:>4}  {yes(ok)}")

# --jobs
def per_seed(folder):
    m = accuracy(folder)
    return list(zip(m["seeds"], m["samples"]))

times = {(j, kind): [] for j in (1, 2) for kind in ("study", "process")}
values = []
for section, _, folder, _, wall in rows:
    if section in ("jobs-1", "jobs-2"):
        j = int(section[-1])
        times[j, "study"].append(study(folder)["duration_s"])
        times[j, "process"].append(float(wall))
        values.append(per_seed(folder))
identical = all(v == values[0] for v in values)
print(f"\n--jobs on {TEST} ({len(values[0])} seeds, {len(values) // 2} runs each, medians; "
      f"{cores} cores, load average {load_before} before, {load_after} after)")
for kind in ("study", "process"):
    t1, t2 = statistics.median(times[1, kind]), statistics.median(times[2, kind])
    print(f"  {kind:<8} --jobs 1 {t1:.2f} s, --jobs 2 {t2:.2f} s, speed-up {t1 / t2:.2f}; "
          f"target >= 1.7 met: {yes(t1 / t2 >= 1.7)}")
print(f"  per-seed {METRIC} identical in all {len(values)} runs: {yes(identical)}")
EOF
