#!/usr/bin/env bash
# Builds the libFuzzer targets in tests/fuzz/ with clang (ASan + UBSan, no CMake) into
# build-fuzz/, replays the saved reproducers, then fuzzes each target for SECONDS_PER_TARGET
# seconds and prints, per target: runs executed, exec/s, coverage, corpus size and findings.
# Exits non-zero when a target crashed, leaked, timed out or broke an invariant, or when a saved
# reproducer in tests/fuzz/regressions/ still fails.
#
#   ci/fuzz.sh [SECONDS_PER_TARGET=60]
#
# Environment:
#   FUZZ_CXX=clang++       a clang with libFuzzer (Debian: clang-14 + libclang-rt-14-dev)
#   FUZZ_TOML=header       header: compile toml++ into the target, instrumented, so the fuzzer
#                          sees coverage inside the TOML parser and ASan/UBSan check it (default);
#                          shared: link the system -ltomlplusplus like the CMake build does (the
#                          parser is then a black box to the fuzzer)
#   FUZZ_TOML_ASSERTS=0    1: keep toml++'s internal debug assertions in the header build. Off by
#                          default because the shipped libtomlplusplus.so is a release build
#                          (assertions compiled out), and toml++ 3.3.0 trips one on any table
#                          header that does not start with a key, e.g. "[=]" (parse_key()
#                          precondition; fixed upstream by marzer/tomlplusplus PR #301). With it
#                          on, that known third-party assert is found within seconds and stops
#                          the run. See tests/fuzz/regressions/fuzz_baseline_parser/.
#   FUZZ_JOBS=2            parallel compile jobs (these machines have 2 cores)
#   FUZZ_TARGETS="fuzz_baseline_parser fuzz_comparator"
#
# The committed seed corpus (tests/fuzz/corpus/<name>/) is copied to a scratch directory under
# build-fuzz/work/ before each run, so new inputs never land in the repository. Findings are
# written to build-fuzz/artifacts/<target>/ (crash-*, leak-*, timeout-*, oom-*); to keep one
# as a regression, copy it into tests/fuzz/regressions/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || ((seconds < 1)); then
  echo "usage: ci/fuzz.sh [SECONDS_PER_TARGET=60]" >&2
  exit 2
fi
cxx=${FUZZ_CXX:-clang++}
toml_mode=${FUZZ_TOML:-header}
jobs=${FUZZ_JOBS:-2}
targets=(${FUZZ_TARGETS:-fuzz_baseline_parser fuzz_comparator})
out=build-fuzz

command -v "$cxx" >/dev/null || { echo "fuzz.sh: $cxx not found (apt-get install clang-14 libclang-rt-14-dev)" >&2; exit 2; }

# ---------------------------------------------------------------- build
# The core sources each target needs. Linked with lld and --gc-sections: test_report.cc (for
# format_value) also defines format_test_report, which references run_collector.cc and tier.cc;
# dropping the unreferenced sections keeps the set minimal instead of pulling in half the core.
declare -A sources=(
  [fuzz_baseline_parser]="runner/src/core/baseline_toml.cc runner/src/core/metric.cc"
  [fuzz_comparator]="runner/src/core/comparator.cc runner/src/core/test_report.cc runner/src/core/metric.cc"
)
cxxflags=(-std=c++20 -g -O1 -fno-omit-frame-pointer -ffunction-sections -fdata-sections
          -fsanitize=address,undefined -fno-sanitize-recover=all
          -Irunner/include -Irunner/src/core)
ldflags=(-fuse-ld=lld -Wl,--gc-sections -fsanitize=fuzzer,address,undefined)
libs=(-lfmt)
case "$toml_mode" in
  header)
    cxxflags+=(-DTOML_HEADER_ONLY=1)
    # Not -DNDEBUG: with clang, toml++ turns its asserts into __builtin_assume() under NDEBUG,
    # which is UB when violated. A no-op TOML_ASSERT matches the GCC-built release .so instead.
    [[ "${FUZZ_TOML_ASSERTS:-0}" == 1 ]] || cxxflags+=("-DTOML_ASSERT(expr)=static_cast<void>(0)")
    ;;
  shared) cxxflags+=(-DTOML_HEADER_ONLY=0 -DTOML_SHARED_LIB=1); libs+=(-ltomlplusplus) ;;
  *) echo "fuzz.sh: FUZZ_TOML must be header or shared" >&2; exit 2 ;;
esac

mkdir -p "$out/obj"
# A flags change (FUZZ_TOML, compiler) invalidates every object.
stamp="$out/obj/flags.txt"
flags_now="$cxx ${cxxflags[*]}"
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$flags_now" ]]; then
  rm -f "$out"/obj/*.o "$out"/obj/*.d
  echo "$flags_now" > "$stamp"
fi

# obj_name SRC -> build-fuzz/obj/<path with / as _>.o
obj_name() { local s=${1//\//_}; echo "$out/obj/${s%.cc}.o"; }

# Up to date when the object and all headers it depends on (from its .d file) are older.
up_to_date() {
  local obj=$1 dep=${1%.o}.d
  [[ -f "$obj" && -f "$dep" ]] || return 1
  local f
  for f in $(sed -e 's/\\$//' -e 's/^[^:]*://' "$dep"); do
    [[ -e "$f" && ! "$f" -nt "$obj" ]] || return 1
  done
}

compile() {
  local src=$1 obj
  obj=$(obj_name "$src")
  up_to_date "$obj" && return 0
  echo "  compile $src"
  "$cxx" "${cxxflags[@]}" -fsanitize=fuzzer-no-link -MMD -MF "${obj%.o}.d" -c "$src" -o "$obj"
}

echo "== building fuzz targets ($cxx, toml++ $toml_mode) into $out/"
all_sources=()
for t in "${targets[@]}"; do
  [[ -n "${sources[$t]:-}" ]] || { echo "fuzz.sh: unknown target $t" >&2; exit 2; }
  all_sources+=("tests/fuzz/$t.cc" ${sources[$t]})
done
mapfile -t all_sources < <(printf '%s\n' "${all_sources[@]}" | sort -u)
pids=()
for src in "${all_sources[@]}"; do
  compile "$src" &
  pids+=($!)
  if ((${#pids[@]} >= jobs)); then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p"; done
for t in "${targets[@]}"; do
  objs=("$(obj_name "tests/fuzz/$t.cc")")
  for s in ${sources[$t]}; do objs+=("$(obj_name "$s")"); done
  "$cxx" "${ldflags[@]}" "${objs[@]}" "${libs[@]}" -o "$out/$t"
  echo "  linked $out/$t"
done

# ---------------------------------------------------------------- run
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

status=0
summary=()
for t in "${targets[@]}"; do
  short=${t#fuzz_}                        # baseline_parser, comparator
  corpus_name=${short%_parser}            # baseline, comparator
  seeds=tests/fuzz/corpus/$corpus_name
  regressions=tests/fuzz/regressions/$t
  artifacts=$out/artifacts/$t
  work=$out/work/$t
  rm -rf "$work"
  mkdir -p "$work/corpus" "$artifacts"
  [[ -d "$seeds" ]] && cp -r "$seeds"/. "$work/corpus/"
  seed_count=$(find "$work/corpus" -type f | wc -l)

  extra=()
  case "$t" in
    fuzz_baseline_parser) extra=(-dict=tests/fuzz/toml.dict -max_len=8192) ;;
    fuzz_comparator) extra=(-max_len=256) ;;
  esac

  # Saved reproducers first: each must now run clean.
  regress_note="none saved"
  if [[ -d "$regressions" ]] && [[ -n "$(ls -A "$regressions")" ]]; then
    failing=()
    for input in "$regressions"/*; do
      if ! "$out/$t" -runs=1 "${extra[@]}" "$input" > "$work/regression-$(basename "$input").log" 2>&1; then
        failing+=("$(basename "$input")")
      fi
    done
    total=$(ls -A "$regressions" | wc -l)
    if ((${#failing[@]} > 0)); then
      regress_note="${#failing[@]}/$total STILL FAIL: ${failing[*]} (logs: $work/regression-*.log)"
      status=1
    else
      regress_note="$total pass"
    fi
  fi

  echo
  echo "== $t: fuzzing for ${seconds}s from $seed_count seed(s)"
  log=$work/fuzz.log
  set +e
  "$out/$t" "$work/corpus" "${extra[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$artifacts/" > "$log" 2>&1
  rc=$?
  set -e

  runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  [[ -n "$runs" ]] || runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[bKM]*\).*/\1/p' <<<"$last")
  if [[ -n "$runs" && -n "$secs" && "$secs" -gt 0 ]]; then eps=$((runs / secs)); else
    eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1); fi
  corpus_files=$(find "$work/corpus" -type f | wc -l)
  finding="no"
  if ((rc != 0)); then
    finding="YES (exit $rc): $(grep -m1 -E '^==[0-9]+==ERROR|SUMMARY:|runtime error|=== fuzz_|deadly signal|uncaught|terminate' "$log" || echo "see $log")"
    status=1
  fi
  echo "   runs executed : ${runs:-?} in ${secs:-?}s (${eps:-?} exec/s)"
  echo "   coverage      : cov ${cov:-?} edges, ft ${ft:-?} features"
  echo "   corpus        : $corpus_files files (libFuzzer: ${corp:-?}), seeds $seed_count"
  echo "   regressions   : $regress_note"
  echo "   crash found   : $finding"
  if ((rc != 0)); then
    echo "   artifacts     : $(ls "$artifacts" | tr '\n' ' ')"
    echo "   log           : $log"
  fi
  summary+=("$t: runs=${runs:-?} exec/s=${eps:-?} cov=${cov:-?} ft=${ft:-?} corpus=$corpus_files crash=$finding")
done

echo
echo "== summary (${seconds}s per target)"
printf '   %s\n' "${summary[@]}"
exit $status
