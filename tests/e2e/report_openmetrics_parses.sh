#!/usr/bin/env bash
# `report --format openmetrics` read by real parsers: prometheus_client's OpenMetrics parser
# (strict: it rejects a file without "# EOF", a bad escape, a duplicate sample) and promtool,
# with every recorded value checked against results.json — hostile metric names and NaN/Inf
# included. A truncated file must be rejected, or the check proves nothing. Then runs judged
# against baselines (a gated curve, predictions): every metric with a baseline or regression
# sample has its value sample too.
#   report_openmetrics_parses.sh FIXTURE_BINARY CURVE_FIXTURE PREDICTIONS_FIXTURE
set -euo pipefail
fixture=${1:?usage: $0 FIXTURE_BINARY CURVE_FIXTURE PREDICTIONS_FIXTURE}
curve_fixture=${2:?usage: $0 FIXTURE_BINARY CURVE_FIXTURE PREDICTIONS_FIXTURE}
predictions_fixture=${3:?usage: $0 FIXTURE_BINARY CURVE_FIXTURE PREDICTIONS_FIXTURE}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
python=/usr/bin/python3  # Debian's, which has python3-prometheus-client

cd "$work"
MLREGRESS_REPO="$work" "$fixture" run --out runs --color never >run.log 2>&1 || true  # it plants failures
[ -f runs/latest/results.json ] || { cat run.log; fail "the fixture run wrote no results.json"; }
"$fixture" report runs/latest --format openmetrics --out metrics.txt >/dev/null

# match_results RESULTS_JSON METRICS_TXT: every value sample is results.json's value, every
# metric with a baseline or regression sample has a value sample, and the status counts agree.
match_results() {
"$python" - "$1" "$2" <<'PY' || fail "$2 does not match $1"
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
# Predictions (their accuracy) and compared curves (their "value") are values too.
expected.update({(t["full_name"], p["name"]): number(p["accuracy"])
                 for t in results["tests"] for p in t.get("predictions", [])})
expected.update({(t["full_name"], c["name"]): number(c["value"])
                 for t in results["tests"] for c in t.get("curves", []) if "value" in c})
assert recorded.keys() == expected.keys(), f"metrics differ: {recorded.keys() ^ expected.keys()}"
for key, value in expected.items():
    got = recorded[key]
    assert (math.isnan(got) and math.isnan(value)) or got == value, f"{key}: {got} != {value}"
judged = {(s.labels["test"], s.labels["metric"])
          for name in ("mlregress_metric_baseline", "mlregress_metric_regression")
          if name in families for s in families[name].samples}
assert judged <= recorded.keys(), f"judged without a value sample: {judged - recorded.keys()}"
statuses = {s.labels["status"]: s.value for s in families["mlregress_tests"].samples}
for status, n in results["summary"].items():
    if status != "tests":
        assert statuses[status] == n, f"{status}: {statuses[status]} != {n}"
print(f"ok   {len(recorded)} metrics and {len(statuses)} status counts match results.json")
PY
}

match_results runs/latest/results.json metrics.txt
promtool check metrics <metrics.txt || fail "promtool rejects metrics.txt"
echo "ok   promtool check metrics accepts it"

head -n -1 metrics.txt >truncated.txt  # without "# EOF": a file cut short
if "$python" -c "import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
list(text_string_to_metric_families(open(sys.argv[1]).read()))" truncated.txt 2>/dev/null; then
  fail "the parser accepts a truncated file: the check above would prove nothing"
fi
echo "ok   a truncated file is rejected"

# Judged against baselines: the curve fixture's gated curve and the predictions fixture's
# predictions get baseline and regression samples, and so their values.
for binary in "$curve_fixture" "$predictions_fixture"; do
  name=$(basename "$binary")
  rm -rf "$work/$name" && mkdir "$work/$name" && cd "$work/$name"
  MLREGRESS_REPO="$work" "$binary" run --out runs --color never >run.log 2>&1 || { cat run.log; fail "$name: the first run failed"; }
  "$binary" promote runs/latest --baselines baselines --force >promote.log 2>&1 || { cat promote.log; fail "$name: promote failed"; }
  MLREGRESS_REPO="$work" "$binary" run --out runs --baselines baselines --color never >judged.log 2>&1 || true
  "$binary" report runs/latest --format openmetrics --out metrics.txt >/dev/null
  grep -q '^mlregress_metric_baseline{' metrics.txt || fail "$name: the judged run has no baseline sample"
  match_results runs/latest/results.json metrics.txt
done
