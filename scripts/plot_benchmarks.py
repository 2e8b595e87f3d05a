#!/usr/bin/env python3
"""Plot `mesobench run --json` results: MPS/s against N, one line per
(backend, variant, rho, rc), with the min..max spread of the repeats as error
bars. Several JSON files (e.g. different machines or commits) can be overlaid.

    scripts/plot_benchmarks.py results/cpu-baseline/*.json -o mps.png

The report (scripts/report_results.py) also draws from benchmark results,
through the functions below: the throughput of every result against N (any
backend, a panel per workload), the GPU speedup over the CPU reference against
N (Tang & Karniadakis Fig. 11), TPS per precision per workload, and each
kernel's fraction of the measured copy bandwidth.
"""
import argparse
import json
import re
import sys
from collections import defaultdict


def load(paths):
    series = defaultdict(list)
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        prov = doc["provenance"]
        where = prov["gpu_model"] if any(r["backend"] == "cuda" for r in doc["results"]) else (
            f'{prov["cpu_model"]} x{prov["cpu_threads"]}')
        for r in doc["results"]:
            p = r["parameters"]
            key = f'{r["backend"]} {r["variant"]} rho={p["rho"]:g} rc={p["rc"]:g} ({where})'
            series[key].append((r["N"], r["mps_median"], r["tps_min"] * r["N"] * 1e-6,
                                r["tps_max"] * r["N"] * 1e-6))
    return series


class Rows:
    """What a report figure draws and the result files it came from."""

    def __init__(self):
        self.rows, self.sources = [], set()


def log_n_axes(ax, ylabel, title):
    """N on a log2 axis, grid and legend: the axes of every plot against N."""
    ax.set_xscale("log", base=2)
    ax.set_xlabel("N (particles)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)


def workload_of(r):
    return r.get("workload") or r["name"].split("/")[0]


def precision_of(r):
    for part in r.get("variant", "").split(","):
        if part.startswith("precision="):
            return part.split("=", 1)[1]
    return "double"


# The parts of a case name that set its size: what varies along a line of
# the throughput figure (the rest of the parameters name the line).
SIZE_KEYS = ("N", "L", "lipids", "W")


def system_of(r):
    """The parameter part of a case name without its size, e.g. rho=3/rc=1/s=0.5."""
    parts = r["name"].split("/")[4:]
    return "/".join(p for p in parts if p.split("=", 1)[0] not in SIZE_KEYS)


def device_of(r, prov):
    if r["backend"] == "cuda":
        return prov.get("gpu_model") or "GPU"
    return f'{prov.get("cpu_model") or "CPU"} x{prov.get("cpu_threads", "?")}'


def ours_only(docs):
    """docs without the peer engines' entries (scripts/peers/: an entry with
    "peer"), which the figures of our own variants must not take for ours; a
    document left with no entry is dropped. Our runs in a peers/ folder (rel
    below results/) are the peers' references, short runs of device_peers.sh's
    protocol, not our benchmark series: only the peers' figure draws them."""
    out = []
    for rel, doc in docs:
        if rel.split("/")[0] == "peers":
            continue
        mine = [r for r in doc["results"] if "peer" not in r]
        if mine:
            out.append((rel, dict(doc, results=mine) if len(mine) < len(doc["results"]) else doc))
    return out


def workload_points(docs):
    """(relative path, provenance, entry, million particle-steps per second) of
    every entry that times its workload (not an MD-SCF field update alone)."""
    for rel, doc in docs:
        for r in doc["results"]:
            if not times_the_update_alone(r):
                yield rel, doc["provenance"], r, r.get("mps_median", r["tps_median"] * r["N"] * 1e-6)


def throughput_rows(docs, most=8):
    """docs: [(relative path, parsed `run` result)] -> Rows of (workload,
    [(label, [(N, MPS/s)])]): every benchmark result of any backend, one line
    per (backend, device, precision, system) and per N the best median over
    the variants measured. A workload with more than `most` lines keeps each
    backend's best and then those with the most points (then the fastest), so
    the legend stays readable."""
    best = defaultdict(dict)  # (workload, label) -> N -> (mps, rel)
    for rel, prov, r, mps in workload_points(docs):
        label = f'{r["backend"]} {precision_of(r)} {system_of(r)} ({device_of(r, prov)})'
        line = best[(workload_of(r), label)]
        if r["N"] not in line or mps > line[r["N"]][0]:
            line[r["N"]] = (mps, rel)
    per_workload = defaultdict(list)
    for (w, label), pts in best.items():
        per_workload[w].append((label, sorted(pts.items())))
    out = Rows()
    for w, lines in sorted(per_workload.items()):
        lines.sort(key=lambda l: (-len(l[1]), -max(v[0] for _, v in l[1]), l[0]))
        # Every backend keeps its best line (CPU results are not crowded out by GPU ones).
        kept = list({label.split(" ", 1)[0]: (label, pts) for label, pts in reversed(lines)}.values())
        kept = sorted(kept + [l for l in lines if l not in kept][:max(0, most - len(kept))])
        out.rows.append((w, [(label, [(n, v[0]) for n, v in pts]) for label, pts in kept]))
        out.sources |= {v[1] for _, pts in kept for _, v in pts}
    return out


def plot_throughput(rows, output):
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(rows.rows), 1, figsize=(7, 0.5 + 4 * len(rows.rows)), squeeze=False)
    for ax, (workload, lines) in zip(axes[:, 0], rows.rows):
        for label, pts in lines:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
        ax.set_yscale("log")
        log_n_axes(ax, "million particle-steps per second (median)", workload)
    fig.tight_layout()
    fig.savefig(output)


def speedup_series(docs):
    """docs: [(relative path, parsed `run` result)] -> Rows of (label,
    [(N, GPU TPS / CPU TPS)]) for dpd-fluid points measured on both
    backends at the same rho, r_c, s and N: the best GPU variant per point
    against the CPU reference on the host of that GPU (same CPU model; the
    most threads, then the fastest variant): "over all cores of the same
    machine"."""
    cpu, gpu = {}, defaultdict(dict)
    for rel, doc in docs:
        prov = doc["provenance"]
        for r in doc["results"]:
            p = r.get("parameters", {})
            if workload_of(r) != "dpd-fluid" or "rho" not in p:
                continue
            key = (prov.get("cpu_model"), p["rho"], p["rc"], p.get("s"), r["N"])
            if r["backend"] == "cpu":
                rank = (prov.get("cpu_threads", 0), r["tps_median"])
                if key not in cpu or rank > cpu[key][0]:
                    cpu[key] = (rank, r["tps_median"], rel)
            elif r["backend"] == "cuda":
                g = (prov.get("gpu_model") or "GPU", prov.get("cpu_model"), precision_of(r), p["rho"], p["rc"],
                     p.get("s"))
                if r["N"] not in gpu[g] or r["tps_median"] > gpu[g][r["N"]][0]:
                    gpu[g][r["N"]] = (r["tps_median"], rel)
    out = Rows()
    for (model, host, prec, rho, rc, s), pts in sorted(gpu.items()):
        line = []
        for n, (tps, rel) in sorted(pts.items()):
            if (host, rho, rc, s, n) in cpu:
                (threads, _), cpu_tps, cpu_rel = cpu[(host, rho, rc, s, n)]
                line.append((n, tps / cpu_tps))
                out.sources |= {rel, cpu_rel}
        if line:
            out.rows.append((f"{prec} rho={rho:g} rc={rc:g}: {model} / {host} x{threads}", line))
    return out


def plot_speedup(rows, output):
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, pts in rows.rows:
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
    ax.set_yscale("log")
    log_n_axes(ax, "speedup (GPU TPS / CPU reference TPS)", "dpd-fluid step: GPU over the CPU reference")
    fig.tight_layout()
    fig.savefig(output)


def times_the_update_alone(r):
    """An MD-SCF run with another field-update period than the workload's 10
    steps (update=1, update=10^9 in results/dppc/bench): it times the field
    update, not the workload."""
    return r.get("parameters", {}).get("update_every", 10) != 10


def precision_rows(docs):
    """Per workload (cuda backend): the best median TPS per precision at the
    largest N measured in both mixed and double."""
    best = defaultdict(dict)  # (workload, N) -> precision -> (tps, rel)
    for rel, doc in docs:
        for r in doc["results"]:
            if r["backend"] != "cuda":
                continue
            if times_the_update_alone(r):
                continue
            k, prec = (workload_of(r), r["N"]), precision_of(r)
            if prec not in best[k] or r["tps_median"] > best[k][prec][0]:
                best[k][prec] = (r["tps_median"], rel)
    out = Rows()
    chosen = {}
    for (w, n), per in best.items():
        if {"mixed", "double"} <= per.keys() and n > chosen.get(w, (0,))[0]:
            chosen[w] = (n, per)
    for w, (n, per) in sorted(chosen.items()):
        out.rows.append((f"{w}\nN={n}", {p: v[0] for p, v in per.items()}))
        out.sources |= {v[1] for v in per.values()}
    return out


def plot_precision(rows, output):
    import matplotlib.pyplot as plt
    precisions = [p for p in ("double", "mixed", "single") if any(p in r[1] for r in rows.rows)]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    width = 0.8 / len(precisions)
    for i, prec in enumerate(precisions):
        xs = [k + (i - (len(precisions) - 1) / 2) * width for k in range(len(rows.rows))]
        ax.bar(xs, [r[1].get(prec, 0.0) for r in rows.rows], width, label=prec)
    for k, (_, per) in enumerate(rows.rows):
        ax.annotate(f"mixed/double {per['mixed'] / per['double']:.2f}", (k, max(per.values())),
                    ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(rows.rows)), [r[0] for r in rows.rows], fontsize=8)
    ax.set_yscale("log")
    ax.set_xlabel("workload")
    ax.set_ylabel("steps per second (median, best variant)")
    ax.set_title("precision per workload (cuda)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(output)


def kernel_rows(docs):
    """Per workload: the kernels' fraction of the measured copy bandwidth in
    its default variant (when recorded) at its largest N, newest first."""
    best = {}
    for rel, doc in docs:
        date = doc["provenance"].get("date_utc", "")
        for r in doc["results"]:
            kernels = (r.get("device") or {}).get("kernels") or {}
            if not any("fraction_of_copy_bw" in k for k in kernels.values()) or times_the_update_alone(r):
                continue
            rank = (r.get("variant_given") == "", r["N"], date)
            w = workload_of(r)
            if w not in best or rank > best[w][0]:
                best[w] = (rank, r, rel, doc["provenance"].get("gpu_model") or "GPU")
    out = Rows()
    for w, (_, r, rel, model) in sorted(best.items()):
        # With fuse=on the force kernel performs the second half-step; results
        # before b4439b6 still timed the (empty) second-half launch, whose
        # "fraction" counts bytes no kernel moved: left out.
        fused = "fuse=on" in r.get("variant", "")
        fractions = {k: v["fraction_of_copy_bw"] for k, v in r["device"]["kernels"].items()
                     if "fraction_of_copy_bw" in v and not (fused and k == "integrate_second_half")}
        out.rows.append((f"{w} N={r['N']} {precision_of(r)} ({model})", fractions))
        out.sources.add(rel)
    return out


def plot_kernels(rows, output):
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(rows.rows), 1, figsize=(7, 1.2 + 0.35 * sum(len(r[1]) for r in rows.rows)),
                             squeeze=False)
    for ax, (label, fractions) in zip(axes[:, 0], rows.rows):
        names = sorted(fractions, key=fractions.get)
        # A kernel whose bytes stay in L2 can exceed the copy bandwidth: its
        # bar is cut at the axis and its value written beside it.
        ax.barh(names, [min(fractions[n], 1.2) for n in names], color="C0", label="achieved / copy bandwidth")
        for k, n in enumerate(names):
            ax.annotate(f"{fractions[n]:.2f}", (min(fractions[n], 1.2), k), va="center", fontsize=6)
        ax.axvline(1.0, color="k", lw=0.8, ls="--", label="measured copy bandwidth")
        ax.set_xlim(0, 1.3)
        ax.set_xlabel("fraction of the measured device copy bandwidth")
        ax.set_ylabel("kernel")
        ax.set_title(label, fontsize=9)
        ax.tick_params(axis="y", labelsize=7)
        ax.legend(fontsize=6, loc="lower right")
    fig.tight_layout()
    fig.savefig(output)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+", help="mesobench run --json files")
    ap.add_argument("-o", "--output", required=True, help="output image (.png, .pdf, .svg)")
    ap.add_argument("--filter", default="", help="regular expression on the series label")
    args = ap.parse_args()
    try:
        series = load(args.json)
    except (OSError, KeyError, json.JSONDecodeError) as e:
        print(f"plot_benchmarks: cannot read results: {e}", file=sys.stderr)
        return 2
    series = {k: v for k, v in series.items() if re.search(args.filter, k)}
    if not series:
        print(f"plot_benchmarks: no series match --filter '{args.filter}'", file=sys.stderr)
        return 2

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    for label, pts in sorted(series.items()):
        pts.sort()
        n = [p[0] for p in pts]
        mps = [p[1] for p in pts]
        lo = [p[1] - p[2] for p in pts]
        hi = [p[3] - p[1] for p in pts]
        ax.errorbar(n, mps, yerr=[lo, hi], marker="o", capsize=3, label=label)
    log_n_axes(ax, "million particle-steps per second (median; bars: min..max)", "mesobench dpd-fluid/step")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
