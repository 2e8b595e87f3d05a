#!/usr/bin/env python3
"""Plot the nve-drift validation like HOOMD-blue's Fig. 4 (Anderson, Lorenz &
Travesset 2008): E(t) - E(0) per particle for the short and the long NVE runs
of every case and precision in the given files, and a table of |dE/E|, energy
drift and momentum drift against the published Table 2 values.

    scripts/plot_nve_drift.py results/validation/nve-drift-short-double.json.xz \
        results/validation/nve-drift-short-single.json.xz -o nve-drift-short.png

Inputs may be compressed (.json.xz, .json.gz). With many runs per case only
the first few are drawn in the E(t) panels; the table uses all of them.
"""
import argparse
import json
import lzma
import sys

from result_files import open_json
from validation_provenance import provenance_line


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+", help="outputs of `mesobench validate --filter nve-drift --json`")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    cases = []
    docs = []
    for path in args.json:
        try:
            with open_json(path) as f:
                doc = json.load(f)
            for c in doc["cases"]:
                if c["name"] in ("nve-drift-shift", "nve-drift-xplor"):
                    cases.append((doc.get("backend", "?"), c))
            docs.append(doc)
        except (OSError, KeyError, json.JSONDecodeError, lzma.LZMAError) as e:
            print(f"plot_nve_drift: cannot read {path}: {e}", file=sys.stderr)
            return 2
    if not cases:
        print("plot_nve_drift: no nve-drift case in the inputs", file=sys.stderr)
        return 2

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(12, 9))
    ax_s = fig.add_subplot(2, 2, 1)
    ax_l = fig.add_subplot(2, 2, 2)
    ax_t = fig.add_subplot(2, 1, 2)
    rows = []
    for backend, c in cases:
        d = c["data"]
        label = f"{d['mode']} {d['precision']} ({backend})"
        color = None
        for k, run in enumerate(d["per_run"][:2]):
            kw = {"lw": 0.7, "label": label if k == 0 else None, "color": color}
            # The first 5 tau of the short run: one |dE/E| window.
            short = [(t, e) for t, e in zip(run["short_t"], run["short_e_minus_e0_per_n"])
                     if t - run["short_t"][0] <= 5.0]
            line = ax_s.plot([t for t, _ in short], [e for _, e in short], **kw)[0]
            color = line.get_color()
            kw["color"] = color
            ax_l.plot(run["long_t"], run["long_e_minus_e0_per_n"], **kw)
        for g in d["gates"]:
            lim = g.get("limit", g.get("tolerance"))
            rows.append([f"{label}, {len(d['per_run'])} runs", g["quantity"], f"{g['measured']:.3g} ± {g['sem']:.2g}",
                         f"{g['published']:.3g} ({g['published_2sem']:.1g})", f"{lim:.3g}",
                         "PASS" if g["passed"] else "FAIL"])
    n = cases[0][1]["data"]["N"]
    for ax, title in ((ax_s, "short NVE run"), (ax_l, "long NVE run")):
        ax.set_xlabel("t (tau)")
        ax.set_ylabel("(E(t) - E(0)) / N  (eps)")
        ax.set_title(f"{title}, LJ N = {n}, rho = 0.4, dt = 0.005")
        ax.legend(fontsize=7)
    ax_t.axis("off")
    tab = ax_t.table(cellText=rows, colLabels=["case", "quantity", "measured ± SEM", "published (2 SEM)",
                                               "gate limit/tol.", "gate"], loc="center")
    tab.auto_set_font_size(False)
    tab.set_fontsize(7)
    tab.scale(1, 1.2)
    fig.text(0.01, 0.01, provenance_line(docs), fontsize=6, color="0.4")
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
