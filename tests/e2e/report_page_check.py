"""Checks a report.html as headless Chromium saw it, for report_renders_in_chromium.sh.

  report_page_check.py DOM NETLOG STDERR RESULTS_JSON EXPECTED_VERDICTS [--diverged]
  report_page_check.py DOM NETLOG STDERR --network-only

DOM is Chromium's --dump-dom, NETLOG its --log-net-log, STDERR its console log. Checks: the
verdict header says one of EXPECTED_VERDICTS (comma-separated); one curve plot per curve the
run recorded (a seeded test's per-seed curves share one plot) and one seeded plot per seeded
metric; with --diverged, some curve is marked where it leaves its reference; the page started no
network request and tried no load the Content-Security-Policy blocked (--network-only: only
that).
"""
import json
import re
import sys
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.verdict = None
        self.plots = {}
        self.diverged = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "header" and a.get("id") == "verdict":
            self.verdict = a.get("data-verdict")
        if tag == "svg" and "data-plot" in a:
            self.plots[a["data-plot"]] = self.plots.get(a["data-plot"], 0) + 1
        if tag == "figure" and a.get("data-diverged") == "true":
            self.diverged += 1


def page_requests(netlog):
    """URLs the page itself asked the network for (not the browser's own background traffic)."""
    events = json.load(open(netlog))["events"]
    return sorted({e["params"]["url"] for e in events
                   if "site=file://" in str(e.get("params", {}).get("site_for_cookies", ""))
                   and "url" in e.get("params", {})})


def main():
    dom, netlog, stderr = sys.argv[1:4]
    problems = []
    page = Page()
    page.feed(open(dom, encoding="utf-8").read())
    if sys.argv[4] != "--network-only":
        problems += page_problems(page, sys.argv[4], sys.argv[5], "--diverged" in sys.argv[6:])
    requests = page_requests(netlog)
    if requests:
        problems.append(f"the page requested {requests}")
    blocked = [line for line in open(stderr, errors="replace")
               if ":CONSOLE" in line and "Content Security Policy" in line]
    if blocked:
        problems.append(f"the page tried loads its CSP blocked: {blocked[0].strip()}")

    if problems:
        print("\n".join("FAIL: " + p for p in problems))
        sys.exit(1)
    print(f"ok   {dom}: {page.verdict}, {page.plots}, {page.diverged} diverged, no request")


def page_problems(page, results_json, expected, diverged):
    problems = []
    if page.verdict not in expected.split(","):
        problems.append(f"verdict header {page.verdict!r}, expected one of {expected}")

    results = json.load(open(results_json))
    curve_groups = {(t["name"], re.sub(r"\.seed[0-9]+$", "", c["name"]))
                    for t in results["tests"] for c in t.get("curves", [])}
    seeded = [m for t in results["tests"] if "seed_runs" in t for m in t["metrics"]]
    if page.plots.get("curve", 0) != len(curve_groups):
        problems.append(f"{page.plots.get('curve', 0)} curve plots for {len(curve_groups)} curves")
    if page.plots.get("seeded", 0) != len(seeded):
        problems.append(f"{page.plots.get('seeded', 0)} seeded plots for {len(seeded)} metrics")
    if diverged and page.diverged == 0:
        problems.append("no curve is marked where it leaves its reference")
    return problems


if __name__ == "__main__":
    main()
