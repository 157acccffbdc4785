#!/usr/bin/env bash
# Builds mlregress's torch-free part with AddressSanitizer + UndefinedBehaviorSanitizer (the
# machine's default g++, Debug, MLREGRESS_WITH_TORCH=OFF) in build-asan/ and runs the unit and
# end-to-end tests under them, leak checking on. Exits non-zero when a test fails or when any
# process, however deep (the e2e tests run the fixture binary, which forks workers), wrote a
# sanitizer report.
#
#   ci/sanitize.sh [extra ctest arguments...]
#
# Environment: SANITIZE_BUILD_DIR (build-asan), SANITIZE_JOBS (2), SANITIZE_CXX (g++).
#
# Why the sanitizer options below:
# - handle_segv=0, handle_abort=0: the fixture suite plants a segfault (raise(SIGSEGV)) and an
#   abort() in worker processes, and the e2e tests check that the runner reports "killed by
#   signal 11" / "signal 6". With ASan's SEGV handler on, the planted segfault turns into an ASan
#   report and exit code 1, and the e2e test fails on an expected crash. Memory errors are still
#   caught: ASan finds them through its instrumentation, not through SIGSEGV. (What is lost: a
#   wild read of unmapped memory crashes as a plain signal 11 instead of with an ASan report; the
#   test still fails.)
# - log_path: reports go to files under $log_dir rather than stderr. A report in a grandchild
#   (a fixture worker) would otherwise only change that worker's exit status, which the runner
#   turns into a "crashed" result that an e2e test expecting a crash might accept. Every report
#   lands in a file, and any file there fails this script, with its stack printed.
# - -fno-sanitize-recover=undefined (in the flags): UB stops the process at the first report.
# - detect_leaks=1: LeakSanitizer at exit of every process that exits normally (forked workers
#   leave with _exit() and are not leak checked; the runner and unit test processes are).
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${SANITIZE_BUILD_DIR:-build-asan}
jobs=${SANITIZE_JOBS:-2}
cxx=${SANITIZE_CXX:-g++}
sanitize_flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"

echo "== configuring $build_dir ($cxx, Debug, ASan+UBSan, MLREGRESS_WITH_TORCH=OFF)"
cmake -S . -B "$build_dir" -G Ninja \
  -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_BUILD_TYPE=Debug \
  -DMLREGRESS_WITH_TORCH=OFF \
  -DCMAKE_CXX_FLAGS="$sanitize_flags" \
  -DCMAKE_EXE_LINKER_FLAGS="$sanitize_flags" \
  -DCMAKE_SHARED_LINKER_FLAGS="$sanitize_flags" \
  -DCMAKE_MODULE_LINKER_FLAGS="$sanitize_flags"

log_dir=$(cd "$build_dir" && pwd)/sanitizer-logs
rm -rf "$log_dir"
mkdir -p "$log_dir"
# gtest_discover_tests runs the test binaries at build time; report anything they do as well.
export ASAN_OPTIONS="detect_leaks=1:handle_segv=0:handle_abort=0:detect_stack_use_after_return=1:strict_init_order=1:check_initialization_order=1:log_path=$log_dir/asan"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$log_dir/ubsan"
export LSAN_OPTIONS="log_path=$log_dir/lsan"

echo "== building $build_dir (-j$jobs)"
cmake --build "$build_dir" -j "$jobs"

echo "== ctest -L 'unit|e2e' under ASan/UBSan/LSan (reports: $log_dir)"
set +e
(cd "$build_dir" && ctest --output-on-failure -j "$jobs" -L "unit|e2e" "$@")
ctest_rc=$?
set -e

reports=("$log_dir"/*)
[[ -e "${reports[0]}" ]] || reports=()
echo
if ((${#reports[@]} > 0)); then
  echo "== ${#reports[@]} sanitizer report file(s):"
  for r in "${reports[@]}"; do
    echo "---- $r"
    cat "$r"
  done
fi
echo "== result: ctest exit $ctest_rc, ${#reports[@]} sanitizer report file(s)"
if ((ctest_rc != 0 || ${#reports[@]} > 0)); then exit 1; fi
