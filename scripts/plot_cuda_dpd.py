#!/usr/bin/env python3
"""TPS and MPS/s against N per precision for the dpd-fluid step on the CUDA
backend, with the CPU reference on the same host, from mesobench JSON files.

usage: scripts/plot_cuda_dpd.py results/cuda-dpd/step-{double,mixed,single}.json \
           --cpu results/cuda-dpd/cpu-same-host.json -o results/cuda-dpd/step-vs-n.png

One curve per precision and neighbor list (nlist axis, and the skins of
dynamic pruning), gathered over the files given.
"""
import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    with open(path) as f:
        doc = json.load(f)
    return doc["provenance"], doc["results"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--cpu")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
    prov = None
    # One series per precision and neighbor list, whatever the files: a file
    # may hold one N (a sweep of single runs) or all of them.
    series = {}
    for path in a.files:
        prov, res = load(path)
        for r in res:
            axes = dict(kv.split("=", 1) for kv in r["variant"].split(",") if "=" in kv)
            label = f"{axes.get('precision', '?')}, nlist={axes.get('nlist', '?')}"
            if r.get("parameters", {}).get("inner_skin"):  # dynamic pruning: skin and inner_skin
                label += f", skin={r['parameters']['skin']}, inner_skin={r['parameters']['inner_skin']}"
            series.setdefault(label, []).append(r)
    for label, res in sorted(series.items()):
        res = sorted(res, key=lambda r: r["N"])
        n = [r["N"] for r in res]
        ax[0].errorbar(n, [r["tps_median"] for r in res],
                       yerr=[[r["tps_median"] - r["tps_min"] for r in res],
                             [r["tps_max"] - r["tps_median"] for r in res]],
                       marker="o", capsize=3, label=f"cuda {label}")
        ax[1].plot(n, [r["mps_median"] for r in res], marker="o", label=f"cuda {label}")
    if a.cpu:
        cprov, res = load(a.cpu)
        res = sorted(res, key=lambda r: r["N"])
        n = [r["N"] for r in res]
        lab = f"cpu reference ({cprov.get('cpu_threads', '?')} threads, reorder=cell)"
        ax[0].plot(n, [r["tps_median"] for r in res], "k--s", label=lab)
        ax[1].plot(n, [r["mps_median"] for r in res], "k--s", label=lab)
    for x, yl in zip(ax, ["time steps per second (median, min..max)", "million particle-steps / s"]):
        x.set_xscale("log")
        x.set_yscale("log")
        x.set_xlabel("N")
        x.set_ylabel(yl)
        x.grid(True, which="both", alpha=0.3)
        x.legend(fontsize=8)
    gpu = prov.get("gpu_model", "?") if prov else "?"
    fig.suptitle(f"dpd-fluid step, rho=3, r_c=1, s=0.5 ({gpu}, commit {prov.get('git_commit', '?')})",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(a.output, dpi=120)


if __name__ == "__main__":
    main()
