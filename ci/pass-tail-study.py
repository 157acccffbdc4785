#!/usr/bin/env python3
"""The 95th percentile under no change: what a PASS boundary that rises at one look buys.

The default design's likelihood-ratio looks (Wald's SPRT, blocks of 2 seeds up to 52) stop an
unchanged run after 1.1-1.2x Wald's bound on average, but 5% of those runs take 14 seeds or more
(the fixture's paired line on a stored spread: 3.4x its bound of 4.1), where the target is 2.5x.
The SPRT's log likelihood ratio under no change drifts down by d^2/2 a seed with a spread of d a
seed, so the time it needs to reach the PASS boundary has a long right tail whatever the
boundaries. A design can cut that tail by raising the PASS boundary from one look on (a run still
undecided there, whose ratio is below the raised boundary, PASSes), and pay for it with a
re-calibrated PASS boundary before it (so the power stays) and a few more seeds on average.

Simulates such designs on paired differences with a known sd (what a stored spread gives), N(theta,
1) per seed: looks after every 2 seeds up to 52; REGRESSION when the ratio d S - n d^2/2 reaches
A, PASS when it falls to B before the tail look and to B + RISE from it on; A and B calibrated on
the simulated paths to alpha and beta = 0.2 (alternated bisections). Prints per RISE and tail
look the mean seeds under no change and at d (and their ratios to Wald's bound), the 95th
percentiles, alpha and the power. Deterministic (seed 1).

Usage: ci/pass-tail-study.py [D=0.876] [ALPHA=0.005] [PATHS=100000]
  (the fixture's paired line on a stored spread: 0.876 0.005; the XOR study's: 0.801 0.00333)
"""
import math
import sys

import numpy as np

BETA = 0.2
LOOKS = np.arange(2, 53, 2)


def wald_bounds(alpha, d):
    def kl(p, q):
        return p * math.log(p / q) + (1 - p) * math.log((1 - p) / (1 - q))
    return kl(1 - alpha, BETA) / (d * d / 2), kl(1 - BETA, alpha) / (d * d / 2)


def ratio_paths(rng, theta, d, paths):
    sums = np.cumsum(rng.standard_normal((paths, LOOKS[-1])) + theta, axis=1)[:, LOOKS - 1]
    return d * sums - LOOKS * d * d / 2


def outcome(ratio, upper, lower, rise, tail_look):
    pass_boundary = lower + rise * (LOOKS >= tail_look)
    regression, passed = ratio >= upper, ratio <= pass_boundary
    stopped = regression | passed
    first = np.where(stopped.any(axis=1), stopped.argmax(axis=1), len(LOOKS) - 1)
    rows = np.arange(len(ratio))
    regressed = regression[rows, first]
    return regressed.mean(), (passed[rows, first] & ~regressed).mean(), LOOKS[first]


def bisect(too_high, low, high):
    for _ in range(40):
        middle = (low + high) / 2
        low, high = (middle, high) if too_high(middle) else (low, middle)
    return high


def calibrate(h0, h1, alpha, rise, tail_look):
    upper, lower = 4.0, -1.0
    for _ in range(8):
        upper = bisect(lambda a: outcome(h0, a, lower, rise, tail_look)[0] > alpha, 0.01, 15.0)
        # P(PASS | d) falls as the PASS boundary moves down: find the lowest lower that keeps it
        # at beta or below, i.e. -bisect over its distance below 0.
        lower = -bisect(lambda b: outcome(h1, upper, -b, rise, tail_look)[1] > BETA, 0.01, 15.0)
    return upper, lower


def main():
    if len(sys.argv) > 4:
        sys.exit(__doc__.strip().splitlines()[-2])
    try:
        d = float(sys.argv[1]) if len(sys.argv) > 1 else 0.876
        alpha = float(sys.argv[2]) if len(sys.argv) > 2 else 0.005
        paths = int(sys.argv[3]) if len(sys.argv) > 3 else 100000
    except ValueError as error:
        sys.exit(f"pass-tail-study: expected D, ALPHA (numbers) and PATHS (a whole number): {error}")
    if not (d > 0 and 0 < alpha < 0.5 and paths >= 100):
        sys.exit("pass-tail-study: expected D > 0, ALPHA in (0, 0.5) and PATHS >= 100")
    rng = np.random.default_rng(1)
    h0, h1 = ratio_paths(rng, 0.0, d, paths), ratio_paths(rng, d, d, paths)
    bound_h0, bound_h1 = wald_bounds(alpha, d)
    print(f"d {d}, alpha {alpha}, power {1 - BETA}; Wald's bound {bound_h0:.2f} under no change, "
          f"{bound_h1:.2f} at d; the target for the 95th percentile under no change "
          f"{2.5 * bound_h0:.1f}; {paths} paths per hypothesis")
    print("rise  tail look  upper  lower  mean h0 (ratio)  mean h1 (ratio)  p95 h0  p95 h1  "
          "alpha    power")
    for tail_look in (8, 10, 12):
        for rise in (0.0, 1.0, 1.5, 2.0):
            if rise == 0.0 and tail_look != 8:
                continue  # no rise: the same design at every tail look
            upper, lower = calibrate(h0, h1, alpha, rise, tail_look)
            false_rate, _, seeds0 = outcome(h0, upper, lower, rise, tail_look)
            power, _, seeds1 = outcome(h1, upper, lower, rise, tail_look)
            print(f"{rise:4.1f}  {tail_look if rise else '-':>9}  {upper:5.2f}  {lower:5.2f}  "
                  f"{seeds0.mean():6.2f} ({seeds0.mean() / bound_h0:.2f})    "
                  f"{seeds1.mean():6.2f} ({seeds1.mean() / bound_h1:.2f})    "
                  f"{int(np.percentile(seeds0, 95, method='inverted_cdf')):6d}  "
                  f"{int(np.percentile(seeds1, 95, method='inverted_cdf')):6d}  "
                  f"{100 * false_rate:.3f}%  {power:.3f}", flush=True)


if __name__ == "__main__":
    main()
