#!/usr/bin/env python3
"""The headline numbers of the README, generated from the committed results.

    scripts/headline_numbers.py                      # writes docs/headline-numbers.md
    scripts/headline_numbers.py -o OUT.md --results results

Each figure is read from one committed result file (docs/results.md): the
median steps (or collisions) per second of one case, its device memory a
particle, or the quotient of two such medians. The README quotes no figure
that is not in the generated page; tests/scripts/headline_numbers.sh checks
that the committed page is what this script writes and that the README's
TPS figures are on it. To change a headline, commit the new result and point
its row below at the file.
"""
import argparse
import os
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


M1, K262, K32, K64, L50, L100 = 1048576, 262144, 32768, 64000, 1250000, 10000000
DPPC20K, DPPC1M = 20336, 996464
ROWS = [
    (f"{DPD} N = 1M", "H200", "default, mixed", median(HL + "dpd-mixed-1048576-half.json", M1, "cuda", "H200"),
     (">=", 4000), [HL + "dpd-mixed-1048576-half.json"]),
    (f"{DPD} N = 1M", "H200", "default, double", median(P2 + "step-default-double.json", M1, "cuda", "H200"),
     (">=", 3000), [P2 + "step-default-double.json"]),
    (f"{DPD} N = 1M", "H100", "default, mixed",
     median(HL100 + "dpd-mixed-1048576-half.json", M1, "cuda", "H100"), None,
     [HL100 + "dpd-mixed-1048576-half.json"]),
    (f"{DPD} N = 1M", "H100", "default, double",
     median(P2 + "h100/step-default-double.json", M1, "cuda", "H100"), None,
     [P2 + "h100/step-default-double.json"]),
    (f"{DPD} N = 1M", "H200", "default, mixed", bytes_per_particle(HL + "dpd-mixed-1048576-half.json", M1, "H200"),
     None, [HL + "dpd-mixed-1048576-half.json"]),
    (f"{DPD} N = 1M", "H200", "default, double",
     bytes_per_particle(P2 + "skin/skin-double-0.3.json", M1, "H200"), None, [P2 + "skin/skin-double-0.3.json"]),
    (f"{DPD} N = 262144", "H100 host, 1 thread", "default, cpu",
     median("scaling/h100-cpu-5d4faf9/reorder-cell/cpu-strong-dpd/point-r1.json", K262, "cpu", "1 thread"),
     None, ["scaling/h100-cpu-5d4faf9/reorder-cell/cpu-strong-dpd/point-r1.json"]),
    (f"{DPD} N = 262144", "H100 host, 16 threads", "default, cpu",
     median("scaling/h100-cpu-5d4faf9/reorder-cell/cpu-openmp-dpd.json", K262, "cpu", "16 threads"), None,
     ["scaling/h100-cpu-5d4faf9/reorder-cell/cpu-openmp-dpd.json"]),
    (f"{DPD} N = 32768, GPU/CPU", "H200 / its host, 16 thr.", "mixed / cpu",
     ratio((P2 + "step-vs-n-mixed.json", K32, "cuda", "H200"),
           ("cpu-baseline/dpd-fluid-cpu-h200host-16core-reorder-cell.json", K32, "cpu", "16 threads"), 0, "x"),
     None, [P2 + "step-vs-n-mixed.json", "cpu-baseline/dpd-fluid-cpu-h200host-16core-reorder-cell.json"]),
    (f"{DPD} N = 262144, GPU/CPU", "H200 / its host, 16 thr.", "mixed / cpu",
     ratio((P2 + "step-vs-n-mixed.json", K262, "cuda", "H200"),
           ("cpu-baseline/dpd-fluid-cpu-h200host-16core-reorder-cell.json", K262, "cpu", "16 threads"), 0, "x"),
     None, [P2 + "step-vs-n-mixed.json", "cpu-baseline/dpd-fluid-cpu-h200host-16core-reorder-cell.json"]),
    (f"{DPD} N = 262144, GPU/CPU", "H200 / its host, 16 thr.", "double / cpu",
     ratio((P2 + "step-vs-n-double.json", K262, "cuda", "H200"),
           ("cpu-baseline/dpd-fluid-cpu-h200host-16core-reorder-cell.json", K262, "cpu", "16 threads"), 0, "x"),
     None, [P2 + "step-vs-n-double.json", "cpu-baseline/dpd-fluid-cpu-h200host-16core-reorder-cell.json"]),
    (f"{DPD} N = 4M, mixed/double", "H200", "default", ratio((P2 + "step-vs-n-mixed.json", 4194304, "cuda", "H200"),
                                                          (P2 + "step-vs-n-double.json", 4194304, "cuda", "H200")),
     None, [P2 + "step-vs-n-mixed.json", P2 + "step-vs-n-double.json"]),
    (f"{LJ} N = 64000", "H200", "default, mixed",
     median("cuda-dpd/issue13/lj-liquid-default.json", K64, "cuda", "H200"), (">=", 20000),
     ["cuda-dpd/issue13/lj-liquid-default.json"]),
    (f"{LJ} N = 64000", "H200", "default, double",
     median("cuda-lj/lj-liquid-double-atomic.json", K64, "cuda", "H200"), None,
     ["cuda-lj/lj-liquid-double-atomic.json"]),
    (f"{LJ} N = 64000", "H200", "default, single",
     median("cuda-lj/lj-liquid-single-tiled.json", K64, "cuda", "H200"), None,
     ["cuda-lj/lj-liquid-single-tiled.json"]),
    (f"{LJ} N = 64000", "H100 host, 1 thread", "default, cpu",
     median("scaling/h100-cpu-5d4faf9/reorder-cell/cpu-strong-lj/point-r1.json", K64, "cpu", "1 thread"), None,
     ["scaling/h100-cpu-5d4faf9/reorder-cell/cpu-strong-lj/point-r1.json"]),
    (f"{LJ} N = 1M, mixed/double", "H200", "tiled", ratio(
        ("cuda-lj/remeasure-175b5c9/lj-liquid-1M-mixed-tiled.json", 1000000, "cuda", "H200"),
        ("cuda-lj/lj-liquid-1M-double-tiled.json", 1000000, "cuda", "H200")),
     None, ["cuda-lj/remeasure-175b5c9/lj-liquid-1M-mixed-tiled.json", "cuda-lj/lj-liquid-1M-double-tiled.json"]),
    (f"{SRD} L = 50 (1.25M)", "H200", "default, mixed",
     median("srd/srd-fluid-L50-mixed-sort25.json", L50, "cuda", "H200", "collisions/s"), (">=", 10000),
     ["srd/srd-fluid-L50-mixed-sort25.json"]),
    (f"{SRD} L = 50 (1.25M)", "H200", "default, double",
     median("srd/srd-fluid-L50-double-sort25.json", L50, "cuda", "H200", "collisions/s"), None,
     ["srd/srd-fluid-L50-double-sort25.json"]),
    (f"{SRD} L = 50 (1.25M)", "H100", "default, mixed",
     median("srd/defaults-h100/cuda-default.json", L50, "cuda", "H100", "collisions/s"), None,
     ["srd/defaults-h100/cuda-default.json"]),
    (f"{SRD} L = 50 (1.25M)", "H200", "default, mixed",
     bytes_per_particle("srd/srd-fluid-L50-mixed-sort25.json", L50, "H200"), ("<=", 80),
     ["srd/srd-fluid-L50-mixed-sort25.json"]),
    (f"{SRD} L = 50, mixed/double", "H200", "default", ratio(
        ("srd/srd-fluid-L50-mixed-sort25.json", L50, "cuda", "H200"),
        ("srd/srd-fluid-L50-double-sort25.json", L50, "cuda", "H200")), (">=", 1.5),
     ["srd/srd-fluid-L50-mixed-sort25.json", "srd/srd-fluid-L50-double-sort25.json"]),
    (f"{SRD} L = 50, GPU/CPU", "H200 / its host, 16 thr.", "mixed / cpu", ratio(
        ("srd/srd-fluid-L50-mixed-sort25.json", L50, "cuda", "H200"),
        ("srd/srd-fluid-L50-cpu16.json", L50, "cpu", "16 threads"), 0, "x"),
     None, ["srd/srd-fluid-L50-mixed-sort25.json", "srd/srd-fluid-L50-cpu16.json"]),
    (f"{SRD} L = 100, mixed/double", "H200", "default", ratio(
        ("srd/srd-fluid-L100-mixed-sort25.json", L100, "cuda", "H200"),
        ("srd/srd-fluid-L100-double-sort25.json", L100, "cuda", "H200")),
     None, ["srd/srd-fluid-L100-mixed-sort25.json", "srd/srd-fluid-L100-double-sort25.json"]),
    (f"{DPPC} 20336 beads", "H100", "default, mixed",
     median("dppc/bench/dppc20k-mixed-scatter.json", DPPC20K, "cuda", "H100"), None,
     ["dppc/bench/dppc20k-mixed-scatter.json"]),
    (f"{DPPC} 20336 beads", "H100", "default, double",
     median("dppc/bench/dppc20k-double-scatter.json", DPPC20K, "cuda", "H100"), None,
     ["dppc/bench/dppc20k-double-scatter.json"]),
    (f"{DPPC} 996464 beads", "H100", "default, mixed",
     median("dppc/bench/dppc1M-mixed-scatter.json", DPPC1M, "cuda", "H100"), None,
     ["dppc/bench/dppc1M-mixed-scatter.json"]),
    (f"{DPPC} 996464 beads", "H100", "default, double",
     median("dppc/bench/dppc1M-double-scatter.json", DPPC1M, "cuda", "H100"), None,
     ["dppc/bench/dppc1M-double-scatter.json"]),
    (f"{DPPC} 20336 beads", "H100 host, 16 threads", "cpu",
     median("dppc/bench/dppc20k-cpu.json", DPPC20K, "cpu", "16 threads"), None,
     ["dppc/bench/dppc20k-cpu.json"]),
]


def target_text(target, value):
    if target is None:
        return ""
    op, bound = target
    met = value >= bound if op == ">=" else value <= bound
    return f"{op} {bound:g}: {'met' if met else 'not met'}"


def render(root, link_prefix):
    res = Results(root)
    header = ["case", "device", "variant", "figure", "target", "source"]
    refs, table = [], []
    for case, device, variant, figure, target, sources in ROWS:
        text, value = figure(res)
        links = []
        for s in sources:
            if s not in refs:
                refs.append(s)
            links.append(f"[{refs.index(s) + 1}]")
        table.append([case, device, variant, text, target_text(target, value), ", ".join(links)])
    lines = [
        "# Headline numbers",
        "",
        "Generated by `scripts/headline_numbers.py` from the committed results; do not edit by hand",
        "(regenerate: `scripts/headline_numbers.py`; `tests/scripts/headline_numbers.sh` checks it).",
        "Each figure is the median over the repeats of one case in one result file (numbered below),",
        "or the quotient of two such medians (x: GPU over the CPU reference on all cores of the GPU's",
        "host; mixed/double: the same workload in the two precisions). TPS: steps per second of the",
        "whole step; collisions/s: SRD collision steps per second. \"default\" is the variant a run",
        "without `--variant` gets for that precision at the time of the run",
        "(`mesobench list --variants` lists today's). Provenance and commands: the README of each",
        "file's folder under [results/](" + link_prefix + "README.md).",
        "",
    ]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "|".join("---" for _ in header) + "|")
    for row in table:
        line = "| " + " | ".join(row) + " |"
        if len(line) > WIDTH:
            raise SystemExit(f"headline_numbers: a row of {len(line)} characters (> {WIDTH}): {line}")
        lines.append(line)
    lines += ["", "Sources:", ""]
    lines += [f"{i + 1}. [`{s}`]({link_prefix}{s})" for i, s in enumerate(refs)]
    return "\n".join(lines) + "\n"


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default=os.path.join(here, "results"), help="the results directory")
    ap.add_argument("-o", "--output", default=os.path.join(here, "docs", "headline-numbers.md"))
    ap.add_argument("--link-prefix", default="../results/",
                    help="how the page links a file below results/ (the page lives in docs/)")
    args = ap.parse_args()
    page = render(args.results, args.link_prefix)
    with open(args.output, "w") as f:
        f.write(page)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
