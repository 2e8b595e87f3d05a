#!/usr/bin/env python3
"""Turn a results directory into figures and one Markdown page that links
them (what `mesobench report DIR -o OUT` runs). Every JSON result below DIR
is read (docs/results.md: benchmark, validation, scaling and Google Benchmark
files); each figure is drawn by the plotting script that owns it
(plot_benchmarks, plot_peers, plot_micro_tables, plot_scaling, plot_nve_drift,
plot_srd_momentum, plot_poiseuille, plot_dpd_temperature, plot_dppc_density,
plot_walls) and a figure whose
data is absent is skipped with a line on the page saying so.

OUT gets README.md (the page), one PNG per figure and report.json: per figure
its file, section, source files and, per axes, the title, axis labels and
series labels (what tests/scripts/report.sh checks). OUT is written as a new
directory and renamed into place, so a failed report leaves the old one.

    scripts/report_results.py results/ -o docs/report
"""
import argparse
import contextlib
import errno
import io
import json
import lzma
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.figure  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

import plot_benchmarks  # noqa: E402
import plot_dpd_temperature  # noqa: E402
import plot_dppc_density  # noqa: E402
import plot_micro_tables  # noqa: E402
import plot_nve_drift  # noqa: E402
import plot_peers  # noqa: E402
import plot_poiseuille  # noqa: E402
import plot_scaling  # noqa: E402
import plot_srd_momentum  # noqa: E402
import plot_walls  # noqa: E402
import result_files  # noqa: E402
from png_palette import shrink_png  # noqa: E402
from report_output import check_output, file_digest, remove_report, report_files, writable  # noqa: E402


class ReportError(Exception):
    """A refusal: printed as "report: <message>", exit 2, nothing written."""


def load_results(root):
    """[(relative path, absolute path, kind, doc)] for every result below
    root, and [(relative path, why)] for files that could not be read or are
    not the result they look like."""
    found, unreadable = [], []
    for path in result_files.result_paths([root]):
        rel = os.path.relpath(path, root)
        try:
            doc = result_files.load(path)
        except RecursionError:
            # No result is nested more than a few levels: this file is not one,
            # and Python's parser cannot even say what it is.
            raise ReportError(f"{path}: JSON nested too deeply (over {sys.getrecursionlimit()} levels): "
                              "not a mesobench result") from None
        except (OSError, ValueError, lzma.LZMAError, EOFError) as e:
            unreadable.append((rel, str(e)))
            continue
        kind = result_files.kind_of(doc)
        if not kind:
            continue
        why = result_files.malformed(doc, kind)
        if why:
            unreadable.append((rel, f"not a valid {kind} result: {why}"))
            continue
        found.append((rel, path, kind, doc))
    return found, unreadable


def validation_preference(doc):
    """Which of several validation results of one case to draw: the long form
    over the short, the published protocol (no --param overrides) over a
    smoke run, then the newest."""
    return (doc.get("form") == "long", not doc.get("params"), doc["provenance"].get("date_utc", ""))


def best_validation(results, match, key=lambda case, doc: case["name"]):
    """{key: (relpath, path, doc, case)} keeping the preferred complete case
    per key among the validation results whose case matches."""
    best = {}
    for rel, path, kind, doc in results:
        if kind != "validation":
            continue
        for case in doc.get("cases", []):
            if case.get("partial") or not match(case):
                continue
            k = key(case, doc)
            if k not in best or validation_preference(doc) > validation_preference(best[k][2]):
                best[k] = (rel, path, doc, case)
    return best


def describe_axes(fig):
    axes = []
    for ax in fig.axes:
        if not ax.axison:
            continue
        axes.append({"title": ax.get_title(), "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(),
                     "xscale": ax.get_xscale(), "yscale": ax.get_yscale(),
                     "series": [l for l in ax.get_legend_handles_labels()[1] if not l.startswith("_")]})
    return axes


# Errors of writing the report's files (full disk, read-only file system,
# no permission): fatal, never a skipped figure.
WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.EFBIG, errno.EIO}


class Report:
    def __init__(self, root, out, dpi):
        self.root, self.out, self.dpi = root, out, dpi
        self.sections = []  # (section, [lines of Markdown])
        self.figures = []
        self.skipped = []
        self._saved = []
        original = matplotlib.figure.Figure.savefig
        report = self

        # Every plotting script saves through Figure.savefig: record what each
        # figure shows (for report.json and the tests) and keep the PNGs small.
        def savefig(fig, fname, *args, **kwargs):
            kwargs["dpi"] = report.dpi
            original(fig, fname, *args, **kwargs)
            shrink_png(str(fname))
            report._saved.append((str(fname), describe_axes(fig)))

        matplotlib.figure.Figure.savefig = savefig

    def draw(self, section, stem, sources, text, fn):
        """Runs fn(path) which saves one or more figures below OUT (path is
        OUT/stem.png); adds them to the page."""
        self._saved = []
        path = os.path.join(self.out, stem + ".png")
        try:
            # The plotting scripts print "wrote PATH" with the temporary
            # directory's path: the report prints the final paths itself.
            with contextlib.redirect_stdout(io.StringIO()):
                fn(path)
        except OSError as e:
            if e.errno in WRITE_ERRORS:  # the output, not the figure: the report fails
                raise
            self.skip(section, f"could not be drawn from {', '.join(sources)}: {type(e).__name__}: {e}")
            plt.close("all")
            return
        except Exception as e:  # a figure that cannot be drawn is reported, not fatal
            self.skip(section, f"could not be drawn from {', '.join(sources)}: {type(e).__name__}: {e}")
            plt.close("all")
            return
        plt.close("all")
        lines = [text, ""]
        for fname, axes in self._saved:
            name = os.path.basename(fname)
            self.figures.append({"file": name, "section": section, "sources": sources, "axes": axes})
            lines.append(f"![{section}]({name})")
            lines.append("")
        lines.append(f"Source (below `{os.path.normpath(self.root)}`): " + ", ".join(f"`{s}`" for s in sources))
        self.sections.append((section, lines))

    def skip(self, section, why):
        self.skipped.append({"section": section, "why": why})
        self.sections.append((section, [f"*Skipped: {why}.*"]))


def preferred_files(cases):
    """(relative paths, absolute paths) of the files holding the chosen cases."""
    chosen = [v for _, v in sorted(cases.items(), key=lambda kv: str(kv[0]))]
    return sorted({v[0] for v in chosen}), sorted({v[1] for v in chosen})


def build(root, out, dpi):
    results, unreadable = load_results(root)
    rep = Report(root, out, dpi)
    # Our own variants' figures draw ours alone; the peers' figure draws both.
    with_peers = [(rel, doc) for rel, _, kind, doc in results if kind == "benchmark"]
    bench = plot_benchmarks.ours_only(with_peers)
    micro = [(rel, doc) for rel, _, kind, doc in results if kind == "google-benchmark"]
    scaling = [(rel, doc) for rel, _, kind, doc in results if kind == "scaling"]

    def unsummarized(scaling):
        """A sweep's summary.json holds its point files' points: the summary
        alone is drawn (the files it names, in its own directory, are left out)."""
        summarized = {os.path.join(os.path.dirname(rel), f) for rel, doc in scaling
                      for f in doc.get("summary_of", [])}
        return [(rel, doc) for rel, doc in scaling if rel not in summarized]

    def rows_figure(data, plot):
        """A figure of Rows (plot_benchmarks, plot_micro_tables): absent when empty."""
        return (sorted(data.sources), lambda p: plot(data, p)) if data.rows else None

    def script_figure(cases, module, options=()):
        """A figure of the preferred validation files, drawn by a script's main()."""
        if not cases:
            return None
        rels, paths = preferred_files(cases)
        return rels, lambda p: _main(module, paths + list(options) + ["-o", p])

    def walls_figure(kind, names):
        """The wall and shear gates of one kind, per (case, precision)."""
        return script_figure(best_validation(results, lambda c: c["name"] in names,
                                             key=lambda c, d: (c["name"], c["data"].get("precision"))),
                             plot_walls, ["--only", kind])

    def flow_figure(name, fn):
        flows = best_validation(results, lambda c: c["name"] == name)
        if name not in flows:
            return None
        rel, _, doc, case = flows[name]
        return [rel], lambda p: fn(case, doc, p, plt)

    def scaling_figure(mode):
        docs = plot_scaling.representative([(rel, d) for rel, d in unsummarized(scaling) if d.get("mode") == mode])
        return ([r for r, _ in docs], lambda p: plot_scaling.plot(docs, p)) if docs else None

    # (section, file stem, (sources, draw(path)) or None when the data is absent, text, why absent)
    figures = [
        ("Throughput against N", "throughput",
         lambda: rows_figure(plot_benchmarks.throughput_rows(bench), plot_benchmarks.plot_throughput),
         "Every benchmark result, any backend: million particle-steps per second against N, one panel per "
         "workload, one line per backend, precision, system and device (the best variant measured per point).",
         "no benchmark result (mesobench run --json)"),
        ("Speedup against N (Tang & Karniadakis Fig. 11)", "speedup",
         lambda: rows_figure(plot_benchmarks.speedup_series(bench), plot_benchmarks.plot_speedup),
         "dpd-fluid: median TPS on the GPU over the CPU reference on all cores of the same host at the same "
         "density, cutoff and N (the best GPU variant measured per point).",
         "no dpd-fluid case with both a cuda result and a cpu result of the same host at the same rho, r_c and N"),
        ("Peers and published figures", "peers",
         lambda: rows_figure(plot_peers.peer_rows(with_peers, plot_peers.published_figures()),
                             plot_peers.plot_peers),
         "The same cases in other engines (scripts/peers/: OpenMM, LAMMPS; each checked against the case's "
         "temperature, our potential energy and our final frame's g(r), LAMMPS also our pressure, before its speed "
         "is quoted; LAMMPS's SRD, which rotates by 90 degrees about a Cartesian axis, runs the closest fluid "
         "after its viscosity is checked against ours at 90 degrees) and the papers' published speeds (scripts/peers/published.json) with the hardware each ran on, beside our best variant "
         "per backend, device and precision at the same N: million particle-steps per second.",
         "no peer result (scripts/peers/) and no published figure of a workload measured here"),
        ("Ballot against atomic neighbor list (Tang & Karniadakis Table 2)", "nlist",
         lambda: rows_figure(plot_micro_tables.nlist_rows(micro), plot_micro_tables.plot_nlist),
         "Neighbor-list build time per method, density and N (Google Benchmark, CUDA events).",
         "no BM_NeighborListBuild Google Benchmark result"),
        ("Fast against native math (Tang & Karniadakis Table 3)", "fast-math",
         lambda: rows_figure(plot_micro_tables.math_rows(micro), plot_micro_tables.plot_math),
         "Time per call per SM of each function, libm against the branchless fast version, with the largest "
         "error in ULP.",
         "no BM_Pow/BM_FastPow Google Benchmark result"),
        ("Mixed against double precision per workload", "precision",
         lambda: rows_figure(plot_benchmarks.precision_rows(bench), plot_benchmarks.plot_precision),
         "Median TPS per precision of each workload on the GPU, at the largest N measured in both mixed and "
         "double (the best variant measured).",
         "no workload with cuda results in both precision=mixed and precision=double"),
        ("Weak scaling", "scaling-weak", lambda: scaling_figure("weak"),
         "Steps per second and parallel efficiency against the number of ranks, particles per rank fixed.",
         "no weak scaling result (kind \"scaling\": mesobench scale, docs/scaling.md)"),
        ("Strong scaling", "scaling-strong", lambda: scaling_figure("strong"),
         "Steps per second and parallel efficiency against the number of ranks, system fixed.",
         "no strong scaling result (kind \"scaling\": mesobench scale, docs/scaling.md)"),
        ("NVE energy drift (HOOMD-blue Fig. 4)", "nve-drift",
         lambda: script_figure(best_validation(results, lambda c: c["name"] in ("nve-drift-shift", "nve-drift-xplor"),
                                       key=lambda c, d: (c["name"], c["data"].get("precision"))), plot_nve_drift),
         "E(t) - E(0) per particle of the short and long NVE runs, and the gates against Anderson, Lorenz & "
         "Travesset (2008) Table 2.",
         "no complete nve-drift validation result"),
        ("SRD momentum against time", "srd-momentum",
         lambda: script_figure(best_validation(results, lambda c: c["name"] == "srd-momentum",
                                       key=lambda c, d: c["data"].get("precision")), plot_srd_momentum),
         "Total momentum of the SRD solvent against time with the round-off bound, and the kinetic temperature.",
         "no complete srd-momentum validation result"),
        ("Poiseuille profile and viscosity (DPD)", "poiseuille-viscosity",
         lambda: flow_figure("poiseuille-viscosity", plot_poiseuille.plot_viscosity),
         "Reverse Poiseuille flow of the DPD fluid: the mean profile with a parabola per half, the start-up, and "
         "eta per run against Backer et al.",
         "no complete poiseuille-viscosity validation result"),
        ("Poiseuille start-up transient (DPD)", "poiseuille-transient",
         lambda: flow_figure("poiseuille-transient", plot_poiseuille.plot_transient),
         "Profiles at the published times against the analytic start-up series, and the L2 error per time.",
         "no complete poiseuille-transient validation result"),
        ("Poiseuille profile and viscosity (SRD)", "srd-viscosity",
         lambda: flow_figure("srd-viscosity", plot_poiseuille.plot_viscosity),
         "Reverse Poiseuille flow of the SRD solvent against its kinetic theory.",
         "no complete srd-viscosity validation result"),
        ("DPD temperature against dt", "dpd-temperature",
         lambda: script_figure(best_validation(results, lambda c: c["name"] == "dpd-temperature"), plot_dpd_temperature),
         "Kinetic temperature of the DPD fluid per integrator and dt, extrapolated to dt -> 0.",
         "no complete dpd-temperature validation result"),
        ("DPPC density profiles", "dppc",
         lambda: script_figure(best_validation(results, lambda c: c["name"] == "dppc-density"), plot_dppc_density),
         "Number density of the N, P, G, C and W beads of the MD-SCF DPPC bilayer across the membrane "
         "(GALAMOST Fig. 5), with the CPU reference run of a GPU long form dashed.",
         "no complete dppc-density validation result"),
        ("Slit Poiseuille between walls (SRD, DPD)", "walls-slit", lambda: walls_figure("slit", plot_walls.SLIT),
         "Plane Poiseuille flow between no-slip walls: u_x(z) with the fitted parabola, each wall's no-slip plane a "
         "slip length beyond it, and the SRD residuals or the DPD density between the walls (docs/walls.md).",
         "no complete srd-slit-poiseuille or dpd-slit-poiseuille validation result"),
        ("Couette flow under Lees-Edwards shear (SRD, DPD)", "walls-couette",
         lambda: walls_figure("couette", plot_walls.COUETTE),
         "u_x(z) against the imposed gdot z, and the shear stress against the shear rate with the reference "
         "viscosity's band (docs/walls.md).",
         "no complete srd-couette or dpd-couette validation result"),
        ("Per-kernel fraction of the device's speed of light", "speed-of-light",
         lambda: rows_figure(plot_benchmarks.kernel_rows(bench), plot_benchmarks.plot_kernels),
         "Achieved bandwidth of each kernel as a fraction of the measured device copy bandwidth (bytes each "
         "kernel must move / its median time), default variant of each workload at its largest N.",
         "no benchmark result with per-kernel device measurements (cuda backend)"),
    ]
    for section, stem, choose, text, missing in figures:
        try:
            figure = choose()
        except Exception as e:  # data of a shape no figure expects: reported, not fatal
            rep.skip(section, f"its data could not be chosen from the results: {type(e).__name__}: {e}")
            continue
        if figure:
            rep.draw(section, stem, figure[0], text, figure[1])
        else:
            rep.skip(section, missing)

    counts = {}
    for _, _, kind, _ in results:
        counts[kind] = counts.get(kind, 0) + 1
    return rep, counts, unreadable


def _main(module, argv):
    """Runs a plotting script's main() with argv; raises on a non-zero exit."""
    saved = sys.argv
    sys.argv = [module.__name__] + argv
    try:
        rc = module.main()
    finally:
        sys.argv = saved
    if rc:
        raise RuntimeError(f"{module.__name__} exited with {rc}")


def write_page(rep, counts, unreadable, root):
    lines = [f"# mesobench report: `{os.path.normpath(root)}`", "",
             "Generated by `mesobench report` (scripts/report_results.py) from "
             + ", ".join(f"{n} {k} result(s)" for k, n in sorted(counts.items()))
             + "; file formats in docs/results.md.", ""]
    for section, body in rep.sections:
        lines += [f"## {section}", ""] + body + [""]
    if unreadable:
        lines += ["## Files that could not be read", ""]
        lines += [f"- `{rel}`: {why}" for rel, why in unreadable] + [""]
    with open(os.path.join(rep.out, "README.md"), "w") as f:
        f.write("\n".join(lines))
    # What this report wrote, with digests: a later report replaces these
    # files only while they are as written here (report_output.py).
    written = {n: file_digest(os.path.join(rep.out, n)) for n in sorted(os.listdir(rep.out))}
    with open(os.path.join(rep.out, "report.json"), "w") as f:
        json.dump({"root": os.path.normpath(root), "counts": counts, "figures": rep.figures,
                   "skipped": rep.skipped, "unreadable": [r for r, _ in unreadable],
                   "written": written}, f, indent=1)
        f.write("\n")


def publish(args, out, parent):
    """Builds the report in a new directory beside out and renames it into
    place; returns (report, the names of the files written). Raises
    ReportError, or OSError when the file system refuses a write."""
    tmp = tempfile.mkdtemp(prefix=os.path.basename(out) + ".tmp-", dir=parent)
    try:
        rep, counts, unreadable = build(args.dir, tmp, args.dpi)
        if not counts:
            raise ReportError(f"'{args.dir}' holds no mesobench or Google Benchmark results")
        write_page(rep, counts, unreadable, args.dir)
        written = sorted(os.listdir(tmp))
        os.chmod(tmp, 0o755)  # mkdtemp made it private
        old = None
        if os.path.isdir(out):
            # Checked again: the directory may have changed while the figures were drawn.
            why = check_output(out, args.force)
            if why:
                raise ReportError(f"-o '{args.output}' {why}")
            names = report_files(out) or set()
            old = tempfile.mkdtemp(prefix=os.path.basename(out) + ".old-", dir=parent)
            os.rmdir(old)
            os.rename(out, old)
        os.rename(tmp, out)
        tmp = None
        if old:
            remove_report(old, names)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return rep, written


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", help="results directory (searched recursively)")
    ap.add_argument("-o", "--output", default="mesobench-report",
                    help="output directory: new, empty, or an earlier report (replaced)")
    ap.add_argument("--dpi", type=int, default=72, help="resolution of the PNGs (default 72: small files)")
    ap.add_argument("--force", action="store_true",
                    help="replace an earlier report whose report.json or files this report did not write as they are")
    args = ap.parse_args()
    if not os.path.isdir(args.dir):
        print(f"report: results directory '{args.dir}' does not exist", file=sys.stderr)
        return 2
    if not args.output:
        print("report: -o '' is invalid: give an output directory", file=sys.stderr)
        return 2
    out = os.path.normpath(args.output)
    why = check_output(out, args.force)
    parent = os.path.dirname(os.path.abspath(out))
    if not why and not os.path.isdir(parent):
        why = f"cannot be created: directory {parent} does not exist"
    if not why:
        # The report is built beside out and renamed into place: both out
        # (when it exists) and the directory holding it must be writable.
        why = (os.path.isdir(out) and writable(out)) or (
            writable(parent) and f"cannot be created: directory {parent} is not writable")
    if why:
        print(f"report: -o '{args.output}' {why}", file=sys.stderr)
        return 2
    try:
        rep, written = publish(args, out, parent)
    except ReportError as e:
        print(f"report: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        # e.filename is a file of the temporary directory, which is gone.
        print(f"report: cannot write -o '{args.output}' (in {parent}): {e.strerror or e}; nothing written",
              file=sys.stderr)
        return 2
    for name in written:
        if name != "README.md":
            print(f"wrote {os.path.join(out, name)}")
    print(f"wrote {os.path.join(out, 'README.md')}: {len(rep.figures)} figure(s), {len(rep.skipped)} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
