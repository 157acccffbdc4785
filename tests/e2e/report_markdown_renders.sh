#!/usr/bin/env bash
# `report --format markdown` rendered by cmark-gfm, the Markdown parser GitHub uses for job
# summaries and pull-request comments (with raw HTML on, as GitHub keeps <details> and <sub>):
# the headline, the BASE | HEAD | Δ | verdict table with the regression first and every cell in
# its column, a failure message with markup shown as text, the folded passes, the size limit.
# The same check on a copy with one unescaped '|' must fail, or it proves nothing.
#   report_markdown_renders.sh FIXTURE_BINARY
set -euo pipefail
fixture=${1:?usage: $0 FIXTURE_BINARY}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v cmark-gfm >/dev/null || fail "cmark-gfm is not installed (ci/install-deps.sh installs it)"
export MLREGRESS_REPO="$work"
cd "$work"

"$fixture" run --filter Passes:AllParameterTypes --out runs --color never >/dev/null
"$fixture" promote runs/latest --baselines baselines --reason first >/dev/null
# Passes regresses (value 1.5 -> 3); HostileText fails with markup in its message.
"$fixture" run --filter Passes:AllParameterTypes:HostileText --set Passes.value=3 \
  --baselines baselines --out runs --color never >/dev/null || true
"$fixture" report runs/latest --format markdown --out summary.md >/dev/null
[ "$(stat -c %s summary.md)" -le 64000 ] || fail "summary.md is larger than 64,000 bytes"

# check MARKDOWN_FILE: renders it and checks what GitHub would show.
check() {
  cmark-gfm -e table --unsafe "$1" >"$1.html"
  /usr/bin/python3 - "$1.html" <<'PY'
import sys
from html.parser import HTMLParser

class Tables(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables, self.cell, self.h2, self.in_h2, self.details = [], None, "", False, 0
    def handle_starttag(self, tag, attrs):
        if tag == "table": self.tables.append([])
        elif tag == "tr": self.tables[-1].append([])
        elif tag in ("td", "th"): self.cell = ""
        elif tag == "h2": self.in_h2 = True
        elif tag == "details": self.details += 1
    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.tables[-1][-1].append(self.cell.strip()); self.cell = None
        elif tag == "h2": self.in_h2 = False
    def handle_data(self, data):
        if self.cell is not None: self.cell += data
        if self.in_h2: self.h2 += data

page = Tables()
page.feed(open(sys.argv[1], encoding="utf-8").read())
problems = []
if not page.h2.startswith("❌ mlregress: FAILED — 1 test failed, 1 regression"):
    problems.append(f"headline {page.h2!r}")
metric_tables = [t for t in page.tables if t[0][:3] == ["test", "metric", "BASE"]]
if not metric_tables:
    problems.append("no BASE | HEAD | Δ | verdict table")
else:
    header, first = metric_tables[0][0], metric_tables[0][1]
    if header != ["test", "metric", "BASE", "HEAD", "Δ", "verdict", "why"]:
        problems.append(f"header {header}")
    if first[:6] != ["Fast.Passes", "value", "1.5", "3", "+1.5 (+100.0%)", "❌ REGRESSION"]:
        problems.append(f"first row {first}")
failed = [t for t in page.tables if t[0] == ["test", "status", "message"]]
if not failed or "</failure>]]> & \"quotes\"" not in failed[0][1][2]:
    problems.append("the failure message's markup is not shown as text")
if page.details != 1:
    problems.append(f"{page.details} folded sections, expected the passes in one")
if problems:
    print("\n".join("FAIL: " + p for p in problems)); sys.exit(1)
print(f"ok   {len(page.tables)} tables render as GitHub shows them; regression first, markup as text")
PY
}

check summary.md || fail "summary.md does not render as expected"
sed 's/+1.5 (+100.0%)/+1.5 | (+100.0%)/' summary.md >planted.md
if check planted.md >/dev/null; then fail "a row with an unescaped '|' passes the check: it proves nothing"; fi
echo "ok   a planted unescaped '|' is caught"
