#!/usr/bin/env python3
"""Plot lj-liquid results (`mesobench run --filter lj-liquid --json`): time
steps per second per variant with the min..max of the repeats, the 20000 TPS
target and HOOMD-blue 0.11.3 on a GTX Titan (1270 TPS), and beside it where a
step's time goes (force kernel, neighbor-list build per step, the rest).

    scripts/plot_lj_liquid.py results/cuda-lj/lj-liquid-*.json -o results/cuda-lj/lj-liquid.png
"""
import argparse
import json
import sys

TARGET_TPS = 20000.0
TITAN_TPS = 1270.0  # docs/reference.md: HOOMD-blue 0.11.3, GTX Titan, N = 64000


def short(variant):
    keep = ("precision", "nlist", "reorder", "tpp")
    kv = dict(p.split("=", 1) for p in variant.split(","))
    return ",".join(f"{k}={kv[k]}" for k in keep if k in kv)


def load(paths):
    rows, prov = [], None
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        prov = prov or doc["provenance"]
        for r in doc["results"]:
            if r["N"] != 64000:
                continue
            k = r.get("device", {}).get("kernels", {})
            nl = r["neighbor_list"]
            steps_per_build = r["steps_per_repeat"] * r["repeats"] / max(nl["builds"], 1)
            step_us = 1e6 / r["tps_median"]
            force = k.get("force", {}).get("median_us", 0.0)
            build = (k.get("nlist", {}).get("median_us", 0.0) + k.get("cells", {}).get("median_us", 0.0)) / steps_per_build
            rows.append((short(r["variant"]), r["tps_median"], r["tps_min"], r["tps_max"],
                         force, build, max(step_us - force - build, 0.0)))
    rows.sort(key=lambda x: x[1])
    return rows, prov


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    try:
        rows, prov = load(args.json)
    except (OSError, KeyError, ValueError) as e:
        print(f"plot_lj_liquid: cannot read results: {e}", file=sys.stderr)
        return 1
    if not rows:
        print("plot_lj_liquid: no N = 64000 lj-liquid results", file=sys.stderr)
        return 1
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [r[0] for r in rows]
    y = range(len(rows))
    fig, (a, b) = plt.subplots(1, 2, figsize=(13, 0.45 * len(rows) + 2.2), sharey=True)
    tps = [r[1] for r in rows]
    err = [[r[1] - r[2] for r in rows], [r[3] - r[1] for r in rows]]
    a.barh(y, tps, xerr=err, color="tab:blue", capsize=2)
    a.axvline(TARGET_TPS, color="tab:red", ls="--", label="target 20000 TPS")
    a.axvline(TITAN_TPS, color="gray", ls=":", label="HOOMD-blue 0.11.3, GTX Titan")
    a.set_yticks(list(y), names, fontsize=7)
    a.set_xlabel("time steps per second (median, min..max of 5)")
    a.legend(fontsize=7, loc="lower right")
    left = [0.0] * len(rows)
    for col, label, color in ((4, "force kernel", "tab:orange"), (5, "list + cells per step", "tab:green"),
                              (6, "rest (integration, control, launches)", "tab:gray")):
        vals = [r[col] for r in rows]
        b.barh(y, vals, left=left, color=color, label=label)
        left = [l + v for l, v in zip(left, vals)]
    b.axvline(1e6 / TARGET_TPS, color="tab:red", ls="--")
    b.set_xlabel("microseconds per step")
    b.legend(fontsize=7, loc="lower right")
    fig.suptitle(f'lj-liquid N = 64000 (phi 0.2, r_cut 3.0, NVT) on {prov["gpu_model"]}; '
                 f'mesobench {prov["git_commit"]}, {prov["date_utc"][:10]}', fontsize=9)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main())
