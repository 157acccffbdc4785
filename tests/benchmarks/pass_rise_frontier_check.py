#!/usr/bin/env python3
"""Checks pass_rise_frontier's search on a shape where a better rise than the printed steps is
known to exist (the fixture's paired shape on a known scale: d 0.873, alpha 0.005): the search
line must stop 95% of unchanged runs by the target and cost less than the cheapest step that
does, so a search that returns its start unchanged, or one that settles on a shape that misses
the 95%, fails; and the cheapest PASS look (the boundary raised at the target's look only, what
the design chooses) that stops 95% must cost less than every step, so a PASS-look row that held
its raise on after the look (a step by another name) fails. With --self-test it runs the check on
planted outputs instead of the binary.

  pass_rise_frontier_check.py BUILD/tests/benchmarks/pass_rise_frontier
  pass_rise_frontier_check.py --self-test
"""
import re
import subprocess
import sys

SHAPE = ["0.873", "0.005", "0", "0"]


def ratio_of(line):
    fields = dict(re.findall(r"(\w+)=([^\s]+)", line))
    return max(float(fields["ratio_h0"]), float(fields["ratio_h1"]))


def problems(output):
    """What is wrong with the frontier's output; empty when the search did its job."""
    met = [l for l in output.splitlines() if l.startswith("rise=") and l.endswith(" met")]
    steps = [l for l in met if " from=" in l]
    pass_looks = [l for l in met if " at=" in l]
    search = [l for l in output.splitlines() if l.startswith("search:")]
    if not steps:
        return ["no step row stops 95% of unchanged runs by the target"]
    if len(search) != 1:
        return [f"expected one search line, got {len(search)}"]
    found = []
    if not search[0].endswith(" met"):
        found.append(f"the search's shape misses the 95%: {search[0]}")
    within = float(re.search(r"within_\d+=([0-9.]+)", search[0]).group(1))
    if within < 0.95:
        found.append(f"the search's shape stops {within} by the target, under 0.95")
    best_step = min(ratio_of(l) for l in steps)
    if not ratio_of(search[0]) < best_step:
        found.append(
            f"the search costs {ratio_of(search[0])}, no less than the best step's {best_step}")
    if not pass_looks:
        found.append("no PASS-look row stops 95% of unchanged runs by the target")
    elif not min(ratio_of(l) for l in pass_looks) < best_step:
        found.append(f"the cheapest PASS look costs {min(ratio_of(l) for l in pass_looks)}, "
                     f"no less than the best step's {best_step}")
    return found


def self_test():
    step = ("rise=1.5 from=8 upper=4.3 lower=-1.2 mean_seeds_h0=5.2 ratio_h0=1.263 "
            "mean_seeds_h1=10.4 ratio_h1=1.068 p95_h0=10 within_10=0.9508 alpha=0.00500 "
            "power=0.8000 p95_h0<=10.3 met")
    good = ("search: rise by look 1.625@10 ratio_h0=1.248 ratio_h1=1.068 within_10=0.9503 "
            "alpha=0.00500 power=0.8000 met")
    unchanged = ("search: rise by look 1.5@8 ratio_h0=1.263 ratio_h1=1.068 within_10=0.9508 "
                 "alpha=0.00500 power=0.8000 met")
    short = ("search: rise by look 1@10 ratio_h0=1.2 ratio_h1=1.06 within_10=0.9400 "
             "alpha=0.00500 power=0.8000 missed")
    look = ("rise=1.25 at=10 upper=4.4 lower=-1.0 mean_seeds_h0=4.8 ratio_h0=1.174 "
            "mean_seeds_h1=10.5 ratio_h1=1.060 p95_h0=10 within_10=0.9530 alpha=0.00500 "
            "power=0.8000 p95_h0<=10.3 met")
    dear_look = look.replace("ratio_h0=1.174", "ratio_h0=1.270")
    good_all = "\n".join([step, look, good])
    assert problems(good_all) == [], problems(good_all)
    assert problems("\n".join([step, look, unchanged])), "a search that returns its start must fail"
    assert problems("\n".join([step, look, short])), "a search that misses the 95% must fail"
    assert problems("\n".join([look, good])), "no step row must fail"
    assert problems("\n".join([step, good])), "no PASS-look row must fail"
    assert problems("\n".join([step, dear_look, good])), "a PASS look dearer than a step must fail"
    print("pass_rise_frontier_check: self-test passed")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return 0
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 64
    output = subprocess.run([sys.argv[1], *SHAPE], check=True, capture_output=True,
                            text=True).stdout
    found = problems(output)
    for p in found:
        print(f"pass_rise_frontier_check: {p}", file=sys.stderr)
    if not found:
        print("pass_rise_frontier_check: the search and the PASS look beat every step and stop "
              "95% by the target")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
