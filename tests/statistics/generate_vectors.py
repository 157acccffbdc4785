#!/usr/bin/python3
"""Reference vectors for mlregress's statistics library (runner/src/core/statistics).

Run with Debian's Python and SciPy (apt-get install python3-scipy; SciPy 1.10.1 on Debian 12):

    /usr/bin/python3 tests/statistics/generate_vectors.py > tests/statistics/vectors.json

Every number comes from SciPy, except where SciPy 1.10 has no function for it; those are
computed here from their textbook definitions with SciPy's special functions:
  * Welch df (ttest_ind does not return it in 1.10): Welch–Satterthwaite formula, cross-checked
    by reproducing SciPy's p-value from it.
  * Welch CI (ttest_ind has no confidence_interval in 1.10): mean difference ± t.ppf · se.
  * Holm: the textbook step-down, written out below (statsmodels is not installed); its reject
    decisions are cross-checked against the literal "stop at the first failure" procedure.
  * Hedges' g: Cohen's d with the exact correction Gamma(df/2)/(sqrt(df/2) Gamma((df-1)/2)).
  * McNemar's exact two-sided p-value: statsmodels' mcnemar(table, exact=True) (statsmodels is
    not installed), i.e. min(1, 2 binom.cdf(min(b, c), b + c, 1/2)). The one-sided values are
    scipy.stats.binomtest's. All three are cross-checked against exact rational sums of
    binomial coefficients (Python integers) and stored beside them, correctly rounded
    (exact_p_*): SciPy's binomial tails and mlregress's are both Boost's incomplete beta
    function, so SciPy alone would not be an independent check.
Paired CIs are the same t interval, checked against scipy.stats.ttest_rel(...)
.confidence_interval() to 1e-7 of the standard error. Quantiles of t (in CIs and critical
values) are t.ppf refined by Newton steps: SciPy 1.10's t.ppf alone is good to ~5e-9 only. The probability of
improvement comes from scipy.stats.mannwhitneyu's U / (nx·ny). Power and minimum detectable
effects come from scipy.stats.nct and scipy.optimize.brentq.

Infinite values are written as the strings "inf" and "-inf" (JSON has no infinity).
The output is deterministic: fixed seeds, sorted keys.
"""

import json
import math
import sys
import warnings
from fractions import Fraction

import numpy as np
import scipy
from scipy import integrate, optimize, special, stats

ALTERNATIVES = ["two-sided", "less", "greater"]


def num(value):
    value = float(value)
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if math.isnan(value):
        raise ValueError("NaN in a reference vector")
    return value


def floats(values):
    return [float(v) for v in values]


def t_ppf(q, df):
    """scipy.stats.t.ppf refined by Newton steps on t.cdf / t.sf.

    SciPy 1.10's t.ppf (cdflib's stdtrit) is accurate to only about 5e-9 relative: at df = 30,
    t.sf(t.ppf(0.95)) is off from 0.05 by 1.5e-8 relative. Its tails (t.cdf, t.sf) are accurate
    to ~1e-15, so three Newton steps on the smaller tail give quantiles to double precision.
    """
    x = stats.t.ppf(q, df)
    for _ in range(3):
        residual = stats.t.cdf(x, df) - q if q <= 0.5 else (1 - q) - stats.t.sf(x, df)
        x -= residual / stats.t.pdf(x, df)
    assert math.isclose(x, stats.t.ppf(q, df), rel_tol=1e-7, abs_tol=1e-15), (q, df)
    return x


def welch_df(x, y):
    vx, vy = np.var(x, ddof=1) / len(x), np.var(y, ddof=1) / len(y)
    return (vx + vy) ** 2 / (vx ** 2 / (len(x) - 1) + vy ** 2 / (len(y) - 1))


def t_interval(estimate, se, df, level, alternative):
    if alternative == "two-sided":
        half = t_ppf(0.5 + level / 2, df) * se
        return estimate - half, estimate + half
    if alternative == "less":
        return -math.inf, estimate + t_ppf(level, df) * se
    return estimate - t_ppf(level, df) * se, math.inf


def welch_case(name, x, y, alternative, level):
    x, y = np.asarray(x, float), np.asarray(y, float)
    res = stats.ttest_ind(x, y, equal_var=False, alternative=alternative)
    df = welch_df(x, y)
    se = math.sqrt(np.var(x, ddof=1) / len(x) + np.var(y, ddof=1) / len(y))
    # The df formula must reproduce SciPy's own p-value.
    own_p = {"two-sided": 2 * stats.t.sf(abs(res.statistic), df),
             "less": stats.t.cdf(res.statistic, df),
             "greater": stats.t.sf(res.statistic, df)}[alternative]
    assert math.isclose(own_p, res.pvalue, rel_tol=1e-12), (name, own_p, res.pvalue)
    estimate = float(np.mean(x) - np.mean(y))
    lo, hi = t_interval(estimate, se, df, level, alternative)
    return {"name": name, "x": floats(x), "y": floats(y), "alternative": alternative,
            "level": level, "t": num(res.statistic), "df": num(df), "p": num(res.pvalue),
            "estimate": num(estimate), "se": num(se), "ci_lower": num(lo), "ci_upper": num(hi)}


def welch_vectors(rng):
    cases = []
    # Planted-bug vector: the arm with fewer seeds is much noisier. A pooled-variance (Student)
    # t test gives a very different t, df and p here.
    cases.append(welch_case("unequal_variance_unequal_n",
                            [0.71, 0.94, 0.62, 0.88], 
                            [0.801, 0.803, 0.799, 0.802, 0.800, 0.804, 0.798, 0.801, 0.803,
                             0.800, 0.802, 0.799],
                            "two-sided", 0.95))
    cases.append(welch_case("gate_example_higher_is_better",
                            [0.912, 0.905, 0.918, 0.909, 0.911],
                            [0.921, 0.917, 0.925, 0.919, 0.923],
                            "less", 0.95))
    for i in range(33):
        nx, ny = int(rng.integers(2, 21)), int(rng.integers(2, 21))
        sx, sy = float(rng.choice([0.01, 0.5, 1.0, 3.0])), float(rng.choice([0.01, 0.5, 1.0, 3.0]))
        shift = float(rng.choice([0.0, 0.3, 1.0, -2.0]))
        x = rng.normal(10.0 + shift, sx, nx)
        y = rng.normal(10.0, sy, ny)
        alternative = ALTERNATIVES[i % 3]
        level = [0.95, 0.9, 0.99][(i // 3) % 3]
        cases.append(welch_case(f"random_{i}", x, y, alternative, level))
    return cases


def t_tail_vectors():
    cases = []
    for df in [1.0, 2.5, 3.0, 7.3, 14.0, 30.0, 123.4, 1e4]:
        for t in [-40.0, -5.0, -1.7, 0.0, 0.3, 2.6, 8.0, 35.0]:
            cases.append({"t": t, "df": df, "sf": num(stats.t.sf(t, df)),
                          "cdf": num(stats.t.cdf(t, df))})
    quantiles = []
    for df in [1.0, 2.5, 4.0, 9.7, 30.0, 200.0]:
        for q in [0.005, 0.05, 0.5, 0.9, 0.975, 0.99, 0.999]:
            quantiles.append({"q": q, "df": df, "ppf": num(t_ppf(q, df))})
    return cases, quantiles


def paired_vectors(rng):
    cases = []
    for i in range(30):
        n = int(rng.integers(2, 26))
        seed_effect = rng.normal(0.0, 1.0, n)  # shared by both arms: what pairing cancels
        y = 5.0 + seed_effect + rng.normal(0.0, 0.1, n)
        x = 5.0 + seed_effect + rng.normal(float(rng.choice([0.0, 0.05, -0.1])), 0.1, n)
        alternative = ALTERNATIVES[i % 3]
        level = [0.95, 0.9, 0.99][(i // 3) % 3]
        res = stats.ttest_rel(x, y, alternative=alternative)
        ci = res.confidence_interval(confidence_level=level)
        d = x - y
        # SciPy's interval uses its 5e-9-accurate stdtrit (see t_ppf): the vector holds the same
        # interval from the refined quantile, checked against SciPy's to 1e-7.
        se = math.sqrt(np.var(d, ddof=1) / n)
        lo, hi = t_interval(float(np.mean(d)), se, n - 1, level, alternative)
        for mine, theirs in [(lo, ci.low), (hi, ci.high)]:
            assert mine == theirs or abs(mine - theirs) <= 1e-7 * se, (mine, theirs)
        cases.append({"name": f"random_{i}", "x": floats(x), "y": floats(y),
                      "alternative": alternative, "level": level, "t": num(res.statistic),
                      "df": num(res.df), "p": num(res.pvalue), "estimate": num(np.mean(d)),
                      "ci_lower": num(lo), "ci_upper": num(hi)})
    return cases


def wilcoxon_vectors(rng):
    exact, approx = [], []
    # Exact: no zeros, no ties (continuous draws), n from 1 to 50.
    sizes = [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20, 25, 30, 40, 50]
    for i, n in enumerate(sizes * 2):
        shift = float(rng.choice([0.0, 0.5, -0.8]))
        x = rng.normal(shift, 1.0, n)
        y = rng.normal(0.0, 1.0, n)
        d = x - y
        assert np.all(d != 0) and len(np.unique(np.abs(d))) == n
        alternative = ALTERNATIVES[i % 3]
        res = stats.wilcoxon(x, y, method="exact", alternative=alternative)
        exact.append({"name": f"exact_{i}", "x": floats(x), "y": floats(y),
                      "alternative": alternative, "statistic": num(res.statistic),
                      "p": num(res.pvalue), "r_plus": num(np.sum(np.where(d > 0,
                                                              stats.rankdata(np.abs(d)), 0)))})
    # All signs one way: the smallest attainable p-values 2^-n.
    for n in [5, 6, 7]:
        d = np.arange(1.0, n + 1)
        res = stats.wilcoxon(d, method="exact", alternative="greater")
        exact.append({"name": f"all_positive_{n}", "x": floats(d), "y": [0.0] * n,
                      "alternative": "greater", "statistic": num(res.statistic),
                      "p": num(res.pvalue), "r_plus": num(n * (n + 1) / 2)})
    # Zeros without ties: mlregress drops them and stays exact, which is SciPy's exact test on
    # the non-zero differences (SciPy 1.10 itself would switch to the normal approximation).
    for i, alternative in enumerate(ALTERNATIVES * 2):
        n = 6 + 2 * i
        d = rng.normal(0.3, 1.0, n)
        d[rng.choice(n, size=1 + i % 3, replace=False)] = 0.0
        nonzero = d[d != 0]
        res = stats.wilcoxon(nonzero, method="exact", alternative=alternative)
        exact.append({"name": f"zeros_dropped_{i}", "x": floats(d), "y": [0.0] * n,
                      "alternative": alternative, "statistic": num(res.statistic),
                      "p": num(res.pvalue), "n_zero": int(np.sum(d == 0)),
                      "r_plus": num(np.sum(np.where(nonzero > 0,
                                                    stats.rankdata(np.abs(nonzero)), 0)))})
    # Ties (and zeros): normal approximation with tie correction, zeros dropped ("wilcox"),
    # no continuity correction — SciPy's method="approx".
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(15):
            n = int(rng.integers(6, 40))
            d = rng.integers(-4, 7, n).astype(float) * 0.5
            if np.all(d == 0):
                d[0] = 1.0
            alternative = ALTERNATIVES[i % 3]
            res = stats.wilcoxon(d, method="approx", alternative=alternative)
            nonzero = d[d != 0]
            approx.append({"name": f"ties_{i}", "x": floats(d), "y": [0.0] * n,
                           "alternative": alternative, "statistic": num(res.statistic),
                           "p": num(res.pvalue), "z": num(res.zstatistic),
                           "r_plus": num(np.sum(np.where(nonzero > 0,
                                                         stats.rankdata(np.abs(nonzero)), 0)))})
        # More than 50 non-zero differences without ties: normal approximation too.
        for i, alternative in enumerate(ALTERNATIVES):
            n = 60 + 15 * i
            x, y = rng.normal(0.2, 1.0, n), rng.normal(0.0, 1.0, n)
            res = stats.wilcoxon(x, y, method="approx", alternative=alternative)
            d = x - y
            approx.append({"name": f"large_n_{i}", "x": floats(x), "y": floats(y),
                           "alternative": alternative, "statistic": num(res.statistic),
                           "p": num(res.pvalue), "z": num(res.zstatistic),
                           "r_plus": num(np.sum(np.where(d > 0, stats.rankdata(np.abs(d)), 0)))})
        # Planted: SciPy 1.10's own "exact" answer on a tied sample (it truncates the mid-rank
        # sum to an integer). Recorded so the test can show that answer is not the approximation.
        tied = np.array([1.0, 2.0, 2.0, 3.0, -1.5, 4.0, 4.0, 5.0])
        res_exact = stats.wilcoxon(tied, method="exact", alternative="greater")
        res_approx = stats.wilcoxon(tied, method="approx", alternative="greater")
        planted = {"d": floats(tied), "alternative": "greater",
                   "scipy_exact_with_ties_p": num(res_exact.pvalue),
                   "approx_p": num(res_approx.pvalue)}
    return exact, approx, planted


def holm_textbook(p):
    """Adjusted p-values: sort ascending, scale the k-th smallest by (m - k + 1), cap at 1 and
    take the running maximum; returned in input order."""
    m = len(p)
    order = sorted(range(m), key=lambda i: (p[i], i))
    adjusted = [0.0] * m
    running = 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * p[i]))
        adjusted[i] = running
    return adjusted


def holm_step_down(p, alpha):
    """The literal procedure: reject while p_(k) <= alpha / (m - k + 1), stop at first failure."""
    m = len(p)
    order = sorted(range(m), key=lambda i: (p[i], i))
    reject = [False] * m
    for k, i in enumerate(order):
        if p[i] <= alpha / (m - k):
            reject[i] = True
        else:
            break
    return reject


def holm_vectors(rng):
    lists = [
        [0.01, 0.04, 0.03, 0.005],          # the running maximum matters: 0.04 -> 0.06
        [0.001, 0.001, 0.2, 0.0049],        # tied p-values
        [0.6, 0.7, 0.8],                    # nothing rejected; capped at 1
        [0.0, 1.0],                          # the ends
        [0.002],                             # a single check is not adjusted
    ]
    for _ in range(25):
        m = int(rng.integers(1, 21))
        p = rng.uniform(0, 1, m) ** float(rng.choice([1.0, 3.0, 6.0]))
        lists.append([float(v) for v in p])
    cases = []
    for i, p in enumerate(lists):
        adjusted = holm_textbook(p)
        for alpha in [0.01, 0.05]:
            assert [a <= alpha for a in adjusted] == holm_step_down(p, alpha), (i, alpha)
        cases.append({"name": f"holm_{i}", "p": p, "adjusted": adjusted,
                      "reject_001": [a <= 0.01 for a in adjusted],
                      "reject_005": [a <= 0.05 for a in adjusted]})
    return cases


def effect_vectors(rng):
    cases = []
    samples = [
        ([0.91, 0.92, 0.90], [0.88, 0.89, 0.87]),            # 3 + 3 seeds: J = 0.80
        ([1.0, 2.0, 2.0, 3.0], [2.0, 2.0, 4.0, 1.0, 2.0]),   # ties across the arms
    ]
    for _ in range(28):
        nx, ny = int(rng.integers(2, 16)), int(rng.integers(2, 16))
        x = rng.normal(float(rng.choice([0.0, 0.5, -1.0])), float(rng.choice([0.5, 1.0, 2.0])), nx)
        y = rng.normal(0.0, 1.0, ny)
        if rng.uniform() < 0.3:  # discrete metrics produce ties
            x, y = np.round(x, 0), np.round(y, 0)
        samples.append((floats(x), floats(y)))
    for i, (x, y) in enumerate(samples):
        x, y = np.asarray(x, float), np.asarray(y, float)
        nx, ny = len(x), len(y)
        df = nx + ny - 2
        pooled = math.sqrt(((nx - 1) * np.var(x, ddof=1) + (ny - 1) * np.var(y, ddof=1)) / df)
        d = (np.mean(x) - np.mean(y)) / pooled
        j = math.exp(special.gammaln(df / 2) - special.gammaln((df - 1) / 2)) / math.sqrt(df / 2)
        u = stats.mannwhitneyu(x, y, alternative="two-sided").statistic
        cases.append({"name": f"effect_{i}", "x": floats(x), "y": floats(y),
                      "cohens_d": num(d), "correction": num(j), "hedges_g": num(j * d),
                      "probability_greater": num(u / (nx * ny))})
    return cases


def nct_sf_by_quadrature(x, df, ncp):
    """P(T' > x) for T' = (Z + ncp) / sqrt(V / df), V ~ chi2(df), by integrating over V.
    SciPy 1.10's nct is itself Boost.Math, so this is the independent check of the vectors."""
    integrand = lambda v: stats.norm.sf(x * math.sqrt(v / df) - ncp) * stats.chi2.pdf(v, df)
    value, _ = integrate.quad(integrand, 0.0, math.inf, epsabs=1e-14, epsrel=1e-12, limit=500)
    return value


def power_vectors():
    sf_cases = []
    for df in [2.0, 4.0, 7.5, 14.0, 38.0]:
        for ncp in [0.0, 1.0, 2.5, 4.0, 7.0]:
            for x in [-1.0, 1.5, 2.6, 4.5]:
                with np.errstate(all="ignore"):  # Boost raises spurious FP flags at df = 2
                    sf = stats.nct.sf(x, df, ncp)
                check = nct_sf_by_quadrature(x, df, ncp)
                assert math.isclose(sf, check, rel_tol=1e-7, abs_tol=1e-13), (x, df, ncp, sf, check)
                sf_cases.append({"x": x, "df": df, "ncp": ncp, "sf": num(sf)})

    def power(ncp, df, alpha):
        with np.errstate(all="ignore"):
            return stats.nct.sf(t_ppf(1 - alpha, df), df, ncp)

    mde_cases = []
    for n in [2, 3, 5, 8, 12, 20, 50]:
        for alpha, target in [(0.01, 0.8), (0.05, 0.8), (0.01, 0.9), (0.001, 0.5)]:
            for paired in [False, True]:
                df = (n - 1) if paired else (2 * n - 2)
                hi = 1.0
                while power(hi, df, alpha) < target:  # bracket by doubling, as the C++ does
                    hi *= 2.0
                ncp = optimize.brentq(lambda c: power(c, df, alpha) - target, 0.0, hi,
                                      xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=500)
                sd = 0.009
                se_per_sd = (1 / math.sqrt(n)) if paired else math.sqrt(2 / n)
                mde_cases.append({"n": n, "alpha": alpha, "power": target, "paired": paired,
                                  "sd": sd, "ncp": num(ncp), "mde": num(ncp * sd * se_per_sd),
                                  "power_at_mde": num(power(ncp, df, alpha))})
    return sf_cases, mde_cases


def binomial_half_tails_exact(b, n):
    """P(X >= b) and P(X <= b) for X ~ Binomial(n, 1/2), as exact fractions: sums of binomial
    coefficients over 2^n in Python's integers, summing the shorter side of b."""
    total = 2 ** n

    def count_at_most(k):  # sum of C(n, j) for j = 0 .. k
        if k < 0:
            return 0
        if k >= n:
            return total
        if k > n // 2:  # the shorter sum: C(n, j) = C(n, n - j), so sum_{j > k} = sum_{j < n - k}
            return total - count_at_most(n - k - 1)
        term, acc = 1, 1
        for j in range(1, k + 1):
            term = term * (n - j + 1) // j
            acc += term
        return acc

    def count_at_least(k):  # sum of C(n, j) for j = k .. n
        return count_at_most(n - k)

    return (Fraction(count_at_least(b), total), Fraction(count_at_most(b), total))


def mcnemar_vectors():
    # (b, c): b correct -> wrong, c wrong -> correct.
    pairs = [
        (0, 0),                          # no discordant pairs: p = 1 everywhere
        (1, 0), (0, 1), (3, 2),
        (5, 0), (0, 5),                  # small n: the chi-square approximations are far off
        (10, 10),                        # b = c: the two-sided value is capped at 1
        (25, 0), (0, 25), (7, 12),
        (40, 15), (15, 40),              # 91.2% -> 88.7% accuracy on 1,000 examples (net 25)
        (30, 5),
        (120, 0),                        # tiny p: 2^-120 = 7.5e-37
        (200, 10),
        (1000, 0),                       # 2^-1000 = 9.3e-302, near the bottom of the doubles
        (50200, 49800),                  # large n, unremarkable
        (52000, 48000), (48000, 52000),  # large n, p around 1e-36
        (53200, 46800),                  # large n, p around 1e-89
    ]
    cases = []
    worst = 0.0
    for b, c in pairs:
        n = b + c
        if n == 0:
            # binomtest needs n >= 1; with no discordant pair there is no evidence: p = 1.
            worse = better = two_sided = 1.0
        else:
            worse = stats.binomtest(b, n, 0.5, alternative="greater").pvalue
            better = stats.binomtest(b, n, 0.5, alternative="less").pvalue
            two_sided = min(1.0, 2.0 * stats.binom.cdf(min(b, c), n, 0.5))
        exact_worse, exact_better = binomial_half_tails_exact(b, n)
        exact_two_sided = min(Fraction(1), 2 * binomial_half_tails_exact(min(b, c), n)[1])
        for value, exact in [(worse, exact_worse), (better, exact_better),
                             (two_sided, exact_two_sided)]:
            error = abs(value - float(exact)) / float(exact)
            worst = max(worst, error)
            assert error <= 1e-12, (b, c, value, float(exact))
        # SciPy 1.10's tails are off by up to ~4e-13 relative at n = 10^5: the exact values
        # (correctly rounded) come along, to measure mlregress's own accuracy.
        case = {"name": f"b{b}_c{c}", "b": b, "c": c, "p_worse": num(worse),
                "p_better": num(better), "p_two_sided": num(two_sided),
                "exact_p_worse": num(exact_worse), "exact_p_better": num(exact_better),
                "exact_p_two_sided": num(exact_two_sided)}
        if n > 0:
            # The planted mistake: McNemar's chi-square statistic with 1 df, with and without
            # the continuity correction.
            case["chi_square_p"] = num(stats.chi2.sf((b - c) ** 2 / n, 1))
            case["chi_square_corrected_p"] = num(
                stats.chi2.sf(max(abs(b - c) - 1, 0) ** 2 / n, 1))
        cases.append(case)
    print(f"mcnemar: SciPy vs exact fractions, max relative error {worst:.3g}", file=sys.stderr)
    return cases


def robust_summary_vectors():
    """The mean's t interval (scipy.stats.t.interval with the refined t_ppf), type-7 quantiles
    (numpy.percentile's default method) and trimmed means (scipy.stats.trim_mean; 0.25 is the
    interquartile mean). Its own generator, so the other sections' random draws stay as they were.
    This section was added to vectors.json with SciPy 1.17.1 and NumPy 2.4.6 (the rest of the
    file is as SciPy 1.10.1 wrote it); neither method changed between those versions.
    """
    rng = np.random.default_rng(20261206)
    samples = [[0.8683, 0.8712, 0.8601, 0.8745, 0.8690, 0.8655, 0.8702, 0.8677],
               [0.91, 0.92, 0.30, 0.93, 0.90],  # one diverged seed
               [1.0, 2.0], [5.0, 5.0, 5.0, 7.0]]
    for n in [3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 20, 33]:
        samples.append(list(rng.lognormal(0.0, 0.7, n) if n % 2 else rng.normal(3.0, 1.5, n)))
    cases = []
    for i, x in enumerate(samples):
        x = np.asarray(x, float)
        n = len(x)
        level = [0.95, 0.9, 0.99][i % 3]
        sem = float(np.std(x, ddof=1) / math.sqrt(n))
        half = t_ppf(0.5 + level / 2, n - 1) * sem
        low, high = stats.t.interval(level, n - 1, loc=np.mean(x), scale=sem)
        assert abs(low - (np.mean(x) - half)) <= 1e-7 * sem, (low, half)
        qs = [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 1.0]
        trims = [0.0, 0.1, 0.2, 0.25, 0.4]
        cases.append({"name": f"sample_{i}", "x": floats(x), "level": level,
                      "mean": num(np.mean(x)), "sem": num(sem),
                      "ci_lower": num(np.mean(x) - half), "ci_upper": num(np.mean(x) + half),
                      "quantiles": [{"q": q, "value": num(np.percentile(x, 100 * q))} for q in qs],
                      "trimmed": [{"proportion": p, "value": num(stats.trim_mean(x, p))}
                                  for p in trims if int(p * n) * 2 < n]})
    return cases


def main():
    rng = np.random.default_rng(20240611)
    t_tails, t_quantiles = t_tail_vectors()
    wilcoxon_exact, wilcoxon_approx, wilcoxon_planted = wilcoxon_vectors(rng)
    nct_sf, mde = power_vectors()
    doc = {
        "generator": "tests/statistics/generate_vectors.py",
        "scipy_version": scipy.__version__,
        "numpy_version": np.__version__,
        "welch": welch_vectors(rng),
        "t_tails": t_tails,
        "t_quantiles": t_quantiles,
        "paired": paired_vectors(rng),
        "wilcoxon_exact": wilcoxon_exact,
        "wilcoxon_approx": wilcoxon_approx,
        "wilcoxon_planted_ties": wilcoxon_planted,
        "holm": holm_vectors(rng),
        "mcnemar": mcnemar_vectors(),  # no random numbers: the other sections stay as they were
        "effect_size": effect_vectors(rng),
        "nct_sf": nct_sf,
        "minimum_detectable_effect": mde,
        "robust_summary": robust_summary_vectors(),
    }
    json.dump(doc, sys.stdout, indent=1, sort_keys=True, allow_nan=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
