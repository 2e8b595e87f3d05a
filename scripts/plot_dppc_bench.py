#!/usr/bin/env python3
"""Plot the mdscf-dppc benchmarks (results/dppc/bench, `mesobench run
--filter mdscf-dppc ... --json`): TPS of the 20k- and ~1M-bead systems for
double and mixed precision with the per-vertex gather and the atomic scatter
of the density, and the time per field update (from update=1 against
update=10^9), one panel each, with the provenance of the first file.

    scripts/plot_dppc_bench.py results/dppc/bench -o results/dppc/dppc-bench.png
"""
import argparse
import json
import os
import sys



def load(d, name):
    with open(os.path.join(d, name + ".json")) as f:
        doc = json.load(f)
    return doc, doc["results"][0]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    try:
        tps, upd = {}, {}
        doc0 = None
        for size in ("20k", "1M"):
            for prec in ("double", "mixed"):
                for dens in ("gather", "scatter"):
                    doc, c = load(args.dir, f"dppc{size}-{prec}-{dens}")
                    doc0 = doc0 or doc
                    tps[(size, prec, dens)] = (c["tps_median"], c["tps_min"], c["tps_max"])
                t1 = load(args.dir, f"dppc{size}-{prec}-update1")[1]["tps_median"]
                tinf = load(args.dir, f"dppc{size}-{prec}-update1000000000")[1]["tps_median"]
                upd[(size, prec)] = (1e6 / t1 - 1e6 / tinf, 1e6 / tinf)
    except (OSError, KeyError, IndexError, json.JSONDecodeError) as e:
        print(f"plot_dppc_bench: cannot read {args.dir}: {e}", file=sys.stderr)
        return 2

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    for ax, size, n in ((axes[0], "20k", "20,336"), (axes[1], "1M", "996,464")):
        labels, vals, err, colours = [], [], [], []
        for prec in ("double", "mixed"):
            for dens, col in (("gather", "C0"), ("scatter", "C1")):
                m, lo, hi = tps[(size, prec, dens)]
                labels.append(f"{prec}\n{dens}")
                vals.append(m)
                err.append((m - lo, hi - m))
                colours.append(col)
        ax.bar(range(4), vals, color=colours, yerr=list(zip(*err)), capsize=3)
        for k, v in enumerate(vals):
            ax.text(k, v, f"{v:.0f}", ha="center", va="bottom", fontsize=8)
        ax.set_xticks(range(4), labels)
        ax.set_ylabel("time steps per second")
        ax.set_title(f"mdscf-dppc, {n} beads (update every 10)", fontsize=9)
    ax = axes[2]
    keys = [(s, p) for s in ("20k", "1M") for p in ("double", "mixed")]
    x = range(4)
    ax.bar([k - 0.2 for k in x], [upd[k][0] for k in keys], width=0.4, color="C2", label="one field update (gather)")
    ax.bar([k + 0.2 for k in x], [upd[k][1] for k in keys], width=0.4, color="C7", label="a step without update")
    for k, key in enumerate(keys):
        ax.text(k - 0.2, upd[key][0], f"{upd[key][0]:.0f}", ha="center", va="bottom", fontsize=7)
        ax.text(k + 0.2, upd[key][1], f"{upd[key][1]:.0f}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(list(x), [f"{s}\n{p}" for s, p in keys])
    ax.set_ylabel("microseconds")
    ax.legend(fontsize=7)
    ax.set_title("time per field update (update=1 vs 10^9)", fontsize=9)
    p = doc0["provenance"]
    line = (f"mesobench {p.get('git_commit')}  {p.get('gpu_model')}  {p.get('date_utc')}  "
            "median of 5 repeats, bars: min..max")
    fig.text(0.01, 0.005, line, fontsize=6)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(args.output, dpi=130)
    return 0


if __name__ == "__main__":
    sys.exit(main())
