#!/usr/bin/env python3
"""Peers beside our own variants (issue 58): million particle-steps per
second against N, a panel per workload, for
  - mesobench: per backend, device and precision the best variant measured at
    each N the peers ran or the papers published (of the peers' system);
  - each peer engine's results (scripts/peers/*_peer.py: an entry with "peer"),
    labelled with the engine, its version, platform and device;
  - the papers' published figures (scripts/peers/published.json), hollow
    markers labelled with the engine and the hardware each ran on.
A workload is drawn when it has a peer result, or a published figure and a
result of ours; two panels a row, the legend under each (never over the data).

    scripts/plot_peers.py openmm-h200.json lammps-cpu.json ours.json -o peers.png
"""
import argparse
import json
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_benchmarks import Rows, device_of, precision_of, system_of, workload_of, workload_points  # noqa: E402
from result_files import load  # noqa: E402

PUBLISHED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers", "published.json")


def published_figures(path=PUBLISHED):
    with open(path) as f:
        return json.load(f)["figures"]


def peer_rows(docs, published):
    """docs: [(relative path, benchmark result)]; published: published_figures().
    -> Rows of (workload, [(label, kind, [(N, MPS/s)])]), kind one of "ours",
    "peer", "published"."""
    peers = defaultdict(lambda: defaultdict(dict))  # workload -> label -> N -> (mps, rel)
    ours = defaultdict(lambda: defaultdict(lambda: defaultdict(dict)))  # workload -> system -> label -> N -> (mps, rel)
    for rel, prov, r, mps in workload_points(docs):
        w, p = workload_of(r), r.get("peer")
        if p:
            line = peers[w][f'{p["engine"]} {p.get("version", "")} {p.get("platform", r["backend"])} '
                            f'({device_of(r, prov)})']
        else:
            line = ours[w][system_of(r)][f'mesobench {r["backend"]} {precision_of(r)} ({device_of(r, prov)})']
        if r["N"] not in line or mps > line[r["N"]][0]:
            line[r["N"]] = (mps, rel)
    pub = defaultdict(lambda: defaultdict(dict))
    for f in published:
        pub[f["workload"]][f'{f["engine"]}, {f["hardware"]} (published)'][f["N"]] = f["tps"] * f["N"] * 1e-6
    out = Rows()
    for w in sorted(set(peers) | (set(pub) & set(ours))):
        lines = []
        # Ours at the peers' and the published sizes; with peers, only the system they ran
        # (their case names' parameters).
        systems = {system_of(r) for _, d in docs for r in d["results"] if "peer" in r and workload_of(r) == w}
        sizes = {n for pts in list(peers[w].values()) + list(pub[w].values()) for n in pts}
        best = defaultdict(dict)
        for system, per_label in ours[w].items():
            for label, pts in per_label.items():
                for n, v in pts.items():
                    if n not in sizes or (peers[w] and system not in systems):
                        continue
                    if n not in best[label] or v[0] > best[label][n][0]:
                        best[label][n] = v
        for label, pts in sorted(best.items()):
            if pts:
                lines.append((label, "ours", [(n, v[0]) for n, v in sorted(pts.items())]))
                out.sources |= {v[1] for v in pts.values()}
        for label, pts in sorted(peers[w].items()):
            lines.append((label, "peer", [(n, v[0]) for n, v in sorted(pts.items())]))
            out.sources |= {v[1] for v in pts.values()}
        for label, pts in sorted(pub[w].items()):
            lines.append((label, "published", sorted(pts.items())))
        out.rows.append((w, lines))
    return out


STYLE = {"ours": dict(marker="o", ls="-"), "peer": dict(marker="s", ls="--"),
         "published": dict(marker="D", ls=":", mfc="none")}


def plot_peers(rows, output):
    import matplotlib.pyplot as plt
    cols = min(2, len(rows.rows))
    nrows = (len(rows.rows) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(6.5 * cols, 5.8 * nrows), squeeze=False)
    for ax in axes.flat[len(rows.rows):]:
        ax.set_visible(False)
    for ax, (workload, lines) in zip(axes.flat, rows.rows):
        for label, kind, pts in lines:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], label=label, **STYLE[kind])
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("N (particles)")
        ax.set_ylabel("million particle-steps per second (median)")
        ax.set_title(workload)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=1, frameon=False)
    fig.tight_layout()
    fig.savefig(output)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="+", help="benchmark results (mesobench run --json and the peers')")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    rows = peer_rows([(path, load(path)) for path in args.results], published_figures())
    if not rows.rows:
        print("plot_peers: no peer result, and no published figure of a workload in these results",
              file=sys.stderr)
        return 1
    plot_peers(rows, args.output)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
