#!/usr/bin/env bash
# `report --format openmetrics` read by real parsers: prometheus_client's OpenMetrics parser
# (strict: it rejects a file without "# EOF", a bad escape, a duplicate sample) and promtool,
# with every recorded value checked against results.json — hostile metric names and NaN/Inf
# included. A truncated file must be rejected, or the check proves nothing.
#   report_openmetrics_parses.sh FIXTURE_BINARY
set -euo pipefail
fixture=${1:?usage: $0 FIXTURE_BINARY}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
python=/usr/bin/python3  # Debian's, which has python3-prometheus-client

cd "$work"
MLREGRESS_REPO="$work" "$fixture" run --out runs --color never >run.log 2>&1 || true  # it plants failures
[ -f runs/latest/results.json ] || { cat run.log; fail "the fixture run wrote no results.json"; }
"$fixture" report runs/latest --format openmetrics --out metrics.txt >/dev/null

"$python" - runs/latest/results.json metrics.txt <<'PY' || fail "the OpenMetrics file does not match results.json"
import json, math, sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
results = json.load(open(sys.argv[1]))
families = {f.name: f for f in text_string_to_metric_families(open(sys.argv[2]).read())}
assert all(f.type == "gauge" for f in families.values()), "every family is a gauge"
recorded = {(s.labels["test"], s.labels["metric"]): s.value
            for s in families["mlregress_metric"].samples}
def number(v):
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}.get(v, v)
expected = {(t["full_name"], m["name"]): number(m["value"])
            for t in results["tests"] for m in t["metrics"]}
assert recorded.keys() == expected.keys(), f"metrics differ: {recorded.keys() ^ expected.keys()}"
for key, value in expected.items():
    got = recorded[key]
    assert (math.isnan(got) and math.isnan(value)) or got == value, f"{key}: {got} != {value}"
statuses = {s.labels["status"]: s.value for s in families["mlregress_tests"].samples}
for status, n in results["summary"].items():
    if status != "tests":
        assert statuses[status] == n, f"{status}: {statuses[status]} != {n}"
print(f"ok   {len(recorded)} metrics and {len(statuses)} status counts match results.json")
PY
promtool check metrics <metrics.txt || fail "promtool rejects metrics.txt"
echo "ok   promtool check metrics accepts it"

head -n -1 metrics.txt >truncated.txt  # without "# EOF": a file cut short
if "$python" -c "import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
list(text_string_to_metric_families(open(sys.argv[1]).read()))" truncated.txt 2>/dev/null; then
  fail "the parser accepts a truncated file: the check above would prove nothing"
fi
echo "ok   a truncated file is rejected"
