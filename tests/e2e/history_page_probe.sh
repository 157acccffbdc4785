#!/usr/bin/env bash
# Opens a history page (history --format html) in headless Chromium as a person would see it and
# prints what the rendered page shows, as one JSON line: the change-point marks (each <line> of a
# chart with its drawn height) and their labels (their visible text, innerText, which leaves out
# what CSS hides, and their box), the series charts drawn, and the time the page took to parse,
# load and lay out. The page itself has no script: a probe page beside it loads it in an
# <iframe> of the window's size and reads its DOM after layout (Chromium reads a file://
# iframe's DOM only with --allow-file-access-from-files). --dump-dom prints the probe's DOM after
# its load event, which waits for the iframe's.
#   history_page_probe.sh PAGE > probe.json
# Used by history_page_renders_in_chromium.sh and ci/history-html-benchmark.sh.
set -euo pipefail
page=$(readlink -f "${1:?usage: $0 PAGE}")
command -v chromium >/dev/null || { echo "chromium is not installed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
probe="$(dirname "$page")/.history-probe-$$.html"
trap 'rm -rf "$work" "$probe"' EXIT
cat >"$probe" <<EOF
<!DOCTYPE html><html><body><pre id="result">not loaded</pre><script>
const frame = document.createElement("iframe");
frame.style.width = "1200px"; frame.style.height = "1900px";
const started = performance.now();
frame.onload = () => {
  const loaded = performance.now();
  const doc = frame.contentDocument;
  const height = doc.documentElement.scrollHeight;  // forces style and layout
  const laid_out = performance.now();
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; };
  const result = {
    load_ms: loaded - started, layout_ms: laid_out - started, page_height: height,
    charts: doc.querySelectorAll("svg[data-plot=history]").length,
    paths: doc.querySelectorAll("svg[data-plot=history] path").length,
    marks: Array.from(doc.querySelectorAll("svg line[class^=cp-]")).map((e) => ({
      kind: e.getAttribute("class"), figure: e.closest("figure").id,
      series: e.closest("figure").querySelector("figcaption").title, box: box(e),
      stroke: getComputedStyle(e).stroke})),
    labels: Array.from(doc.querySelectorAll("figure p.cp")).map((e) => ({
      figure: e.closest("figure").id, text: e.innerText, box: box(e),
      visibility: getComputedStyle(e).visibility})),
    scripts: doc.querySelectorAll("script").length,
  };
  document.getElementById("result").textContent = JSON.stringify(result);
};
frame.src = "$(basename "$page")";
document.body.appendChild(frame);
</script></body></html>
EOF
timeout 120 chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --allow-file-access-from-files --user-data-dir="$work/profile" --window-size=1300,2000 \
  --dump-dom "file://$probe" >"$work/dom.html" 2>"$work/stderr" \
  || { tail -20 "$work/stderr" >&2; echo "chromium could not open $probe" >&2; exit 1; }
/usr/bin/python3 - "$work/dom.html" <<'EOF'
import html, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
if not m or not m.group(1).startswith("{"):
    sys.exit(f"the probe did not read the page: {m.group(1) if m else 'no result'}")
print(html.unescape(m.group(1)))
EOF
