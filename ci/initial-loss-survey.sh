#!/usr/bin/env bash
# The initial-loss check's default tolerance on healthy models (runner/docs/checks.md#initial-loss):
# the example suites' models and real-sized text classifiers, each freshly initialised under
# SEEDS seeds (default 100), with the CPU it ran on. A benchmark script: it prints a table and
# never fails on it. Builds the survey in BUILD_DIR (default build/) first.
#   ci/initial-loss-survey.sh [BUILD_DIR] [SEEDS]
set -euo pipefail
build=${1:-build}
log=$(cmake --build "$build" --target initial_loss_survey 2>&1) || { echo "$log" >&2; exit 1; }
survey="$build/tests/benchmarks/initial_loss_survey"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
"$survey" "${2:-100}"
