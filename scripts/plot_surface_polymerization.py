#!/usr/bin/env python3
"""GALAMOST's Table 2 (surface-initiated polymerization from a ball) against
mesobench's surface-polymerization runs: TPS against N for each result file
(`mesobench run --filter surface-polymerization --json F`), beside the TPS
Zhu et al. (J. Comput. Chem. 34, 2197 (2013), Table 2) report on a Tesla
C2050 after 1M steps of growth.

    scripts/plot_surface_polymerization.py mixed.json double.json [cpu.json] -o out.png
"""
import argparse
import sys

from result_files import load

# Table 2 of GALAMOST: total N and TPS on one C2050.
GALAMOST_C2050 = [(48210, 780.9), (192876, 220.4), (434046, 126.4), (1206216, 43.28), (3907593, 13.31)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for path in a.files:
        doc = load(path)
        rows = sorted((r["N"], r["tps_median"], r["tps_min"], r["tps_max"]) for r in doc["results"]
                      if r["workload"] == "surface-polymerization")
        if not rows:
            sys.exit(f"plot_surface_polymerization: {path} holds no surface-polymerization result")
        first = next(r for r in doc["results"] if r["workload"] == "surface-polymerization")
        gpu = doc["provenance"].get("gpu_model", "") if first["backend"] == "cuda" else ""
        label = f"{first['backend']} {first['variant'].split('precision=')[-1].split(',')[0]}"
        if gpu:
            label += f" ({gpu})"
        n = [r[0] for r in rows]
        ax.errorbar(n, [r[1] for r in rows], yerr=[[r[1] - r[2] for r in rows], [r[3] - r[1] for r in rows]],
                    marker="o", capsize=3, label=label)
    ax.plot([r[0] for r in GALAMOST_C2050], [r[1] for r in GALAMOST_C2050], "k--", marker="s",
            label="GALAMOST, Tesla C2050 (Table 2, after 1M steps)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("particles N (ball radius 5, 10, 15, 25, 45)")
    ax.set_ylabel("time steps per second")
    ax.set_title("surface-initiated polymerization from a ball")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(a.output, dpi=150)
    print(f"plot_surface_polymerization: wrote {a.output}")


if __name__ == "__main__":
    main()
