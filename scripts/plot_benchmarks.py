#!/usr/bin/env python3
"""Plot `mesobench run --json` results: MPS/s against N, one line per
(backend, variant, rho, rc), with the min..max spread of the repeats as error
bars. Several JSON files (e.g. different machines or commits) can be overlaid.

    scripts/plot_benchmarks.py results/cpu-baseline/*.json -o results/cpu-baseline/mps.png
"""
import argparse
import json
import re
import sys
from collections import defaultdict


def load(paths):
    series = defaultdict(list)
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        prov = doc["provenance"]
        where = prov["gpu_model"] if any(r["backend"] == "cuda" for r in doc["results"]) else (
            f'{prov["cpu_model"]} x{prov["cpu_threads"]}')
        for r in doc["results"]:
            p = r["parameters"]
            key = f'{r["backend"]} {r["variant"]} rho={p["rho"]:g} rc={p["rc"]:g} ({where})'
            series[key].append((r["N"], r["mps_median"], r["tps_min"] * r["N"] * 1e-6,
                                r["tps_max"] * r["N"] * 1e-6))
    return series


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+", help="mesobench run --json files")
    ap.add_argument("-o", "--output", required=True, help="output image (.png, .pdf, .svg)")
    ap.add_argument("--filter", default="", help="regular expression on the series label")
    args = ap.parse_args()
    try:
        series = load(args.json)
    except (OSError, KeyError, json.JSONDecodeError) as e:
        print(f"plot_benchmarks: cannot read results: {e}", file=sys.stderr)
        return 2
    series = {k: v for k, v in series.items() if re.search(args.filter, k)}
    if not series:
        print(f"plot_benchmarks: no series match --filter '{args.filter}'", file=sys.stderr)
        return 2

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    for label, pts in sorted(series.items()):
        pts.sort()
        n = [p[0] for p in pts]
        mps = [p[1] for p in pts]
        lo = [p[1] - p[2] for p in pts]
        hi = [p[3] - p[1] for p in pts]
        ax.errorbar(n, mps, yerr=[lo, hi], marker="o", capsize=3, label=label)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("N (particles)")
    ax.set_ylabel("million particle-steps per second (median; bars: min..max)")
    ax.set_title("mesobench dpd-fluid/step")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
