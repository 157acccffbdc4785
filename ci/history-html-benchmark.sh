#!/usr/bin/env bash
# history --format html at scale: RUNS synthetic run folders (one a commit, a day apart) of 200
# metrics (20 tests × 10), written by tests/benchmarks/history_runs.cc in the real results.json
# format, one metric 5% higher from 60% of the runs on. Prints:
#
#   generate_s    writing the run folders
#   history_s     history --format html over them: read every results.json, find the change
#                 points of each series, write the page (wall time; peak_rss_mb its memory)
#   page_bytes    the page's size (page_gzip_bytes: gzip -6 of it, for an artifact store)
#   load_ms       in Chromium, from setting the page as an <iframe>'s src to its load event:
#                 reading and parsing the HTML, building the DOM and the SVGs
#   layout_ms     to the end of the first style and layout of the whole page (forced by reading
#                 its scroll height), from the same start
#   screenshot_s  wall time of `chromium --headless=new --screenshot` of the page (start the
#                 browser, load, lay out, paint the 1200×1900 viewport, write the PNG), the median
#                 of 3; blank_screenshot_s the same for an empty page; render_s the difference:
#                 what this page costs beyond starting a browser
#   full_screenshot_s  the same with a window as tall as the whole page (page_height_px), so
#                 that every chart and row is painted at once (one measurement);
#                 blank_full_screenshot_s an empty page in that window: most of both is
#                 rasterising and PNG-encoding a 1200 × page_height image
#   marks         the change-point marks Chromium laid out (the planted one, and any other)
#
# The acceptance figures of issue 30: page_bytes ≤ 10 MB and the page renders in ≤ 5 s.
# A benchmark, not a test: it exits non-zero only when something failed to run, never on a
# figure. Builds nothing.
#
# Usage: ci/history-html-benchmark.sh BUILD_DIR [RUNS=1000] [BINARY]
#   BUILD_DIR  a CMake build folder with history_runs and mlregress_fixture_suite built
#              (cmake --build BUILD_DIR --target history_runs mlregress_fixture_suite)
#   BINARY     the mlregress binary whose history command runs (default: the fixture suite; any
#              suite binary has the same command)
set -euo pipefail
export LC_ALL=C
build=$(readlink -f "${1:?usage: ci/history-html-benchmark.sh BUILD_DIR [RUNS] [BINARY]}")
runs=${2:-1000}
binary=${3:-$build/tests/fixture/mlregress_fixture_suite}
here=$(cd "$(dirname "$0")/.." && pwd)
generate=$build/tests/benchmarks/history_runs
for tool in "$generate" "$binary"; do
  [ -x "$tool" ] || { echo "not built: $tool" >&2; exit 2; }
done
command -v chromium >/dev/null || { echo "chromium is not installed" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() { python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.2f}")' "$@"; }

start=$(date +%s.%N)
"$generate" "$work/runs" --runs "$runs" --tests 20 --per-test 10 --shift 0.05 \
  --shift-at $((runs * 6 / 10)) >/dev/null
echo "generate_s=$(seconds "$start" "$(date +%s.%N)") runs=$runs metrics=200"

# --repo: a folder that is no git repository, so the commits are ordered by their first runs
# (as in CI without a clone); each commit still costs one git call that fails.
start=$(date +%s.%N)
(cd "$work" && /usr/bin/time -f "%M" -o "$work/rss" "$binary" history runs --repo "$work" \
  --format html --out history.html >"$work/history.log" 2>&1) \
  || { cat "$work/history.log"; exit 1; }
echo "history_s=$(seconds "$start" "$(date +%s.%N)") peak_rss_mb=$(( $(cat "$work/rss") / 1024 ))"
echo "page_bytes=$(stat -c %s "$work/history.html")" \
  "page_gzip_bytes=$(gzip -6 -c "$work/history.html" | wc -c)"

bash "$here/tests/e2e/history_page_probe.sh" "$work/history.html" >"$work/probe.json"
height=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["page_height"])' \
  "$work/probe.json")
python3 - "$work/probe.json" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
print(f"load_ms={p['load_ms']:.0f} layout_ms={p['layout_ms']:.0f} page_height_px={p['page_height']}"
      f" charts={p['charts']}")
print("marks=" + "; ".join(f"{m['series']} {m['kind']}" for m in p["marks"]))
EOF

screenshot() {  # screenshot PAGE [HEIGHT]: wall seconds of one headless screenshot
  local started
  rm -rf "$work/profile"
  started=$(date +%s.%N)
  timeout 120 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile" --window-size="1200,${2:-1900}" --screenshot="$work/shot.png" \
    "file://$1" >/dev/null 2>&1
  seconds "$started" "$(date +%s.%N)"
}
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
printf '<!DOCTYPE html><title>blank</title>' >"$work/blank.html"
screenshot "$work/blank.html" >/dev/null  # warm the disk cache
page=$(median3 "$(screenshot "$work/history.html")" "$(screenshot "$work/history.html")" \
  "$(screenshot "$work/history.html")")
blank=$(median3 "$(screenshot "$work/blank.html")" "$(screenshot "$work/blank.html")" \
  "$(screenshot "$work/blank.html")")
echo "screenshot_s=$page blank_screenshot_s=$blank render_s=$(seconds "$blank" "$page")"
echo "full_screenshot_s=$(screenshot "$work/history.html" "$height")" \
  "blank_full_screenshot_s=$(screenshot "$work/blank.html" "$height") window=1200x$height"
