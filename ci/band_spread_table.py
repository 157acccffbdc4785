#!/usr/bin/env python3
"""Does every committed band hold on every CPU measured? One row per band metric of the committed
baselines: its value, its band, and how far the numerics study (ci/study-numerics.sh, whose
tables ci/numerics_table.py prints) saw it move on each CPU, across that CPU's kernel settings and
against the committed value (runner/docs/numerics.md shows the result and the rule).

  ci/band_spread_table.py [--margin 2] BASELINE_DIR CPU_TABLES.md...

BASELINE_DIR is baselines/<binary>/ (the *.toml files); each CPU_TABLES.md is one study's tables
(its first line after '# ' names the CPU). For a CPU the spread of a metric is bounded by
|A - committed| + max over settings of |x - A|, A that CPU's natural value: the tables give A to
6 significant digits and the other settings relative to A, without their sign, so the bound is an
upper bound. The rule: a band holds when its half-width is at least `margin` times the largest
spread on any CPU (the margin is for CPUs not measured yet); a metric whose spread exceeds its own
size is chaotic and is to be gated as the decision it supports, not by its value.
Python 3.11 standard library only.
"""
import argparse
import math
import pathlib
import sys
import tomllib


def band_metrics(folder):
    """(test, metric) -> (value, rtol, atol, direction) for every band metric stored portably."""
    out = {}
    for path in sorted(folder.glob("*.toml")):
        for test, entry in tomllib.loads(path.read_text()).get("tests", {}).items():
            for metric, stored in entry.get("metrics", {}).items():
                if stored.get("policy") == "band" and "value" in stored:
                    out[(test, metric)] = (float(stored["value"]), float(stored["rtol"]),
                                           float(stored["atol"]), stored["direction"])
    return out


def relative_cell(cell):
    """A cell of numerics_table.py: '=' (identical), a relative difference, or 'abs x'."""
    cell = cell.strip()
    if cell in ("=", "—", ""):
        return 0.0, False
    if cell.startswith("abs "):
        return float(cell[4:]), True
    return float(cell), False


def cpu_spreads(tables):
    """The CPU's name and (test, metric) -> (natural value, largest |x - natural| over settings)."""
    lines = tables.read_text().splitlines()
    titles = [line[2:].strip() for line in lines if line.startswith("# ")]
    if not titles:
        sys.exit(f"band_spread_table: {tables} has no '# CPU name' title line")
    spreads, header = {}, None
    for line in lines:
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[:3] == ["test", "metric", "policy"]:
            header = cells
            continue
        if header is None or set(cells[0]) <= {"-"}:
            continue
        row = dict(zip(header, cells))
        try:
            natural = float(row[header[3]])
        except ValueError:
            continue  # seeded ("40 seeds") or missing
        largest = 0.0
        for setting in header[4:-1]:
            change, absolute = relative_cell(row[setting])
            largest = max(largest, change if absolute else change * abs(natural))
        spreads[(row["test"], row["metric"])] = (natural, largest, row["policy"])
    return titles[0], spreads


def fmt(x):
    return "0" if x == 0 else f"{x:.3g}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("baselines", type=pathlib.Path)
    ap.add_argument("tables", nargs="+", type=pathlib.Path)
    ap.add_argument("--margin", type=float, default=2.0)
    args = ap.parse_args()

    bands = band_metrics(args.baselines)
    if not bands:
        sys.exit(f"band_spread_table: no band metric in {args.baselines}/*.toml")
    cpus = [cpu_spreads(t) for t in args.tables]
    header = ["test", "metric", "committed", "band ±"] + [f"{name}: natural Δ, settings Δ"
                                                          for name, _ in cpus]
    header += ["spread", "band / spread", f"rule (margin {args.margin:g})"]
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    failing = 0
    for (test, metric), (value, rtol, atol, _) in sorted(bands.items()):
        half = atol + rtol * abs(value)
        spread, cells, missing = 0.0, [], []
        for name, spreads in cpus:
            if (test, metric) not in spreads:
                # numerics_table.py leaves out a whole number that is the same in every setting.
                if value == math.trunc(value) and abs(value) <= 2.0**53:
                    cells.append("= (a whole number in every setting)")
                    continue
                cells.append("not measured")
                missing.append(name)
                continue
            natural, settings, _ = spreads[(test, metric)]
            # The tables round the natural value to 6 significant digits: a difference below that
            # rounding is no difference.
            moved = abs(natural - value)
            if moved <= 5e-6 * abs(value):
                moved = 0.0
            spread = max(spread, moved + settings)
            cells.append(f"{fmt(moved)}, {fmt(settings)}")
        if missing:
            rule = f"not measured on {', '.join(missing)}"
            failing += 1
        elif spread > abs(value) and spread > 0:
            rule = "chaotic: moves by more than its own size; gate the decision it supports"
            failing += 1
        elif half >= args.margin * spread:
            rule = "holds"
        else:
            rule = f"too narrow: needs ±{fmt(args.margin * spread)}"
            failing += 1
        ratio = "∞" if spread == 0 else f"{half / spread:.3g}"
        out.append("| " + " | ".join([test, metric, f"{value:.6g}", fmt(half)] + cells
                                     + [fmt(spread), ratio, rule]) + " |")
    out.append("")
    out.append(f"{len(bands)} band metrics; {len(bands) - failing} hold with margin "
               f"{args.margin:g} on {', '.join(name for name, _ in cpus)}; {failing} do not.")
    print("\n".join(out))
    sys.exit(1 if failing else 0)


if __name__ == "__main__":
    main()
