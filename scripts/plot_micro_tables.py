#!/usr/bin/env python3
"""Plot the Google Benchmark microbenchmarks that re-measure Tang &
Karniadakis' tables (benchmarks/micro, `--benchmark_out=FILE.json`):

- Table 2: neighbor-list build time, ballot against atomic, per density and N
  (BM_NeighborListBuild/<method>/rho:<rho>/n:<N>);
- Table 3: time per call of pow, log and cospi from libm against the
  branchless fast versions (BM_Pow, BM_FastPow, ...), with their ULP error.

    scripts/plot_micro_tables.py results/cuda-dpd/table2-nlist.json -o nlist.png
    scripts/plot_micro_tables.py results/cuda-dpd/table3-fast-math.json -o fast-math.png
"""
import argparse
import json
import re
import sys

from plot_benchmarks import Rows, log_n_axes


def nlist_rows(docs):
    """docs: [(relative path, parsed Google Benchmark file)] -> rows of
    (method, rho, N, nlist ms)."""
    out = Rows()
    for rel, doc in docs:
        before = len(out.rows)
        for b in doc.get("benchmarks", []):
            m = re.match(r"BM_NeighborListBuild/(\w+)/rho:([\d.]+)/n:(\d+)", b["name"])
            if m and b.get("run_type", "iteration") == "iteration" and "nlist_ms" in b:
                out.rows.append((m.group(1), float(m.group(2)), int(m.group(3)), b["nlist_ms"]))
        if len(out.rows) > before:
            out.sources.add(rel)
    return out


def plot_nlist(rows, output):
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    densities = sorted({r[1] for r in rows.rows})
    for method, rho in sorted({(r[0], r[1]) for r in rows.rows}, key=lambda k: (k[1], k[0])):
        # One colour per density, one line style per method: pairs read side by side.
        pts = sorted((r[2], r[3]) for r in rows.rows if r[0] == method and r[1] == rho)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o" if method == "ballot" else "s",
                ls="-" if method == "ballot" else "--", color=f"C{densities.index(rho)}",
                label=f"{method} rho={rho:g}")
    ax.set_yscale("log")
    log_n_axes(ax, "neighbor-list build time (ms)", "neighbor-list build: ballot against atomic")
    fig.tight_layout()
    fig.savefig(output)


MATH = {"Pow": "pow", "Log": "log", "Cospi": "cospi"}


def math_rows(docs):
    """-> rows of (function, 'libm' or 'fast', ns per call per SM, max ULP or None),
    from the median aggregates."""
    out = Rows()
    for rel, doc in docs:
        before = len(out.rows)
        for b in doc.get("benchmarks", []):
            m = re.match(r"BM_(Fast)?(Pow|Log|Cospi)/", b["name"])
            if not m or b.get("aggregate_name", "median") != "median" or "ns_per_call_per_sm" not in b:
                continue
            ulp = max((v for k, v in b.items() if k.startswith("max_ulp")), default=None)
            out.rows.append((MATH[m.group(2)], "fast" if m.group(1) else "libm", b["ns_per_call_per_sm"], ulp))
        if len(out.rows) > before:
            out.sources.add(rel)
    return out


def plot_math(rows, output):
    import matplotlib.pyplot as plt
    funcs = [f for f in MATH.values() if any(r[0] == f for r in rows.rows)]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i, impl in enumerate(("libm", "fast")):
        vals = {r[0]: r for r in rows.rows if r[1] == impl}
        xs = [k + (i - 0.5) * 0.4 for k in range(len(funcs))]
        bars = ax.bar(xs, [vals[f][2] if f in vals else 0.0 for f in funcs], 0.4, label=impl)
        for bar, f in zip(bars, funcs):
            if f in vals and vals[f][3] is not None:
                ax.annotate(f"{vals[f][3]:.2g} ULP", (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                            ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(funcs)), funcs)
    ax.set_xlabel("function")
    ax.set_ylabel("ns per call per SM (median)")
    ax.set_title("fast against native math")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(output)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+", help="Google Benchmark JSON files")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    try:
        docs = [(p, json.load(open(p))) for p in args.json]
    except (OSError, json.JSONDecodeError) as e:
        print(f"plot_micro_tables: cannot read results: {e}", file=sys.stderr)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    nl, fm = nlist_rows(docs), math_rows(docs)
    if nl.rows:
        plot_nlist(nl, args.output if not fm.rows else args.output.replace(".png", "-nlist.png"))
    if fm.rows:
        plot_math(fm, args.output if not nl.rows else args.output.replace(".png", "-fast-math.png"))
    if not nl.rows and not fm.rows:
        print("plot_micro_tables: no BM_NeighborListBuild or BM_(Fast)Pow/Log/Cospi entries", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
