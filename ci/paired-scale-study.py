#!/usr/bin/env python3
"""Paired seeds: what the scale costs. How close to Wald's bound can a sequential test of paired
per-seed differences come, depending on what it knows of their sd?

Simulates one-sided sequential tests of "no change" against "a shift of d sd" on paired
differences, N(theta, sd^2) per seed, looked at after every seed up to a cap, with alpha 0.005 and
power 0.8 (PASS error 0.2) at d, each test's two boundaries calibrated on its own simulated paths
(the REGRESSION boundary to the (1 - alpha) quantile of the path maxima before a PASS, the PASS
boundary to the beta quantile of the path minima before a REGRESSION under the shift, alternated
until they settle). Three tests:

  frozen      the product's paired .likelihood_ratio(): the likelihood ratio in units of the first
              look's sd (FIRST seeds), frozen from then on
  invariant   the sequential t-test: the likelihood ratio of the maximal invariant under scale
              (Wald; Rushton), exp(-n d^2/2) H_n(d S / sqrt(Q)) / H_n(0) with S, Q the sum and the
              sum of squares of the differences, H_n(a) = int_0^inf u^(n-1) exp(-u^2/2 + a u) du.
              Its alpha holds whatever the sd; it needs d (the margin in sds) from elsewhere.
  known-52    the ratio in units of an sd estimated before the run from 52 other pairs (as a
              baseline could store it): chi law on 51 df

Prints per test the mean seeds under no change and at d, Wald's bound at d, their ratios, and the
95th percentile; then known-52's false REGRESSION rate when the candidate's differences spread
wider than the stored sd says (its assumption broken: the true sd 1.1 to 2 times the stored). Usage: ci/paired-scale-study.py [D=0.85] [PATHS=100000] [FIRST=8] [CAP=52]
Deterministic (seed 1); about a minute.
"""
import sys

import numpy as np

d = float(sys.argv[1]) if len(sys.argv) > 1 else 0.85
paths = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
first = int(sys.argv[3]) if len(sys.argv) > 3 else 8
cap = int(sys.argv[4]) if len(sys.argv) > 4 else 52
alpha, beta = 0.005, 0.2
rng = np.random.default_rng(1)


def kl(p, q):
    return p * np.log(p / q) + (1 - p) * np.log((1 - p) / (1 - q))


bound_h0 = kl(1 - alpha, beta) / (d * d / 2)
bound_h1 = kl(1 - beta, alpha) / (d * d / 2)

# log H_n(a) - log H_n(0) - n d^2 / 2 on a grid of a in [-d sqrt(n), d sqrt(n)] (|S| <= sqrt(n Q)).
u = np.linspace(1e-9, 40.0, 8001)


def log_h(n, a):
    e = (n - 1) * np.log(u)[None, :] - u[None, :] ** 2 / 2 + np.outer(a, u)
    top = e.max(axis=1, keepdims=True)
    return top[:, 0] + np.log(np.exp(e - top).sum(axis=1) * (u[1] - u[0]))


invariant_table = {}
for n in range(2, cap + 1):
    a = np.linspace(-d * np.sqrt(n), d * np.sqrt(n), 801)
    invariant_table[n] = (a, log_h(n, a) - log_h(n, np.zeros(1))[0] - n * d * d / 2)


def log_ratios(test, theta):
    """Per path, the log likelihood ratio at looks FIRST_LOOK .. cap (columns)."""
    x = rng.standard_normal((paths, cap)) + theta
    s = np.cumsum(x, axis=1)
    n = np.arange(1, cap + 1)
    if test == "invariant":
        q = np.cumsum(x * x, axis=1)
        out = np.empty((paths, cap - 1))
        for k in range(2, cap + 1):
            a, h = invariant_table[k]
            out[:, k - 2] = np.interp(d * s[:, k - 1] / np.sqrt(q[:, k - 1]), a, h)
        return out, 2
    if test == "frozen":
        sd = x[:, :first].std(axis=1, ddof=1)[:, None]
        look = first
    else:  # known-52: an independent estimate on 51 df
        sd = np.sqrt(rng.chisquare(51, (paths, 1)) / 51)
        look = 1
    return (d * s / sd - n * d * d / 2)[:, look - 1:], look


def stops(ratios, upper, lower):
    crossed_up, crossed_down = ratios >= upper, ratios <= lower
    stopped = crossed_up | crossed_down
    any_stop = stopped.any(axis=1)
    k = np.where(any_stop, stopped.argmax(axis=1), ratios.shape[1] - 1)
    rows = np.arange(len(k))
    return crossed_up[rows, k] & any_stop, crossed_down[rows, k] & any_stop, k


def extreme_before(ratios, boundary, upper_side):
    """Per path, the max (min) of the ratio over the looks before it first reaches the other side."""
    other = ratios <= boundary if upper_side else ratios >= boundary
    first_other = np.where(other.any(axis=1), other.argmax(axis=1), ratios.shape[1])
    mask = np.arange(ratios.shape[1])[None, :] < first_other[:, None]
    fill = -np.inf if upper_side else np.inf
    masked = np.where(mask, ratios, fill)
    return masked.max(axis=1) if upper_side else masked.min(axis=1)


print(f"Paired differences, every seed to {cap}, alpha {alpha}, power {1 - beta} at d = {d}; "
      f"Wald's bound {bound_h0:.2f} / {bound_h1:.2f}; {paths} paths per hypothesis")
boundaries = {}
for test in ("frozen", "invariant", "known-52"):
    r0, look = log_ratios(test, 0.0)
    r1, _ = log_ratios(test, d)
    upper, lower = np.log((1 - beta) / alpha), np.log(beta / (1 - alpha))
    for _ in range(8):
        upper = np.quantile(extreme_before(r0, lower, True), 1 - alpha)
        lower = np.quantile(extreme_before(r1, upper, False), beta)
    reg0, pass0, k0 = stops(r0, upper, lower)
    reg1, pass1, k1 = stops(r1, upper, lower)
    n0, n1 = k0 + look, k1 + look
    boundaries[test] = (upper, lower)
    print(f"{test:9s} first look {look:2d}: mean seeds {n0.mean():6.2f} / {n1.mean():6.2f}, "
          f"ratio_h0 {n0.mean() / bound_h0:.2f} ratio_h1 {n1.mean() / bound_h1:.2f}, "
          f"p95 {np.percentile(n0, 95):.0f} / {np.percentile(n1, 95):.0f}, "
          f"false REGRESSION {reg0.mean():.4f}, power {reg1.mean():.3f}")

upper, lower = boundaries["known-52"]
wider = []
for ratio in (1.0, 1.1, 1.2, 1.5, 2.0):
    x = rng.standard_normal((paths, cap)) * ratio
    stored = np.sqrt(rng.chisquare(51, (paths, 1)) / 51)
    ratios = d * np.cumsum(x, axis=1) / stored - np.arange(1, cap + 1) * d * d / 2
    regression, _, _ = stops(ratios, upper, lower)
    wider.append(f"{ratio:g}x: {regression.mean():.4f}")
print("known-52, the candidate's differences wider than stored, false REGRESSION: " +
      ", ".join(wider))
