#!/usr/bin/env python3
"""One-off: cut the report test sample (tests/scripts/report.sh) from
committed results: whole documents with their provenance, fewer cases and
every series thinned to about 40 points, so that each figure of `mesobench
report` has real data while the sample stays a few tens of kB.

    tests/data/report-sample/cut_sample.py results/ tests/data/report-sample/
"""
import json
import lzma
import os
import sys

src, dst = sys.argv[1:3]


def load(rel):
    path = os.path.join(src, rel)
    with (lzma.open(path, "rt") if path.endswith(".xz") else open(path)) as f:
        return json.load(f)


def save(doc, rel):
    os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
    with open(os.path.join(dst, rel), "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


def thin(v, n=40):
    """Every k-th point of a long list (the last one kept)."""
    if not isinstance(v, list) or len(v) <= n or not all(isinstance(x, (int, float)) for x in v):
        return v
    k = -(-len(v) // n)
    return v[::k] + ([v[-1]] if (len(v) - 1) % k else [])


def thin_all(x):
    if isinstance(x, dict):
        return {k: thin_all(thin(v)) for k, v in x.items()}
    if isinstance(x, list):
        return [thin_all(v) for v in x]
    return x


# Benchmarks: the dpd-fluid step per precision at three N, and the CPU
# reference on the same host (speedup, precision, speed of light).
for rel in ("cuda-dpd/step-double.json", "cuda-dpd/step-mixed.json"):
    d = load(rel)
    d["results"] = [r for r in d["results"] if r["N"] in (32768, 262144)]
    save(d, "bench/" + os.path.basename(rel))
save(load("cuda-dpd/cpu-same-host.json"), "bench/cpu-same-host.json")
# Google Benchmark tables 2 and 3.
d = load("cuda-dpd/table2-nlist.json")
d["benchmarks"] = [b for b in d["benchmarks"] if "rho:3/" in b["name"]]
save(d, "micro/table2-nlist.json")
d = load("cuda-dpd/table3-fast-math.json")
d["benchmarks"] = [b for b in d["benchmarks"] if b.get("aggregate_name") == "median"]
save(d, "micro/table3-fast-math.json")
# Validation: nve-drift (short, GPU), srd-momentum (long, mixed), Poiseuille
# (short, both cases) with their series thinned.
save(thin_all(load("cuda-lj/nve-drift-short-cuda-double.json.xz")), "validation/nve-drift-short-cuda-double.json")
d = load("srd/srd-momentum-long-mixed.json")
d["cases"][0]["data"].pop("thermostat_temperature")  # one shorter than time: would thin out of step
save(thin_all(d), "validation/srd-momentum-long-mixed.json")
save(thin_all(load("validation/poiseuille-short.json.xz")), "validation/poiseuille-short.json")
# The walls: srd-slit-poiseuille's long form in mixed (its profile is short already).
save(load("walls/h200-2026-11-29/srd-slit-poiseuille-long-mixed.json.xz"), "validation/srd-slit-poiseuille-long-mixed.json")
