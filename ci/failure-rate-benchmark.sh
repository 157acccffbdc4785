#!/usr/bin/env bash
# Failure-rate gate benchmark: does the sequential design for a flaky outcome detect a rise from
# a baseline rate of 2% to 20% at alpha 0.01 with power >= 0.9 in a median of <= 12 attempts,
# without crying wolf? Simulates SEQUENCES sequences of attempts per row through the gate's
# decide_at_look (tests/benchmarks/failure_rate_benchmark.cc) and prints first the line
#
#   false_alarm=X power=Y median_runs=Z p90_runs=W
#
# (a look after every attempt, cap 60; false_alarm over sequences at 2%, the rest at 20%), then
# the table: per block (1, 2, 4) and failure rate (2%, 5%, 10%, 20%) the verdict shares with
# Clopper-Pearson 95% intervals and the attempts taken, each beside the exact figure of the
# dynamic programme; the false alarms and power when p0 is estimated from a baseline of 50, 100
# or 200 attempts (a fresh baseline per sequence); and the fixed-n exact binomial design as a
# cross-check. Deterministic (fixed seeds); well under a minute.
#
# A benchmark, not a test: it exits non-zero only when something failed to run, never on a
# figure. Builds nothing.
#
# Usage: ci/failure-rate-benchmark.sh BUILD_DIR [SEQUENCES=20000]
set -euo pipefail
export LC_ALL=C

usage() {
  cat >&2 <<'EOF_USAGE'
usage: ci/failure-rate-benchmark.sh BUILD_DIR [SEQUENCES]

  BUILD_DIR  a CMake build folder with failure_rate_benchmark built:
               cmake --build BUILD_DIR --target failure_rate_benchmark
  SEQUENCES  simulated sequences per row (default 20000; the issue's figures need >= 20000)

Prints the headline line, then the table. Exits non-zero only if the benchmark failed to run.
EOF_USAGE
}

die() {
  echo "failure-rate-benchmark: $*" >&2
  exit 1
}

[[ $# -ge 1 && $# -le 2 ]] || { usage; exit 64; }
build=$1
sequences=${2:-20000}
[[ $sequences =~ ^[1-9][0-9]*$ ]] || { usage; exit 64; }
bin=$build/tests/benchmarks/failure_rate_benchmark
[[ -x $bin ]] || die "no executable $bin (cmake --build $build --target failure_rate_benchmark)"

exec "$bin" "$sequences"
