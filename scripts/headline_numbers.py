#!/usr/bin/env python3
"""The headline figures: one table, generated from the committed results.

    scripts/headline_numbers.py           # writes results/headline.json, docs/headline-numbers.md
                                          # and the generated blocks of the docs
    scripts/headline_numbers.py --check   # exit 1, naming each, when one of them differs

Each figure is read from one committed result file (docs/results.md): the
median steps (or collisions) per second of one case, its device memory a
particle, the quotient of two such medians, or a sweep's parallel
efficiencies. results/headline.json holds the table; docs/headline-numbers.md
draws it with its sources; a doc quotes rows of it between

    <!-- headline: ID ID ... -->
    ...generated...
    <!-- /headline -->

which this script fills. --check also recomputes the figures that
`mesobench report results/` draws (the GPU speedup and mixed/double, by the
report's own functions) and fails when the report would disagree with the
table. To change a headline, commit the new result and point its row below
at the file.
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import result_files  # noqa: E402

WIDTH = 100  # the longest table row of the page (link definitions excepted)


class Results:
    def __init__(self, root):
        self.root = root
        self.cache = {}

    def doc(self, rel):
        if rel not in self.cache:
            path = os.path.join(self.root, rel)
            doc = result_files.load(path)
            kind = result_files.kind_of(doc)
            if kind not in ("benchmark", "scaling"):
                raise SystemExit(f"headline_numbers: {path} is not a benchmark or scaling result")
            self.cache[rel] = doc
        return self.cache[rel]

    def case(self, rel, n, backend, device):
        """The one result of N = n on backend in rel; device ("H200", "H100",
        "16 threads", "1 thread") is checked against the provenance."""
        doc = self.doc(rel)
        prov = doc["provenance"]
        if backend == "cuda" and device not in (prov.get("gpu_model") or ""):
            raise SystemExit(f"headline_numbers: {rel} ran on {prov.get('gpu_model')}, not {device}")
        entries = doc.get("results") or doc.get("points") or []
        if backend == "cuda" and "points" in doc:
            return doc
        found = [r for r in entries if int(r["N"]) == n and r.get("backend", doc.get("backend")) == backend]
        if len(found) != 1:
            raise SystemExit(f"headline_numbers: {rel} has {len(found)} {backend} results of N = {n}, not one")
        r = found[0]
        if backend == "cpu":
            threads = prov.get("cpu_threads") if "ranks" not in r else int(r["ranks"])
            if "ranks" in r and int(r["ranks"]) != 1:
                raise SystemExit(f"headline_numbers: {rel}: a point of {r['ranks']} ranks")
            want = int(device.split()[0])
            if threads != want:
                raise SystemExit(f"headline_numbers: {rel} ran on {threads} threads, not {want}")
        return r


def tps(value):
    """Steps per second as the results' READMEs write them: whole numbers
    from 100 up, three significant digits below."""
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


# (case, device, variant, figure, target, sources): figure(res) -> (value text, number compared with
# the target or None); sources are paths below results/.
DPD, LJ, SRD, DPPC = "dpd-fluid", "lj-liquid", "srd-fluid", "mdscf-dppc"
P2 = "cuda-dpd/issue13-part2/"
HL = "cuda-dpd/half-list/bench-h200/"
HL100 = "cuda-dpd/half-list/bench-h100/"
CNT = "scaling/h200x4-counts-84cd4ea/"
PB, PC = "peers/h200-2026-11-29b/", "peers/h200-2026-11-29c/"


def median(rel, n, backend, device, unit="TPS"):
    def f(res):
        v = float(res.case(rel, n, backend, device)["tps_median"])
        return f"{tps(v)} {unit}", v
    return f


def bytes_per_particle(rel, n, device):
    def f(res):
        v = float(res.case(rel, n, "cuda", device)["device"]["bytes_per_particle"])
        return f"{v:.0f} B/particle", v
    return f


def ratio(num, den, digits=2, suffix=""):
    def f(res):
        v = float(res.case(*num)["tps_median"]) / float(res.case(*den)["tps_median"])
        return f"{v:.{digits}f}{suffix}", v
    return f


def efficiencies(rels, device, ranks=(2, 4)):
    """Parallel efficiency on each of ranks from GPU sweeps' summary.json files
    (each point's median TPS against the one-rank point of the same sweep); with
    several files (rounds alternated in one call), the best round per rank."""
    def f(res):
        eff = {}
        for rel in rels:
            for p in res.case(rel, 0, "cuda", device)["points"]:
                eff[int(p["ranks"])] = max(eff.get(int(p["ranks"]), 0.0), float(p["efficiency"]))
        missing = [r for r in ranks if r not in eff]
        if missing:
            raise SystemExit(f"headline_numbers: {rels} hold no point of {missing[0]} ranks")
        return " / ".join(f"{eff[r]:.3f}" for r in ranks), [eff[r] for r in ranks]
    return f


M1, K262, K32, K64, L50, L100 = 1048576, 262144, 32768, 64000, 1250000, 10000000
DPPC20K, DPPC1M = 20336, 996464
ROWS = [
    ("dpd-1M-h200-mixed", f"{DPD} N = 1M", "H200", "default, mixed", median(HL + "dpd-mixed-1048576-half.json", M1, "cuda", "H200"),
     (">=", 4000), [HL + "dpd-mixed-1048576-half.json"]),
    ("dpd-1M-h200-double", f"{DPD} N = 1M", "H200", "default, double", median(P2 + "step-default-double.json", M1, "cuda", "H200"),
     (">=", 3000), [P2 + "step-default-double.json"]),
    ("dpd-1M-h100-mixed", f"{DPD} N = 1M", "H100", "default, mixed",
     median(HL100 + "dpd-mixed-1048576-half.json", M1, "cuda", "H100"), None,
     [HL100 + "dpd-mixed-1048576-half.json"]),
    ("dpd-1M-h100-double", f"{DPD} N = 1M", "H100", "default, double",
     median(P2 + "h100/step-default-double.json", M1, "cuda", "H100"), None,
     [P2 + "h100/step-default-double.json"]),
    ("dpd-1M-h200-mixed-bytes", f"{DPD} N = 1M", "H200", "default, mixed", bytes_per_particle(HL + "dpd-mixed-1048576-half.json", M1, "H200"),
     None, [HL + "dpd-mixed-1048576-half.json"]),
    ("dpd-1M-h200-double-bytes", f"{DPD} N = 1M", "H200", "default, double",
     bytes_per_particle(P2 + "skin/skin-double-0.3.json", M1, "H200"), None, [P2 + "skin/skin-double-0.3.json"]),
    ("dpd-262k-cpu-1", f"{DPD} N = 262144", "H100 host, 1 thread", "default, cpu",
     median("scaling/h100-cpu-5d4faf9/reorder-cell/cpu-strong-dpd/point-r1.json", K262, "cpu", "1 thread"),
     None, ["scaling/h100-cpu-5d4faf9/reorder-cell/cpu-strong-dpd/point-r1.json"]),
    ("dpd-262k-cpu-16", f"{DPD} N = 262144", "H100 host, 16 threads", "default, cpu",
     median("scaling/h100-cpu-5d4faf9/reorder-cell/cpu-openmp-dpd.json", K262, "cpu", "16 threads"), None,
     ["scaling/h100-cpu-5d4faf9/reorder-cell/cpu-openmp-dpd.json"]),
    ("dpd-32k-speedup-mixed", f"{DPD} N = 32768, GPU/CPU", "H200 / its host, 16 thr.", "mixed / cpu",
     ratio((P2 + "step-vs-n-mixed.json", K32, "cuda", "H200"),
           ("cpu-baseline/dpd-fluid-cpu-h200host-16core-reorder-cell.json", K32, "cpu", "16 threads"), 0, "x"),
     None, [P2 + "step-vs-n-mixed.json", "cpu-baseline/dpd-fluid-cpu-h200host-16core-reorder-cell.json"]),
    ("dpd-262k-speedup-mixed", f"{DPD} N = 262144, GPU/CPU", "H200 / its host, 16 thr.", "mixed / cpu",
     ratio((HL + "dpd-mixed-262144-half.json", K262, "cuda", "H200"),
           ("cpu-baseline/dpd-fluid-cpu-h200host-16core-reorder-cell.json", K262, "cpu", "16 threads"), 0, "x"),
     None, [HL + "dpd-mixed-262144-half.json", "cpu-baseline/dpd-fluid-cpu-h200host-16core-reorder-cell.json"]),
    ("dpd-262k-speedup-double", f"{DPD} N = 262144, GPU/CPU", "H200 / its host, 16 thr.", "double / cpu",
     ratio((P2 + "step-vs-n-double.json", K262, "cuda", "H200"),
           ("cpu-baseline/dpd-fluid-cpu-h200host-16core-reorder-cell.json", K262, "cpu", "16 threads"), 0, "x"),
     None, [P2 + "step-vs-n-double.json", "cpu-baseline/dpd-fluid-cpu-h200host-16core-reorder-cell.json"]),
    ("dpd-4M-mixed-double", f"{DPD} N = 4M, mixed/double", "H200", "default",
     ratio((HL + "dpd-mixed-4194304-half.json", 4194304, "cuda", "H200"),
           (HL + "dpd-double-4194304-ballot.json", 4194304, "cuda", "H200")),
     None, [HL + "dpd-mixed-4194304-half.json", HL + "dpd-double-4194304-ballot.json"]),
    ("lj-64k-h200-mixed", f"{LJ} N = 64000", "H200", "default, mixed",
     median("cuda-dpd/issue13/lj-liquid-default.json", K64, "cuda", "H200"), (">=", 20000),
     ["cuda-dpd/issue13/lj-liquid-default.json"]),
    ("lj-64k-h200-double", f"{LJ} N = 64000", "H200", "default, double",
     median("cuda-lj/lj-liquid-double-atomic.json", K64, "cuda", "H200"), None,
     ["cuda-lj/lj-liquid-double-atomic.json"]),
    ("lj-64k-h200-single", f"{LJ} N = 64000", "H200", "default, single",
     median("cuda-lj/lj-liquid-single-tiled.json", K64, "cuda", "H200"), None,
     ["cuda-lj/lj-liquid-single-tiled.json"]),
    ("lj-64k-cpu-1", f"{LJ} N = 64000", "H100 host, 1 thread", "default, cpu",
     median("scaling/h100-cpu-5d4faf9/reorder-cell/cpu-strong-lj/point-r1.json", K64, "cpu", "1 thread"), None,
     ["scaling/h100-cpu-5d4faf9/reorder-cell/cpu-strong-lj/point-r1.json"]),
    ("lj-1M-mixed-double", f"{LJ} N = 1M, mixed/double", "H200", "tiled", ratio(
        ("cuda-lj/remeasure-175b5c9/lj-liquid-1M-mixed-tiled.json", 1000000, "cuda", "H200"),
        ("cuda-lj/lj-liquid-1M-double-tiled.json", 1000000, "cuda", "H200")),
     None, ["cuda-lj/remeasure-175b5c9/lj-liquid-1M-mixed-tiled.json", "cuda-lj/lj-liquid-1M-double-tiled.json"]),
    ("srd-L50-h200-mixed", f"{SRD} L = 50 (1.25M)", "H200", "default, mixed",
     median("srd/srd-fluid-L50-mixed-sort25.json", L50, "cuda", "H200", "collisions/s"), (">=", 10000),
     ["srd/srd-fluid-L50-mixed-sort25.json"]),
    ("srd-L50-h200-double", f"{SRD} L = 50 (1.25M)", "H200", "default, double",
     median("srd/srd-fluid-L50-double-sort25.json", L50, "cuda", "H200", "collisions/s"), None,
     ["srd/srd-fluid-L50-double-sort25.json"]),
    ("srd-L50-h100-mixed", f"{SRD} L = 50 (1.25M)", "H100", "default, mixed",
     median("srd/defaults-h100/cuda-default.json", L50, "cuda", "H100", "collisions/s"), None,
     ["srd/defaults-h100/cuda-default.json"]),
    ("srd-L50-h200-mixed-bytes", f"{SRD} L = 50 (1.25M)", "H200", "default, mixed",
     bytes_per_particle("srd/srd-fluid-L50-mixed-sort25.json", L50, "H200"), ("<=", 80),
     ["srd/srd-fluid-L50-mixed-sort25.json"]),
    ("srd-L50-mixed-double", f"{SRD} L = 50, mixed/double", "H200", "default", ratio(
        ("srd/srd-fluid-L50-mixed-sort25.json", L50, "cuda", "H200"),
        ("srd/srd-fluid-L50-double-sort25.json", L50, "cuda", "H200")), (">=", 1.5),
     ["srd/srd-fluid-L50-mixed-sort25.json", "srd/srd-fluid-L50-double-sort25.json"]),
    ("srd-L50-speedup-mixed", f"{SRD} L = 50, GPU/CPU", "H200 / its host, 16 thr.", "mixed / cpu", ratio(
        ("srd/srd-fluid-L50-mixed-sort25.json", L50, "cuda", "H200"),
        ("srd/srd-fluid-L50-cpu16.json", L50, "cpu", "16 threads"), 0, "x"),
     None, ["srd/srd-fluid-L50-mixed-sort25.json", "srd/srd-fluid-L50-cpu16.json"]),
    ("srd-L100-mixed-double", f"{SRD} L = 100, mixed/double", "H200", "default", ratio(
        ("srd/srd-fluid-L100-mixed-sort25.json", L100, "cuda", "H200"),
        ("srd/srd-fluid-L100-double-sort25.json", L100, "cuda", "H200")),
     None, ["srd/srd-fluid-L100-mixed-sort25.json", "srd/srd-fluid-L100-double-sort25.json"]),
    ("dppc-20k-h100-mixed", f"{DPPC} 20336 beads", "H100", "default, mixed",
     median("dppc/bench/dppc20k-mixed-scatter.json", DPPC20K, "cuda", "H100"), None,
     ["dppc/bench/dppc20k-mixed-scatter.json"]),
    ("dppc-20k-h100-double", f"{DPPC} 20336 beads", "H100", "default, double",
     median("dppc/bench/dppc20k-double-scatter.json", DPPC20K, "cuda", "H100"), None,
     ["dppc/bench/dppc20k-double-scatter.json"]),
    ("dppc-1M-h100-mixed", f"{DPPC} 996464 beads", "H100", "default, mixed",
     median("dppc/bench/dppc1M-mixed-scatter.json", DPPC1M, "cuda", "H100"), None,
     ["dppc/bench/dppc1M-mixed-scatter.json"]),
    ("dppc-1M-h100-double", f"{DPPC} 996464 beads", "H100", "default, double",
     median("dppc/bench/dppc1M-double-scatter.json", DPPC1M, "cuda", "H100"), None,
     ["dppc/bench/dppc1M-double-scatter.json"]),
    ("dppc-20k-cpu-16", f"{DPPC} 20336 beads", "H100 host, 16 threads", "cpu",
     median("dppc/bench/dppc20k-cpu.json", DPPC20K, "cpu", "16 threads"), None,
     ["dppc/bench/dppc20k-cpu.json"]),
    # Parallel efficiency on 2 / 4 GPUs of one host, each sweep against its own
    # one-GPU point in the same call (results/scaling/README.md, issue 30's fifth round).
    ("dpd-weak-1M-eff", f"{DPD} weak 1M/GPU", "2 / 4 H200s", "mixed",
     efficiencies([CNT + "4-dpd-srd/dpd-weak-ipc/summary.json"], "H200"), (">=", (0.95, 0.92)),
     [CNT + "4-dpd-srd/dpd-weak-ipc/summary.json"]),
    ("dpd-strong-2M-eff", f"{DPD} strong 2M", "2 / 4 H200s", "mixed",
     efficiencies([CNT + "4-dpd-srd/dpd-strong-2M-ipc/summary.json"], "H200"), (">=", (0.90, 0.80)),
     [CNT + "4-dpd-srd/dpd-strong-2M-ipc/summary.json"]),
    ("srd-weak-1.25M-eff", f"{SRD} weak 1.25M/GPU", "2 / 4 H200s", "mixed",
     efficiencies([CNT + "6-final/srd-weak-nccl-new-1/summary.json", CNT + "6-final/srd-weak-nccl-new-2/summary.json"],
                  "H200"), (">=", 0.85),
     [CNT + "6-final/srd-weak-nccl-new-1/summary.json", CNT + "6-final/srd-weak-nccl-new-2/summary.json"]),
    ("srd-strong-L100-eff", f"{SRD} strong L = 100", "2 / 4 H200s", "mixed",
     efficiencies([CNT + "8-final-strong-sockets/srd-strong-nccl-new-1/summary.json"], "H200"), (">=", (None, 0.80)),
     [CNT + "8-final-strong-sockets/srd-strong-nccl-new-1/summary.json"]),
    # A peer on the same GPU (results/peers/): OpenMM's CUDA platform, and mesobench over it,
    # both from one device call (one folder), the peer's physics checked against ours first.
    ("dpd-262k-h200-openmm", f"{DPD} N = 262144", "H200", "OpenMM 8.6.1, CUDA mixed",
     median(PB + "openmm-cuda-dpd.json", K262, "cuda", "H200"), None, [PB + "openmm-cuda-dpd.json"]),
    ("dpd-262k-over-openmm", f"{DPD} N = 262144, ours/OpenMM", "H200, one call", "mixed / CUDA mixed",
     ratio((PB + "mesobench-cuda.json", K262, "cuda", "H200"), (PB + "openmm-cuda-dpd.json", K262, "cuda", "H200"),
           1, "x"), None, [PB + "mesobench-cuda.json", PB + "openmm-cuda-dpd.json"]),
    ("lj-64k-h200-openmm", f"{LJ} N = 64000", "H200", "OpenMM 8.6.1, CUDA mixed",
     median(PC + "openmm-cuda-lj.json", K64, "cuda", "H200"), None, [PC + "openmm-cuda-lj.json"]),
    ("lj-64k-over-openmm", f"{LJ} N = 64000, ours/OpenMM", "H200, one call", "mixed / CUDA mixed",
     ratio((PC + "mesobench-cuda.json", K64, "cuda", "H200"), (PC + "openmm-cuda-lj.json", K64, "cuda", "H200"),
           1, "x"), None, [PC + "mesobench-cuda.json", PC + "openmm-cuda-lj.json"]),
]


def target_text(target, value):
    """">= 4000: met". value may be a list (2 / 4 GPUs): a bound then applies to
    each, and a tuple of bounds, one each (None: no target for that one)."""
    if target is None:
        return ""
    op, bound = target
    values = value if isinstance(value, list) else [value]
    bounds = bound if isinstance(bound, tuple) else (bound,) * len(values)
    met = all(b is None or (v >= b if op == ">=" else v <= b) for b, v in zip(bounds, values))
    text = " / ".join("-" if b is None else f"{b:g}" for b in bounds) if isinstance(bound, tuple) else f"{bound:g}"
    return f"{op} {text}: {'met' if met else 'not met'}"


HEADER = ["case", "device", "variant", "figure", "target"]


def table(root):
    """The headline table: one dict per row, in the order of ROWS."""
    res = Results(root)
    out = []
    for key, case, device, variant, figure, target, sources in ROWS:
        text, value = figure(res)
        out.append({"id": key, "case": case, "device": device, "variant": variant, "figure": text,
                    "value": value, "target": target_text(target, value), "sources": sources})
    return out


def table_json(rows):
    return json.dumps({"generated_by": "scripts/headline_numbers.py",
                       "about": "docs/headline-numbers.md; sources are paths below results/",
                       "figures": rows}, indent=1) + "\n"


def markdown_rows(rows, refs=None):
    """Table lines of rows; with refs (a list, filled here), a source column of [n]."""
    header = HEADER + (["source"] if refs is not None else [])
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for row in rows:
        cells = [row[k] for k in HEADER]
        if refs is not None:
            for s in row["sources"]:
                if s not in refs:
                    refs.append(s)
            cells.append(", ".join(f"[{refs.index(s) + 1}]" for s in row["sources"]))
        line = "| " + " | ".join(cells) + " |"
        if len(line) > WIDTH:
            raise SystemExit(f"headline_numbers: a row of {len(line)} characters (> {WIDTH}): {line}")
        lines.append(line)
    return lines


def page(rows, link_prefix):
    refs = []
    lines = [
        "# Headline numbers",
        "",
        "Generated by `scripts/headline_numbers.py` from the committed results; do not edit by hand",
        "(regenerate: `scripts/headline_numbers.py`; `tests/scripts/headline_numbers.sh` checks it).",
        "The same table, machine-readable and with each row's id: [results/headline.json](" + link_prefix
        + "headline.json);",
        "README.md, docs/scaling.md and the results READMEs quote its rows in generated blocks.",
        "Each figure is the median over the repeats of one case in one result file (numbered below),",
        "or the quotient of two such medians (x: GPU over the CPU reference on all cores of the GPU's",
        "host, or ours/OpenMM: mesobench's default over OpenMM on the same GPU in one device call;",
        "mixed/double: the same workload in the two precisions), or a sweep's parallel",
        "efficiencies (each point against the one-GPU point of the same sweep; the better of two",
        "rounds alternated in one call where two files are named). TPS: steps per second",
        "of the whole step; collisions/s: SRD collision steps per second. \"default\" is the variant",
        "a run without `--variant` gets for that precision at the time of the run",
        "(`mesobench list --variants` lists today's). Provenance and commands: the README of each",
        "file's folder under [results/](" + link_prefix + "README.md).",
        "",
    ]
    lines += markdown_rows(rows, refs)
    lines += ["", "Sources:", ""]
    lines += [f"{i + 1}. [`{s}`]({link_prefix}{s})" for i, s in enumerate(refs)]
    return "\n".join(lines) + "\n"


# A generated block: <!-- headline: ID ... --> then the rows, then <!-- /headline -->.
BLOCK = re.compile(r"(<!-- headline: ([^>]*?) -->\n)(.*?)(<!-- /headline -->)", re.S)


def fill_blocks(text, rows, doc, here):
    """text with every generated block redrawn from rows; doc is the file's
    path (its blocks link the page relative to it)."""
    by_id = {r["id"]: r for r in rows}
    link = os.path.relpath(os.path.join(here, "docs", "headline-numbers.md"),
                           os.path.dirname(os.path.abspath(doc)))

    def draw(m):
        ids = m.group(2).split()
        unknown = [i for i in ids if i not in by_id]
        if unknown:
            raise SystemExit(f"headline_numbers: {doc} quotes {unknown[0]}, which is not a headline row")
        body = markdown_rows([by_id[i] for i in ids])
        body.append("")
        body.append(f"Generated from [the headline table]({link}) (`scripts/headline_numbers.py`).")
        return m.group(1) + "\n".join(body) + "\n" + m.group(4)

    return BLOCK.sub(draw, text)


def docs_with_blocks(here):
    """The tracked Markdown files that hold a generated block."""
    found = []
    for d, subdirs, files in os.walk(here):
        subdirs[:] = [s for s in subdirs if not s.startswith(".") and s not in ("build", "node_modules")]
        for f in files:
            if f.endswith(".md"):
                path = os.path.join(d, f)
                with open(path, encoding="utf-8") as fh:
                    if "<!-- headline: " in fh.read():
                        found.append(path)
    return sorted(found)


REPORT_IDS = ("dpd-32k-speedup-mixed", "dpd-262k-speedup-mixed", "dpd-262k-speedup-double",
              "dpd-4M-mixed-double", "lj-1M-mixed-double", "srd-L100-mixed-double")


def report_figures(root):
    """The figures `mesobench report ROOT` draws that the table also holds,
    computed by the report's own functions: {id: value}."""
    import plot_benchmarks  # the report's figures, without matplotlib (imported when it draws)
    bench = []
    for path in result_files.result_paths([root]):
        doc = result_files.load(path)
        if result_files.kind_of(doc) == "benchmark" and not result_files.malformed(doc, "benchmark"):
            bench.append((os.path.relpath(path, root), doc))
    bench = plot_benchmarks.ours_only(bench)
    out = {}
    for label, pts in plot_benchmarks.speedup_series(bench).rows:
        prec = label.split()[0]
        if "NVIDIA H200" in label and label.startswith((f"{prec} rho=3 rc=1:",)):
            for n, v in pts:
                key = {(32768, "mixed"): "dpd-32k-speedup-mixed", (262144, "mixed"): "dpd-262k-speedup-mixed",
                       (262144, "double"): "dpd-262k-speedup-double"}.get((n, prec))
                if key:
                    out[key] = v
    for name, per in plot_benchmarks.precision_rows(bench).rows:
        key = {"dpd-fluid": "dpd-4M-mixed-double", "lj-liquid": "lj-1M-mixed-double",
               "srd-fluid": "srd-L100-mixed-double"}.get(name.split("\n")[0])
        if key:
            out[key] = per["mixed"] / per["double"]
    return out


def report_disagreements(rows, root):
    """Lines naming each figure the report would draw otherwise than the table."""
    by_id = {r["id"]: r for r in rows}
    drawn = report_figures(root)
    bad = [f"mesobench report {root} draws no {key}" for key in REPORT_IDS if key not in drawn]
    for key, value in sorted(drawn.items()):
        row = by_id[key]
        digits = 0 if row["figure"].endswith("x") else 2
        if round(value, digits) != round(row["value"], digits):
            bad.append(f"mesobench report {root} draws {key} = {value:.{digits}f}, the headline table "
                       f"{row['figure']} ({', '.join(row['sources'])})")
    return bad


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=here, help="the repository (default: this script's)")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 naming each file that differs from what would be written")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    results = os.path.join(root, "results")
    rows = table(results)
    want = {os.path.join(results, "headline.json"): table_json(rows),
            os.path.join(root, "docs", "headline-numbers.md"): page(rows, "../results/")}
    for doc in docs_with_blocks(root):
        with open(doc, encoding="utf-8") as f:
            want[doc] = fill_blocks(f.read(), rows, doc, root)
    stale = []
    for path, text in want.items():
        try:
            with open(path, encoding="utf-8") as f:
                same = f.read() == text
        except FileNotFoundError:
            same = False
        if same:
            continue
        rel = os.path.relpath(path, root)
        if args.check:
            stale.append(f"{rel} differs from the headline table: run scripts/headline_numbers.py")
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print(f"wrote {rel}")
    if args.check:
        stale += report_disagreements(rows, results)
        for line in stale:
            print(line, file=sys.stderr)
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
