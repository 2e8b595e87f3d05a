#!/usr/bin/env python3
"""Plot weak or strong scaling results (kind "scaling", docs/results.md):
steps per second against the number of ranks and the parallel efficiency,
E = TPS(n) / TPS(1) for weak scaling (particles per rank fixed) and
E = TPS(n) / (n TPS(1)) for strong scaling (system fixed), relative to the
smallest rank count measured.

    scripts/plot_scaling.py weak.json -o weak.png
"""
import argparse
import sys

from result_files import load


def plot(docs, output):
    """docs: [(relative path, parsed scaling result)], all of one mode."""
    import matplotlib.pyplot as plt
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    mode = docs[0][1]["mode"]
    for rel, doc in docs:
        pts = sorted((p["ranks"], p["tps_median"]) for p in doc["points"])
        r0, t0 = pts[0]
        label = f'{doc.get("workload", "?")} {doc.get("backend", "?")} ({doc["provenance"].get("gpu_model") or "cpu"})'
        ranks = [p[0] for p in pts]
        ax1.plot(ranks, [p[1] for p in pts], marker="o", label=label)
        if mode == "weak":
            eff = [t / t0 for _, t in pts]
        else:
            eff = [t * r0 / (t0 * r) for r, t in pts]
        ax2.plot(ranks, eff, marker="o", label=label)
    for ax in (ax1, ax2):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("ranks (GPUs)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    ax1.set_ylabel("steps per second (median)")
    ax1.set_title(f"{mode} scaling")
    ax2.set_ylabel("parallel efficiency")
    ax2.axhline(1.0, color="k", lw=0.8)
    ax2.set_title("efficiency relative to the fewest ranks")
    fig.tight_layout()
    fig.savefig(output)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+", help="scaling results, all weak or all strong")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    docs = []
    for path in args.json:
        try:
            doc = load(path)
        except (OSError, ValueError) as e:
            print(f"plot_scaling: cannot read {path}: {e}", file=sys.stderr)
            return 2
        if doc.get("kind") != "scaling":
            print(f"plot_scaling: {path} is not a scaling result (docs/results.md)", file=sys.stderr)
            return 2
        docs.append((path, doc))
    if len({d["mode"] for _, d in docs}) != 1:
        print("plot_scaling: give results of one mode (weak or strong)", file=sys.stderr)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    plot(docs, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
