#!/usr/bin/env bash
# history --format html looked at in headless Chromium: 60 synthetic runs (one a commit) of 6
# metrics, one of them 10% higher from the 37th commit on (tests/benchmarks/history_runs.cc).
# The rendered page must mark that series, and only it, with a drawn line and a visible label
# "regression at #37 ..." (history_page_probe.sh reads what Chromium laid out), draw a chart per
# series, and neither run a script nor request anything (report_page_check.py reads Chromium's
# network log and console). The same runs without the step must show no mark: the check fails
# when nothing is planted.
#   history_page_renders_in_chromium.sh MLREGRESS_BINARY HISTORY_RUNS_BINARY
set -euo pipefail
binary=$(readlink -f "${1:?usage: $0 MLREGRESS_BINARY HISTORY_RUNS_BINARY}")
generate=$(readlink -f "${2:?usage: $0 MLREGRESS_BINARY HISTORY_RUNS_BINARY}")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v chromium >/dev/null || fail "chromium is not installed (ci/install-deps.sh installs it)"

# page NAME SHIFT: runs and their history page under $work/NAME, and what Chromium showed of it.
page() {
  mkdir -p "$work/$1"
  "$generate" "$work/$1/runs" --runs 60 --tests 3 --per-test 2 --shift "$2" --shift-at 36 >/dev/null
  (cd "$work/$1" && "$binary" history runs --repo "$work" --format html --out history.html) \
    >"$work/$1.log" 2>&1 || { cat "$work/$1.log"; fail "$1: history --format html failed"; }
  bash "$here/history_page_probe.sh" "$work/$1/history.html" >"$work/$1.json" \
    || fail "$1: Chromium did not render the page"
}
page shifted 0.1
page flat 0

cat >"$work/check.py" <<'EOF'
import json, sys
shifted, flat = (json.load(open(p)) for p in sys.argv[1:3])
problems = []
for name, page in (("shifted", shifted), ("flat", flat)):
    if page["charts"] != 6 or page["paths"] != 6:
        problems.append(f"{name}: {page['charts']} charts, {page['paths']} paths for 6 series")
    if page["scripts"]:
        problems.append(f"{name}: the page has a script")
marks = shifted["marks"]
if [m["series"].split(" (")[0] for m in marks] != ["Fast.T0 loss0"]:
    problems.append(f"shifted: marks {marks}, expected one on Fast.T0 loss0")
elif marks[0]["kind"] != "cp-regression" or marks[0]["box"][1] < 20:
    problems.append(f"shifted: the mark is not a drawn regression line: {marks[0]}")
labels = shifted["labels"]
if (len(labels) != 1 or not labels[0]["text"].startswith("regression at #37 ")
        or labels[0]["box"][0] <= 0 or labels[0]["box"][1] <= 0
        or labels[0]["visibility"] != "visible"):
    problems.append(f"shifted: the label is not visible 'regression at #37 ...': {labels}")
if flat["marks"] or flat["labels"]:
    problems.append(f"flat: marks {flat['marks']} labels {flat['labels']} without a planted step")
print("\n".join("FAIL: " + p for p in problems) or
      f"ok   the planted step is marked and labelled: {labels[0]['text']!r}; the flat page has none")
sys.exit(1 if problems else 0)
EOF
/usr/bin/python3 "$work/check.py" "$work/shifted.json" "$work/flat.json" \
  || fail "the rendered pages are wrong"
# The check must fail when nothing is planted: the flat page in the shifted page's place.
if /usr/bin/python3 "$work/check.py" "$work/flat.json" "$work/flat.json" >/dev/null; then
  fail "the check passes a page without the planted step: it proves nothing"
fi
echo "ok   the check fails on the page without the step"

# No request and no blocked load, as report.html (report_page_check.py --network-only).
timeout 120 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$work/profile" --window-size=1200,1900 --enable-logging=stderr --v=0 \
  --log-net-log="$work/netlog.json" --screenshot="$work/shifted.png" \
  "file://$work/shifted/history.html" 2>"$work/chromium.stderr" >/dev/null \
  || fail "chromium could not take a screenshot"
: >"$work/unused.dom"  # --network-only reads no DOM
/usr/bin/python3 "$here/report_page_check.py" "$work/unused.dom" "$work/netlog.json" \
  "$work/chromium.stderr" --network-only || fail "the page made a request or tried a load"
echo "ok   no request, no script"
