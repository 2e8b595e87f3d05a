#!/usr/bin/env python3
"""Before/after timings of a device refactor check (scripts/device_*_check.sh).

Reads, in the folder given:
  tps-<case>-<before|after>-<round>.json     `mesobench run --json` results
  scale-<case>-<before|after>-<round>/       `mesobench scale --out` folders (the 2-rank point)
and prints, per case, the median TPS of the rounds before and after, their
ratio, and each round's value.
"""
import glob
import json
import os
import statistics
import sys


def main(folder):
    rows = {}
    for f in sorted(glob.glob(os.path.join(folder, "tps-*-*-*.json"))):
        case, side, _ = os.path.basename(f)[4:-5].rsplit("-", 2)
        try:
            r = json.load(open(f))["results"][0]
        except (OSError, ValueError, KeyError, IndexError) as e:
            print(f"{f}: unreadable ({e})")
            continue
        rows.setdefault(case, {}).setdefault(side, []).append(r["tps_median"])
    for d in sorted(glob.glob(os.path.join(folder, "scale-*-*-*"))):
        if not os.path.isdir(d):
            continue
        case, side, _ = os.path.basename(d)[6:].rsplit("-", 2)
        try:
            points = json.load(open(os.path.join(d, "summary.json")))["points"]
            p = [q for q in points if q["ranks"] == 2][0]
        except (OSError, ValueError, KeyError, IndexError) as e:
            print(f"{d}: unreadable ({e})")
            continue
        rows.setdefault(case + "-2ranks", {}).setdefault(side, []).append(p["tps_median"])
    print(f"{'case':11} {'before TPS':>11} {'after TPS':>11} {'after/before':>13}  (medians of the rounds)")
    for case, d in rows.items():
        b = statistics.median(d.get("before", [float("nan")]))
        a = statistics.median(d.get("after", [float("nan")]))
        print(f"{case:11} {b:11.1f} {a:11.1f} {a / b:13.4f}  before {d.get('before')} after {d.get('after')}")


if __name__ == "__main__":
    main(sys.argv[1])
