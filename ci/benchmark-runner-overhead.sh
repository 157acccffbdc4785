#!/usr/bin/env bash
# Runner-overhead benchmark: the same overfit training loop (Fast.CnnOverfitsOneBatch) in a bare
# main() (A: bench_overfit_bare) and as an mlregress test (B: mlregress_suites run --filter ...),
# reported as the ratio B/A of medians. Target: B/A <= 1.03.
#
# Two views are measured in every run:
#   whole process  wall-clock of each process, taken by this script (EPOCHREALTIME). B includes
#                  what the runner adds: CLI, the forked worker, the environment probe, writing
#                  the run folder (results.json, junit.xml, curves CSV).
#   in process     A prints loop_seconds (std::chrono around train_on_batch only); B's is the
#                  test's own duration, tests[0].duration_s in the run folder's results.json
#                  (measured by the runner around the whole test body: batch + model + training
#                  + record calls). A's body_seconds (batch + model + training) is shown too.
# Runs are interleaved A B / B A / A B ... so that drift on the machine hits both alike; one
# untimed warm-up run of each comes first (page cache, dynamic loader).
#
# This is a benchmark, not a test: it exits non-zero only when something failed to run (a binary
# missing or crashing, the test not passing, output that cannot be read), never on a ratio.
#
# Usage: ci/benchmark-runner-overhead.sh BUILD_DIR [ROUNDS=10]
set -euo pipefail
export LC_ALL=C  # EPOCHREALTIME and printf use "." as the decimal point

usage() {
  cat >&2 <<'EOF'
usage: ci/benchmark-runner-overhead.sh BUILD_DIR [ROUNDS]

  BUILD_DIR  a CMake build folder in which these targets are built:
               cmake --build BUILD_DIR --target bench_overfit_bare mlregress_suites
  ROUNDS     positive integer, rounds of one bare run + one mlregress run (default 10)

Prints median whole-process and in-process times of the bare loop (A) and of the mlregress test
Fast.CnnOverfitsOneBatch (B), their ratios B/A (target <= 1.03), and checks that both computed
the same final loss. Exits non-zero only if a run failed, never on the ratio.
EOF
}

die() {
  echo "benchmark-runner-overhead: $*" >&2
  exit 1
}

if [[ $# -lt 1 || $# -gt 2 ]]; then
  usage
  exit 2
fi
case "$1" in -h | --help) usage; exit 0 ;; esac

build_dir=$1
rounds=${2:-10}
if [[ ! "$rounds" =~ ^[1-9][0-9]*$ ]]; then
  echo "benchmark-runner-overhead: ROUNDS must be a positive integer, got '$rounds'" >&2
  usage
  exit 2
fi
if [[ ! -d "$build_dir" ]]; then
  echo "benchmark-runner-overhead: BUILD_DIR '$build_dir' is not a directory" >&2
  usage
  exit 2
fi

bare_bin="$build_dir/tests/benchmarks/bench_overfit_bare"
suite_bin="$build_dir/suites/mlregress_suites"
test_name="Fast.CnnOverfitsOneBatch"
for bin in "$bare_bin" "$suite_bin"; do
  [[ -x "$bin" ]] || die "'$bin' not found or not executable; build it first:
  cmake --build '$build_dir' --target bench_overfit_bare mlregress_suites"
done
command -v python3 >/dev/null || die "python3 is required"
[[ -n "${EPOCHREALTIME:-}" ]] || die "bash >= 5 is required (EPOCHREALTIME)"

work=$(mktemp -d "${TMPDIR:-/tmp}/mlregress-overhead.XXXXXX")
keep_work=0
cleanup() { if [[ $keep_work -eq 0 ]]; then rm -rf "$work"; fi; }
trap cleanup EXIT

# Records, one line per timed run: kind round order wall_s inner_s body_s final_loss
records="$work/records.tsv"
: >"$records"

fail_run() {  # fail_run LOG MESSAGE
  keep_work=1
  echo "benchmark-runner-overhead: $2" >&2
  echo "--- last lines of $1 ---" >&2
  tail -n 30 "$1" >&2 || true
  echo "--- (work folder kept: $work) ---" >&2
  exit 1
}

# run_bare ROUND ORDER: one whole-process run of the bare loop; ROUND 0 = warm-up (not recorded).
run_bare() {
  local round=$1 order=$2 log="$work/bare.$1.log" start end parsed
  start=$EPOCHREALTIME
  if ! "$bare_bin" >"$log" 2>&1; then
    fail_run "$log" "bench_overfit_bare failed (round $round)"
  fi
  end=$EPOCHREALTIME
  if ! parsed=$(python3 - "$log" <<'EOF'
import sys
values = {}
for line in open(sys.argv[1]):
    key, sep, value = line.strip().partition("=")
    if sep:
        values[key] = value
for key in ("loop_seconds", "body_seconds", "final_loss"):
    float(values[key])  # present and numeric, or raise
print(values["loop_seconds"], values["body_seconds"], values["final_loss"])
EOF
  ); then
    fail_run "$log" "cannot read loop_seconds/body_seconds/final_loss from bench_overfit_bare output"
  fi
  [[ $round -eq 0 ]] && return 0
  local loop body loss
  read -r loop body loss <<<"$parsed"
  printf 'bare\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$order" \
    "$(python3 -c "print(f'{$end - $start:.6f}')")" "$loop" "$body" "$loss" >>"$records"
}

# run_suite ROUND ORDER: one whole-process run of the mlregress test into a fresh --out folder.
run_suite() {
  local round=$1 order=$2 log="$work/suite.$1.log" out="$work/runs.$1" start end parsed
  mkdir -p "$out"
  start=$EPOCHREALTIME
  if ! "$suite_bin" run --filter "$test_name" --out "$out" --color never >"$log" 2>&1; then
    fail_run "$log" "mlregress_suites run --filter $test_name failed (round $round)"
  fi
  end=$EPOCHREALTIME
  if ! parsed=$(python3 - "$out" "$test_name" 2>>"$log" <<'EOF'
import glob, json, os, sys
out, name = sys.argv[1], sys.argv[2]
path = os.path.join(out, "latest", "results.json")
if not os.path.exists(path):
    found = glob.glob(os.path.join(out, "*", "results.json"))
    if len(found) != 1:
        sys.exit(f"expected one run folder with results.json under {out}, found {len(found)}")
    path = found[0]
with open(path) as f:
    results = json.load(f)
tests = results["tests"]
if len(tests) != 1 or tests[0]["full_name"] != name:
    sys.exit(f"expected exactly {name} in {path}, got {[t.get('full_name') for t in tests]}")
test = tests[0]
if test["status"] != "passed":
    sys.exit(f"{name} did not pass: status {test['status']}")
loss = [m["value"] for m in test["metrics"] if m["name"] == "final_loss"]
if len(loss) != 1 or not isinstance(loss[0], (int, float)):
    sys.exit(f"no numeric final_loss metric in {path}")
print(repr(float(test["duration_s"])), repr(float(loss[0])))
EOF
  ); then
    fail_run "$log" "cannot read tests[0].duration_s / final_loss from the run folder under $out"
  fi
  rm -rf "$out"
  [[ $round -eq 0 ]] && return 0
  local duration loss
  read -r duration loss <<<"$parsed"
  printf 'mlregress\t%s\t%s\t%s\t%s\t-\t%s\n' "$round" "$order" \
    "$(python3 -c "print(f'{$end - $start:.6f}')")" "$duration" "$loss" >>"$records"
}

echo "runner overhead: $test_name, bare main (A) vs mlregress test (B)"
echo "  A: $bare_bin"
echo "  B: $suite_bin run --filter $test_name --out <tmp> --color never"
echo "  $rounds rounds, interleaved, first alternating; 1 untimed warm-up of each;" \
  "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"

run_bare 0 0
run_suite 0 0
for ((round = 1; round <= rounds; round++)); do
  if ((round % 2 == 1)); then
    run_bare "$round" 1
    run_suite "$round" 2
  else
    run_suite "$round" 1
    run_bare "$round" 2
  fi
  if [[ -t 2 ]]; then printf '  round %d/%d done\r' "$round" "$rounds" >&2; fi
done
if [[ -t 2 ]]; then echo >&2; fi

python3 - "$records" <<'EOF'
import statistics, sys

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
bare = [r for r in rows if r[0] == "bare"]
suite = [r for r in rows if r[0] == "mlregress"]

def column(rs, i):
    return [float(r[i]) for r in rs]

def median(xs):
    return statistics.median(xs)

wall_a, wall_b = column(bare, 3), column(suite, 3)
loop_a, dur_b = column(bare, 4), column(suite, 4)
body_a = column(bare, 5)
loss_a, loss_b = column(bare, 6), column(suite, 6)

def line(label, a, b, note=""):
    ma, mb = median(a), median(b)
    print(f"{label:<34}{ma:>10.4f}{mb:>10.4f}{mb / ma:>9.3f}   "
          f"[A {min(a):.4f}-{max(a):.4f}, B {min(b):.4f}-{max(b):.4f}]{note}")

print()
print(f"{'median seconds over ' + str(len(bare)) + ' rounds':<34}{'A bare':>10}{'B test':>10}{'B/A':>9}   range")
line("whole process (wall clock)", wall_a, wall_b)
line("in process: loop vs test duration", loop_a, dur_b)
line("in process: body vs test duration", body_a, dur_b)
print("  A loop = train_on_batch only (loop_seconds); A body = batch + model + training;")
print("  B test duration = tests[0].duration_s (runner's timing of the whole test body).")

whole = median(wall_b) / median(wall_a)
inner = median(dur_b) / median(loop_a)
verdict = lambda r: "within target" if r <= 1.03 else "above target"
print(f"target B/A <= 1.03: whole process {whole:.3f} ({verdict(whole)}), "
      f"in process {inner:.3f} ({verdict(inner)}) -- informational, never fails")

same_a = len(set(loss_a)) == 1
same_b = len(set(loss_b)) == 1
equal = same_a and same_b and loss_a[0] == loss_b[0]
print(f"final loss: A {loss_a[0]!r}{'' if same_a else ' (varies across runs!)'}, "
      f"B {loss_b[0]!r}{'' if same_b else ' (varies across runs!)'} -> "
      f"{'EQUAL (same computation)' if equal else 'DIFFERENT: the two sides do not compute the same thing'}")
if not equal:
    print("WARNING: final losses differ; the ratios above do not compare like with like",
          file=sys.stderr)
EOF
