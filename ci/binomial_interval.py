"""Clopper-Pearson intervals for the benchmarks' rates (imported by the ci/ scripts' Python)."""
import math


def binomial_cdf(k, n, p):
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def clopper_pearson(k, n, level=0.95):
    """Exact two-sided interval: the p at which each tail of Binomial(n, p) holds (1-level)/2."""
    tail = (1 - level) / 2

    def solve(f):  # bisection on a function of p that is decreasing from + to -
        lo, hi = 0.0, 1.0
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
        return (lo + hi) / 2

    lower = 0.0 if k == 0 else solve(lambda p: tail - (1 - binomial_cdf(k - 1, n, p)))
    upper = 1.0 if k == n else solve(lambda p: binomial_cdf(k, n, p) - tail)
    return lower, upper


def rate(k, n):
    """'k of n = r% [lo, hi]' with the 95% Clopper-Pearson interval."""
    low, high = clopper_pearson(k, n)
    return f"{k:>3} of {n} = {100 * k / n:4.1f}% [{100 * low:.2f}, {100 * high:.2f}]"
