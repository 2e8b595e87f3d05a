#!/usr/bin/env python3
"""One line per mesobench lj-liquid JSON: TPS median (min..max) and the
per-kernel medians of the profile (force, nlist, cells, ...) in microseconds.
Usage: scripts/lj_summary.py results/cuda-lj/lj-liquid-*.json"""
import json
import sys

KEYS = ["force", "nlist", "cells", "reorder+rebuild", "integrate_first_half",
        "integrate_second_half", "displacement"]
for path in sys.argv[1:]:
    try:
        doc = json.load(open(path))
    except (OSError, ValueError) as e:
        print(f"{path}: unreadable ({e})")
        continue
    for r in doc.get("results", []):
        k = (r.get("device") or {}).get("kernels", {})
        nl = r.get("neighbor_list", {})
        parts = " ".join(f"{key}={k[key]['median_us']:.1f}" for key in KEYS if key in k)
        steps_per_build = r["steps_per_repeat"] * r["repeats"] / max(nl.get("builds", 1), 1)
        print(f"{r['variant']} N={r['N']}: TPS {r['tps_median']:.0f} "
              f"({r['tps_min']:.0f}..{r['tps_max']:.0f}) steps/build~{steps_per_build:.1f} {parts}")
