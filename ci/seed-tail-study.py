#!/usr/bin/env python3
"""Seeds are not normal: what the shape of a study's per-seed values does to a first look.

The likelihood-ratio looks of the default design decide from 2 seeds on, their boundaries
calibrated for normal seed-to-seed values. A study whose seeds have a bad tail (a few seeds that
train poorly) gives a candidate's first seeds more chance to land far on the REGRESSION side than
the normal says. This reads a table of real per-seed values of Full.XorSequentialSeedStudy
(ci/xor-seed-table.sh writes it: columns seed, weight_stream, test_accuracy, train_loss,
test_set_rule_accuracy) and prints, per metric as the gate sees it,

  fresh    weight stream 0; test_accuracy adjusted by the covariate test_set_rule_accuracy (the
           slope fitted on the table, as the gate fits it on the baseline);
  paired   the difference of weight streams 1 and 0 on the same seed,

the sample skewness (its regression direction: negative for a metric where higher is better) and
excess kurtosis, and, resampling the standardized values with replacement, the chance that the
mean of n seeds lies beyond z = 2.713 sds of a mean on the REGRESSION side (the metric's level
0.01 / 3 = 0.33% where the values are normal) for n = 2, 4, 6 and 12, with a 95% interval of the
skewness from 2,000 bootstrap resamples. Then the same chances for the law the gate calibrates
fresh-seed boundaries for (statistics/seed_law.h): a standardized gamma of the measured skewness
toward the REGRESSION side (the normal where it skews the other way), drawn as often, so that the
two rows show how well that law describes the real tail. Deterministic (seed 1); a few seconds.

Usage: ci/seed-tail-study.py TABLE.tsv [DRAWS=200000]
"""
import sys

import numpy as np

Z_LEVEL = 2.713  # the upper 0.01 / 3 quantile of the standard normal
SEED_COUNTS = (2, 4, 6, 12)


def read_table(path):
    try:
        lines = open(path).read().splitlines()
    except OSError as error:
        sys.exit(f"seed-tail-study: cannot read {path}: {error}")
    header = lines[0].split("\t") if lines else []
    wanted = ["seed", "weight_stream", "test_accuracy", "train_loss", "test_set_rule_accuracy"]
    if header != wanted:
        sys.exit(f"seed-tail-study: {path}:1: expected the columns {' '.join(wanted)}")
    table = {}
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        try:
            seed, stream = int(fields[0]), int(fields[1])
            values = [float(v) for v in fields[2:5]]
        except (ValueError, IndexError):
            sys.exit(f"seed-tail-study: {path}:{number}: expected 5 tab-separated numbers")
        table.setdefault(seed, {})[stream] = dict(zip(wanted[2:], values))
    return table


def shape(values):
    z = (values - values.mean()) / values.std(ddof=1)
    return float(np.mean(z**3)), float(np.mean(z**4) - 3.0), z


def tail_rates(z, direction, draws, rng):
    """P(mean of n resampled standardized values beyond Z_LEVEL / sqrt(n) on the bad side)."""
    rates = []
    for n in SEED_COUNTS:
        means = rng.choice(z, (draws, n)).mean(axis=1) * np.sqrt(n)
        rates.append(float(np.mean(direction * means > Z_LEVEL)))
    return rates


def gamma_law_rates(skew_toward_regression, draws, rng):
    """The same chances for sums of seeds of the standardized gamma of that skewness."""
    if skew_toward_regression < 0.01:
        return [float(np.mean(rng.standard_normal(draws) > Z_LEVEL)) for _ in SEED_COUNTS]
    k = 4.0 / skew_toward_regression**2
    return [float(np.mean((rng.gamma(n * k, 1.0, draws) - n * k) / np.sqrt(k * n) > Z_LEVEL))
            for n in SEED_COUNTS]


def skew_interval(z, rng):
    skews = []
    for _ in range(2000):
        s = rng.choice(z, z.size)
        s = (s - s.mean()) / s.std()
        skews.append(np.mean(s**3))
    return np.percentile(skews, [2.5, 97.5])


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-1])
    table = read_table(sys.argv[1])
    draws = 200000
    if len(sys.argv) == 3:
        if not sys.argv[2].isdigit() or int(sys.argv[2]) < 1:
            sys.exit(f"seed-tail-study: DRAWS must be a positive whole number, got {sys.argv[2]!r}")
        draws = int(sys.argv[2])
    rng = np.random.default_rng(1)
    fresh = [row[0] for row in table.values() if 0 in row]
    both = [row for row in table.values() if 0 in row and 1 in row]
    accuracy = np.array([r["test_accuracy"] for r in fresh])
    covariate = np.array([r["test_set_rule_accuracy"] for r in fresh])
    slope = np.cov(accuracy, covariate)[0, 1] / covariate.var(ddof=1)
    series = [  # (pairing, metric, values, +1 where the REGRESSION side is high values)
        ("fresh", "test_accuracy after the covariate",
         accuracy - slope * (covariate - covariate.mean()), -1),
        ("fresh", "train_loss", np.array([r["train_loss"] for r in fresh]), +1),
        ("fresh", "test_set_rule_accuracy", covariate, -1),
        ("paired", "test_accuracy", np.array([r[1]["test_accuracy"] - r[0]["test_accuracy"]
                                              for r in both]), -1),
        ("paired", "train_loss", np.array([r[1]["train_loss"] - r[0]["train_loss"]
                                           for r in both]), +1),
    ]
    print(f"{len(fresh)} seeds of weight stream 0, {len(both)} with stream 1 too; covariate slope "
          f"{slope:.3f}. Beyond z {Z_LEVEL} on the REGRESSION side (normal: 0.33%), resampled "
          f"{draws} times:")
    print(f"{'pairing':<7} {'metric':<34} {'skew [95%]':<22} {'kurt':>5}  "
          + "  ".join(f"n={n:<5}" for n in SEED_COUNTS))
    for pairing, metric, values, direction in series:
        skew, kurtosis, z = shape(values)
        low, high = skew_interval(z, rng)
        rates = tail_rates(z, direction, draws, rng)
        print(f"{pairing:<7} {metric:<34} {skew:+.2f} [{low:+.2f}, {high:+.2f}]   "
              f"{kurtosis:+5.2f}  " + "  ".join(f"{100 * r:5.2f}%" for r in rates))
        toward = max(0.0, direction * skew)
        law = gamma_law_rates(toward, draws, rng)
        print(f"{'':<7} {'  the gamma law of skew %.2f' % toward:<34} {'':<22} "
              f"{1.5 * toward**2:+5.2f}  " + "  ".join(f"{100 * r:5.2f}%" for r in law))


if __name__ == "__main__":
    main()
