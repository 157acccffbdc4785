#!/usr/bin/env python3
"""Tables of which recorded float values stay bit-identical across CPU code paths, from the run
folders ci/study-numerics.sh leaves (runner/docs/numerics.md shows them).

  ci/numerics_table.py [--reference A] [--repeat A2] [--pinned D] TIER_DIR...

TIER_DIR holds one --out folder per setting (OUT/<tier>/<setting>/, with run folders inside) and
settings.tsv (name, intra-op threads, the environment variables set). Every setting is compared
with --reference; --repeat is the reference run again, so a value that differs there is
nondeterministic run to run, not a code-path effect. A setting folder may hold several runs (the
timing rounds): the first is compared, and the others must equal it bit for bit.

Rows: every (test, metric) whose value is a float in some setting; a metric whose values are
whole numbers in every setting is left out (stored 'portable', gated on every machine) unless
they differ between settings, which is flagged. Cells: "=" when bit-identical to the reference,
else the relative difference |x - ref| / |ref| (seeded metrics: the largest over the seeds'
samples). Python 3.11 standard library only.
"""
import argparse
import json
import math
import pathlib
import statistics
import struct
import sys

# Which kind of dispatch an environment variable lowers; a setting's kinds are those of its
# variables, plus "threads" when it runs with other intra-op threads than the reference.
KINDS = {
    "ATEN_CPU_CAPABILITY": "ATen capability",
    "ONEDNN_MAX_CPU_ISA": "oneDNN ISA",
    "DNNL_MAX_CPU_ISA": "oneDNN ISA",
    "MKL_ENABLE_INSTRUCTIONS": "MKL ISA (MKL_ENABLE_INSTRUCTIONS)",
    "MKL_CBWR": "MKL code path (MKL_CBWR)",
    "GLIBC_TUNABLES": "glibc libm ISA",
}


def number(v):
    """results.json writes non-finite numbers as strings."""
    if isinstance(v, str):
        return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[v]
    return float(v)


def bits(x):
    return struct.pack("<d", x)


def whole(x):
    """As promote decides a portable value (runner/src/core/baselines/promotion.cc)."""
    return math.isfinite(x) and x == math.trunc(x) and abs(x) <= 2.0**53


def run_folders(setting_dir):
    """The run folders of an --out folder, oldest first (their names start with the UTC time)."""
    found = [p for p in setting_dir.iterdir() if p.is_dir() and not p.is_symlink()
             and (p / "results.json").is_file()]
    if not found:
        sys.exit(f"numerics_table: no run folder in {setting_dir}")
    return sorted(found, key=lambda p: p.name)


def load(run):
    """(test, metric) -> (values, policy kind) and test -> status, from one run folder."""
    results = json.loads((run / "results.json").read_text())
    metrics, status = {}, {}
    for test in results["tests"]:
        status[test["name"]] = test["status"]
        for m in test["metrics"]:
            values = m["samples"] if "samples" in m else [m["value"]]
            metrics[(test["name"], m["name"])] = ([number(v) for v in values], m["policy"]["kind"])
    return metrics, status, results["run"]


def relative(values, ref):
    """'=' when bit-identical, else the largest relative difference over the samples."""
    if values is None:
        return "—"
    if len(values) != len(ref):
        return f"n={len(values)}≠{len(ref)}"
    if all(bits(a) == bits(b) for a, b in zip(values, ref)):
        return "="
    worst, absolute = 0.0, False
    for a, b in zip(values, ref):
        if bits(a) == bits(b):
            continue
        if not (math.isfinite(a) and math.isfinite(b)):
            return f"{a:g} vs {b:g}"
        if b == 0:
            absolute, worst = True, max(worst, abs(a))
        else:
            worst = max(worst, abs(a - b) / abs(b))
    return f"abs {worst:.1e}" if absolute else f"{worst:.1e}"


def read_settings(tier_dir):
    settings = []
    for line in (tier_dir / "settings.tsv").read_text().splitlines():
        name, threads, *env = line.split("\t")
        env = env[0].split() if env and env[0] else []
        settings.append({"name": name, "threads": int(threads), "env": env})
    return settings


def kinds_of(setting, reference):
    kinds = {KINDS.get(v.split("=", 1)[0], v.split("=", 1)[0]) for v in setting["env"]}
    if setting["threads"] != reference["threads"]:
        kinds.add("threads")
    return frozenset(kinds)


def verdict(differs, kinds, nondeterministic):
    """differs: setting -> bool. A kind is blamed when a setting that changes only that kind
    differs; a difference seen only in settings that change several kinds at once names them."""
    if nondeterministic:
        return "nondeterministic run to run"
    blamed = set()
    for name, d in differs.items():
        if d and len(kinds[name]) == 1:
            blamed |= kinds[name]
    combined = sorted(n for n, d in differs.items()
                      if d and len(kinds[n]) > 1 and not kinds[n] & blamed)
    cpu = sorted(k for k in blamed if k != "threads")
    parts = ["differs with " + " and with ".join(cpu)] if cpu else []
    if combined:
        parts.append("differs only in the combined setting(s) " + ", ".join(combined))
    if not parts:
        parts.append("identical across capabilities")
    if "threads" in blamed:
        parts.append("differs with threads")
    return "; ".join(parts)


def pair_table(data, names, nondet_keys):
    """How many deterministic float metrics differ between every two settings."""
    keys = [k for k in data[names[0]] if k not in nondet_keys]
    out = ["| | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for a in names:
        row = []
        for b in names:
            n = sum(1 for k in keys if k in data[a] and k in data[b]
                    and relative(data[a][k][0], data[b][k][0]) != "=")
            row.append("·" if a == b else str(n))
        out.append(f"| {a} | " + " | ".join(row) + " |")
    return out


def tier_table(tier_dir, reference, repeat, pinned):
    settings = read_settings(tier_dir)
    by_name = {s["name"]: s for s in settings}
    if reference not in by_name:
        sys.exit(f"numerics_table: {tier_dir}/settings.tsv has no setting {reference}")
    data, status, durations, inner = {}, {}, {}, []
    for s in settings:
        runs = run_folders(tier_dir / s["name"])
        data[s["name"]], status[s["name"]], first = load(runs[0])
        durations[s["name"]] = [load(r)[2]["duration_s"] for r in runs]
        for r in runs[1:]:  # the timing rounds: the same setting again must give the same bits
            again = load(r)[0]
            for key, (values, _) in data[s["name"]].items():
                if key in again and relative(again[key][0], values) != "=":
                    inner.append((s["name"], r.name, key))
    others = [s["name"] for s in settings if s["name"] != reference]
    compared = [n for n in others if n != repeat]
    kinds = {n: kinds_of(by_name[n], by_name[reference]) for n in compared}

    keys = list(data[reference])
    for n in others:
        keys += [k for k in data[n] if k not in keys]
    rows, skipped, flagged, floats, nondet_keys = [], 0, 0, set(), set()
    for key in keys:
        per = {n: data[n].get(key, (None, None))[0] for n in data}
        present = [v for v in per.values() if v is not None]
        policy = next(data[n][key][1] for n in data if key in data[n])
        cells = {n: relative(per[n], per[reference]) if per[reference] is not None else "—"
                 for n in others}
        all_whole = all(whole(x) for v in present for x in v)
        if all_whole and all(c in ("=", "—") for c in cells.values()):
            skipped += 1
            continue
        nondet = (repeat in cells and cells[repeat] != "=") or any(
            k == key for *_, k in inner)
        v = verdict({n: cells[n] != "=" for n in compared}, kinds, nondet)
        floats.add(key)
        if nondet:
            nondet_keys.add(key)
        if all_whole:
            flagged += 1
            v = "**WHOLE NUMBER DIFFERS** " + v
        ref = per[reference]
        shown = "—" if ref is None else (f"{ref[0]:.6g}" if len(ref) == 1 else f"{len(ref)} seeds")
        rows.append([key[0], key[1], policy, shown] + [cells[n] for n in others] + [v])

    tier = tier_dir.name
    out = [f"### Tier {tier}", ""]
    header = ["test", "metric", "policy", reference] + others + ["verdict"]
    out.append("| " + " | ".join(header) + " |")
    out.append("|" + "---|" * len(header))
    out += ["| " + " | ".join(r) + " |" for r in rows]
    out.append("")
    out.append(f"{len(rows)} float metrics; {skipped} whole-number metrics identical in every "
               f"setting left out; {flagged} whole-number metrics differ between settings.")
    for s in settings:
        bad = sorted(t for t, st in status[s["name"]].items() if st not in ("passed", "skipped"))
        if bad:
            out.append(f"- {s['name']}: not passed: {', '.join(bad)}")
    inner_only = {}
    for name, _, key in inner:
        if repeat not in data or relative(data[repeat].get(key, (None,))[0],
                                          data[reference][key][0]) == "=":
            inner_only.setdefault(key, set()).add(name)
    for key, names in inner_only.items():
        out.append(f"- {key[0]}.{key[1]}: equal in {reference} and {repeat}, but differs between "
                   f"runs of {', '.join(sorted(names))} (nondeterministic)")
    out.append("")
    floats_only = {n: {k: v for k, v in d.items() if k in floats} for n, d in data.items()}
    out.append(f"How many of the {len(floats - nondet_keys)} deterministic metrics listed above "
               f"differ between two settings (tier {tier}):")
    out.append("")
    out += pair_table(floats_only, [s["name"] for s in settings], nondet_keys)
    out.append("")
    return out, settings, durations


def cpu_title(tier_dir, reference):
    """'# <CPU model> (<vendor>)' from the reference run's environment.json: ci/band_spread_table.py
    reads the tables of several CPUs and names each by this line."""
    run = run_folders(tier_dir / reference)[0]
    cpu = json.loads((run / "environment.json").read_text()).get("cpu", {})
    return f"# {cpu.get('model', 'unknown CPU')} ({cpu.get('vendor', 'unknown vendor')})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tier_dirs", nargs="+", type=pathlib.Path)
    ap.add_argument("--reference", default="A")
    ap.add_argument("--repeat", default="A2")
    ap.add_argument("--pinned", default="D", help="the setting the wall-time table compares")
    args = ap.parse_args()

    out, legend, walls = [cpu_title(args.tier_dirs[0], args.reference), ""], None, []
    for tier_dir in args.tier_dirs:
        lines, settings, durations = tier_table(tier_dir, args.reference, args.repeat, args.pinned)
        out += lines
        legend = legend or settings
        walls.append((tier_dir.name, durations))

    out += ["### Settings", "", "| setting | intra-op threads | environment |", "|---|---|---|"]
    for s in legend:
        env = " ".join(f"`{e}`" for e in s["env"]) or "(none: natural)"
        out.append(f"| {s['name']} | {s['threads']} | {env} |")
    out.append("")

    out += ["### Wall time of the tier run (s, results.json run.duration_s)", ""]
    out += ["| tier | setting | runs | median | each |", "|---|---|---|---|---|"]
    for tier, durations in walls:
        order = [args.reference, args.repeat, args.pinned] + list(durations)
        for name in dict.fromkeys(n for n in order if n in durations):
            d = durations[name]
            out.append(f"| {tier} | {name} | {len(d)} | {statistics.median(d):.2f} | "
                       + " ".join(f"{x:.2f}" for x in d) + " |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
