#!/usr/bin/env python3
"""Plot weak or strong scaling results (kind "scaling", docs/results.md):
steps per second against the number of ranks, the parallel efficiency,
E = TPS(n) / TPS(1) for weak scaling (particles per rank fixed) and
E = TPS(n) / (n TPS(1)) for strong scaling (system fixed), relative to the
smallest rank count measured, and where a step's time goes (compute,
packing, host-device copies, MPI including the wait for the slowest rank:
the "split" of each point, mean over ranks). The papers' published
efficiencies for the same workload and mode are drawn as dashed lines.

    scripts/plot_scaling.py weak.json -o weak.png
    scripts/plot_scaling.py a/summary.json b/summary.json --label ipc --label nccl -o ab.png
"""
import argparse
import sys

from result_files import load


def plot_split(ax3, docs):
    """Stacked bars of each point's split, a group per result."""
    parts = [("compute", "tab:blue"), ("pack", "tab:orange"), ("copy", "tab:green"), ("mpi_wait", "tab:red")]
    width = 0.8 / len(docs)
    ranks = sorted({p["ranks"] for _, doc in docs for p in doc["points"]})
    labels = [str(r) for r in ranks]
    for k, (rel, doc) in enumerate(docs):
        pts = sorted(doc["points"], key=lambda p: p["ranks"])
        bottom = [0.0] * len(pts)
        for name, color in parts:
            frac = [p["split"][name] / p["seconds_per_step"] for p in pts]
            xs = [ranks.index(p["ranks"]) + (k - (len(docs) - 1) / 2) * width for p in pts]
            ax3.bar(xs, frac, width, bottom=bottom, color=color, edgecolor="k", lw=0.3,
                    label=name if k == 0 else None)
            bottom = [b + f for b, f in zip(bottom, frac)]
    ax3.set_xticks(range(len(labels)), labels)
    ax3.set_xlabel("ranks" + (" (bar groups: " + ", ".join(f'{d.get("workload", "?")} {d.get("backend", "")}' for _, d in docs) + ")"
                              if len(docs) > 1 else ""))
    ax3.set_ylabel("fraction of the step")
    ax3.set_title("time split (mean over ranks)")
    ax3.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))


# The papers' published efficiencies, drawn beside a sweep of the same
# workload and mode (their machines, sizes and rank counts, not ours):
# (workload, mode) -> [(efficiency, label)].
PUBLISHED = {
    ("srd-fluid", "weak"): [(0.65, "Howard et al. 2018: > 0.65, 1.25M per GPU, 1024 GPUs")],
    ("dpd-fluid", "weak"): [(1.0, "Tang & Karniadakis 2014: near-linear, 1M per node, 1024 nodes")],
}


def plot_published(ax, docs, mode):
    """Dashed lines at the published efficiencies of the workloads shown."""
    shown = set()
    for _, doc in docs:
        for eff, label in PUBLISHED.get((doc.get("workload"), mode), []):
            if label in shown:
                continue
            shown.add(label)
            ax.axhline(eff, color="0.4", ls="--", lw=1.0, label=label)


def representative(docs, most=8):
    """One sweep per workload, backend, device and transport (the one with the
    most points, then the latest), at most `most` of them (those with the most
    points first): a results tree holds a hundred sweeps, and a figure of all
    of them is unreadable (issue 58)."""
    def group(doc):
        prov = doc.get("provenance", {})
        moved = sorted({str(p.get("transport")) for p in doc["points"] if p.get("ranks", 1) > 1})
        device = prov.get("gpu_model") if doc.get("backend") == "cuda" else prov.get("cpu_model")
        return (doc.get("workload"), doc.get("backend"), device, ",".join(moved))

    def rank(item):
        return (len(item[1]["points"]), item[1].get("provenance", {}).get("date_utc", ""), item[0])

    best = {}
    for item in docs:
        key = group(item[1])
        if key not in best or rank(item) > rank(best[key]):
            best[key] = item
    chosen = sorted(best.values(), key=rank, reverse=True)[:most]
    return sorted(chosen, key=lambda item: item[0])


def plot(docs, output, labels=None):
    """docs: [(relative path, parsed scaling result)], all of one mode;
    labels: the legend's names of the results, in order (default: workload,
    backend, GPU and transport)."""
    import matplotlib.pyplot as plt
    def has_split(doc):
        return all("split" in p and p.get("seconds_per_step") for p in doc["points"])
    split_docs = [(rel, doc) for rel, doc in docs if has_split(doc)]
    # Two panels a row, the time split (where the results carry it) below them;
    # the legends outside the panels, so that none covers data (issue 58).
    fig = plt.figure(layout="constrained", figsize=(10, 8.5 if split_docs else 5))
    grid = fig.add_gridspec(2 if split_docs else 1, 2)
    ax1, ax2 = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1])
    mode = docs[0][1]["mode"]
    def base_label(doc):
        backend = doc.get("backend", "?")
        where = doc["provenance"].get("gpu_model") if backend == "cuda" else None
        # How the GPU ranks' records travelled (the points of several ranks say).
        moved = {p.get("transport") for p in doc["points"] if p["ranks"] > 1 and p.get("transport")}
        how = f", {moved.pop()}" if backend == "cuda" and len(moved) == 1 else ""
        return f'{doc.get("workload", "?")} {backend}' + (f" ({where}{how})" if where else "")
    bases = [base_label(doc) for _, doc in docs]
    for k, (rel, doc) in enumerate(docs):
        pts = sorted((p["ranks"], p["tps_median"], p.get("N", 1)) for p in doc["points"])
        r0, t0, n0 = pts[0]
        label = base_label(doc)
        if labels:
            label = labels[k]
        elif bases.count(label) > 1:  # the same workload twice: name the runs by commit
            label += f' ({doc["provenance"].get("git_commit", "?")[:7]})'
        ranks = [p[0] for p in pts]
        ax1.plot(ranks, [p[1] for p in pts], marker="o", label=label)
        if mode == "weak":  # particle-steps per second per rank (mesobench scale's definition)
            eff = [(t * n / r) / (t0 * n0 / r0) for r, t, n in pts]
        else:
            eff = [t * r0 / (t0 * r) for r, t, _ in pts]
        ax2.plot(ranks, eff, marker="o", label=label)
    for ax in (ax1, ax2):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("ranks" + (" (GPUs)" if all(d.get("backend") == "cuda" for _, d in docs) else ""))
        ax.grid(True, which="both", alpha=0.3)
    ax1.set_ylabel("steps per second (median)")
    tps = [p["tps_median"] for _, d in docs for p in d["points"] if p["tps_median"] > 0]
    if tps and max(tps) > 20 * min(tps):  # e.g. GPU and CPU series in one figure
        ax1.set_yscale("log")
    ax1.set_title(f"{mode} scaling")
    ax2.set_ylabel("parallel efficiency")
    ax2.axhline(1.0, color="k", lw=0.8)
    plot_published(ax2, docs, mode)
    ax2.set_title("efficiency relative to the fewest ranks")
    # One legend for both panels (the efficiency panel's lines: every result
    # and the published efficiencies), above them.
    handles, names = ax2.get_legend_handles_labels()
    fig.legend(handles, names, loc="outside upper center", ncol=2 if len(names) > 3 else 1, fontsize=7)
    # The split, one group of bars per result, as a fraction of the step.
    if split_docs:
        plot_split(fig.add_subplot(grid[1, :]), split_docs)
    fig.savefig(output)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+", help="scaling results, all weak or all strong")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--label", action="append", help="the legend's name of each result, in order (repeat)")
    args = ap.parse_args()
    if args.label and len(args.label) != len(args.json):
        print(f"plot_scaling: {len(args.label)} --label for {len(args.json)} results", file=sys.stderr)
        return 2
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
    plot(docs, args.output, args.label)
    return 0


if __name__ == "__main__":
    sys.exit(main())
