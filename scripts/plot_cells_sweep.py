#!/usr/bin/env python3
"""Particle-steps/s against N for each list kind and density (issue 55's figure).

Reads the sweep-rho{RHO}-{N}-{KIND}.json results of scripts/device_merge_check.sh in SRC and
writes OUT/sweep.json (one results document: the first run's provenance, every run's entry) and
OUT/tps-vs-n.png (one panel a density, a line a list kind).
Usage: plot_cells_sweep.py SRC OUT
"""
import glob
import json
import os
import re
import sys

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(src, out):
    rows, entries, provenance = [], [], None
    for path in sorted(glob.glob(os.path.join(src, "sweep-rho*-*-*.json"))):
        m = re.match(r"sweep-rho(\d+)-(\d+)-(\w+)\.json$", os.path.basename(path))
        with open(path) as f:
            doc = json.load(f)
        r = doc["results"][0]
        entries.append(r)
        provenance = provenance or doc["provenance"]
        rows.append({"rho": int(m.group(1)), "N": r["N"], "nlist": m.group(3), "tps_median": r["tps_median"],
                     "tps_min": r["tps_min"], "tps_max": r["tps_max"], "repeats": r["repeats"],
                     "variant": r["variant"], "provenance": doc["provenance"]})
    if not rows:
        sys.exit(f"plot_cells_sweep: no sweep-rho*-*-*.json in {src}")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "sweep.json"), "w") as f:
        json.dump({"kind": "benchmark", "schema_version": 1, "provenance": provenance, "results": entries}, f,
                  separators=(",", ":"))
    rhos = sorted({r["rho"] for r in rows})
    fig, axes = plt.subplots(1, len(rhos), figsize=(5.5 * len(rhos), 4), squeeze=False)
    for ax, rho in zip(axes[0], rhos):
        for kind, style in (("half", "o-"), ("cells", "s--"), ("ballot", "^"), ("atomic", "v"), ("tiled", "D"),
                            ("cluster", "x")):
            pts = sorted((r["N"], r["tps_median"] * r["N"] / 1e9) for r in rows if r["rho"] == rho and r["nlist"] == kind)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=f"nlist={kind}")
        ax.set_xscale("log")
        ns = sorted({r["N"] for r in rows if r["rho"] == rho})
        ax.set_xticks(ns, [f"{n / 2**20:g}M" if n >= 2**20 else f"{n // 1024}k" for n in ns])
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel("N")
        ax.set_ylabel("G particle-steps/s")
        ax.set_title(f"dpd-fluid, rho = {rho}, mixed")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "tps-vs-n.png"), dpi=100)
    print(f"wrote {out}/sweep.json and {out}/tps-vs-n.png ({len(rows)} runs)")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
