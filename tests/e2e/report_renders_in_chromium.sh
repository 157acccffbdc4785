#!/usr/bin/env bash
# report.html looked at as a person would: headless Chromium (Debian's chromium) opens the page
# of a passing run and of a run with a regression, an INCONCLUSIVE-prone seed study and a curve
# that leaves its reference, takes a screenshot of each, and report_page_check.py reads the DOM
# it built and its network log. Two planted pages prove the checks can fail: one that fetches an
# image (a network request) and one whose CSP blocks a fetch (a console violation).
#   report_renders_in_chromium.sh SUITES_BINARY [SCREENSHOT_DIR]
# With SCREENSHOT_DIR the screenshots are kept there (runner/docs/ holds the ones in the README).
set -euo pipefail
binary=${1:?usage: $0 SUITES_BINARY [SCREENSHOT_DIR]}
keep=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v chromium >/dev/null || fail "chromium is not installed (ci/install-deps.sh installs it)"
export MLREGRESS_REPO="$work"

# open NAME PAGE [MIN_PNG_BYTES]: screenshot, DOM, network log and console of PAGE in headless
# Chromium.
open_page() {
  local name=$1 page=$2 min_png=${3:-20000}
  # --disable-background-networking keeps the browser's own traffic down; the check keeps only
  # what the page asked for anyway.
  timeout 120 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
    --no-first-run --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile-$name" --window-size=1200,1900 \
    --enable-logging=stderr --v=0 --log-net-log="$work/$name.netlog.json" \
    --screenshot="$work/$name.png" "file://$page" 2>"$work/$name.stderr" >/dev/null \
    || { tail -20 "$work/$name.stderr"; fail "$name: chromium could not take a screenshot"; }
  timeout 120 chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile-$name-dom" --dump-dom "file://$page" \
    >"$work/$name.dom.html" 2>>"$work/$name.stderr" || fail "$name: chromium could not dump the DOM"
  [ "$(head -c 8 "$work/$name.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] \
    || fail "$name: the screenshot is not a PNG"
  [ "$(stat -c %s "$work/$name.png")" -gt "$min_png" ] || fail "$name: the screenshot is nearly empty"
}

check() {
  /usr/bin/python3 "$here/report_page_check.py" "$work/$1.dom.html" "$work/$1.netlog.json" \
    "$work/$1.stderr" "${@:2}"
}

filter=CnnOverfitsOneBatch:XorSeedStudy
"$binary" run --filter "$filter" --out "$work/reference" --color never >"$work/reference.log" 2>&1 \
  || { cat "$work/reference.log"; fail "the reference run failed"; }
reference=$(readlink -f "$work/reference/latest")
# A learning rate ten times too small: the loss curve leaves the reference at once and the final
# loss regresses; 300 steps instead of 400 move the seed study's accuracy by about its margin.
"$binary" run --filter "$filter" --out "$work/candidate" --color never \
  --set CnnOverfitsOneBatch.lr=0.0001 --set XorSeedStudy.steps=300 >"$work/candidate.log" 2>&1 || true
candidate=$(readlink -f "$work/candidate/latest")
"$binary" report "$candidate" --against "$reference" --out "$work/regressed.html" >/dev/null

open_page passing "$reference/report.html"
check passing "$reference/results.json" PASSED
open_page regressed "$work/regressed.html"
check regressed "$candidate/results.json" REGRESSION,FAILED --diverged

printf '<!DOCTYPE html><html><body><p>x</p><img src="http://127.0.0.1:9/x.png"></body></html>' \
  >"$work/fetches.html"
printf '%s' "<!DOCTYPE html><html><head><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\"></head><body><img src=\"http://127.0.0.1:9/x.png\"></body></html>" \
  >"$work/blocked.html"
for planted in fetches blocked; do
  open_page "$planted" "$work/$planted.html" 0
  if check "$planted" --network-only >/dev/null; then
    fail "the planted page '$planted' passes the check: it proves nothing"
  fi
done
echo "ok   planted pages that fetch or try to fetch are caught"

if [ -n "$keep" ]; then
  cp "$work/passing.png" "$keep/report-passing.png"
  cp "$work/regressed.png" "$keep/report-regression.png"
  echo "screenshots: $keep/report-passing.png $keep/report-regression.png"
fi
