#!/usr/bin/env python3
"""Plot the Poiseuille validation cases from a `mesobench validate --json FILE`
result (any of them in one file).

poiseuille-viscosity, srd-viscosity: the averaged velocity profile with the
parabola fitted to each half, the flow amplitude during start-up (how steady
state was reached), and eta per run against the reference (published value,
or SRD kinetic theory) and the gate.
poiseuille-transient: simulated profiles at each published time against the
analytic start-up series, the L2 error per time against its threshold, and
the steady profile that gave nu.

    scripts/plot_poiseuille.py results/validation/poiseuille-short.json.xz -o out.png
    (with several cases in the file, writes out-viscosity.png, out-transient.png
    and out-srd-viscosity.png)
"""
import argparse
import json
import os
import sys

from result_files import open_json
from validation_provenance import provenance_line


def parabola(fit, xs):
    c0, c1, c2 = fit["c"]
    return [c0 + c1 * (x - fit["x0"]) + c2 * (x - fit["x0"]) ** 2 for x in xs]


def footer(fig, doc):
    fig.text(0.01, 0.01, provenance_line(doc), fontsize=6, color="0.4")


def plot_viscosity(case, doc, out, plt):
    d = case["data"]
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(15, 4.3))
    x = d["centers"]
    for r in d["runs"]:
        ax1.plot(x, r["profile"], ".", color="0.7", ms=2)
    ax1.plot(x, d["mean_profile"], "o", ms=3, color="C0", label=f'mean of {len(d["runs"])} run(s)')
    half = len(x) // 2
    ax1.plot(x[:half], parabola(d["fits"]["lower"], x[:half]), "C3-", lw=1.2, label="parabola per half")
    ax1.plot(x[half:], parabola(d["fits"]["upper"], x[half:]), "C3-", lw=1.2)
    ax1.axhline(0, color="k", lw=0.5)
    ax1.axvline(0, color="k", lw=0.5, ls=":")
    ax1.set_xlabel("x (gradient direction)")
    ax1.set_ylabel("u_z (centre-of-mass frame)")
    ax1.set_title(f'N = {d["N"]}, box {" x ".join(f"{v:g}" for v in d["box"])}, g = ±{d["g"]}')
    ax1.legend(fontsize=7)

    for i, r in enumerate(d["runs"]):
        ax2.plot(r["monitor_time"], r["monitor_amplitude"], lw=0.6, alpha=0.7, label="runs" if i == 0 else None)
    ax2.axvspan(d["equilibration_time"], d["equilibration_time"] + d["production_time"], color="C2",
                alpha=0.1, label="production")
    ax2.set_xlabel("time")
    ax2.set_ylabel("flow amplitude (<u_z> lower - upper half) / 2")
    ax2.set_title(f'start-up: relaxation time {d["relaxation_time"]:.1f}; '
                  f'bias left {d["startup_bias"]:.1e} ({"steady" if d["steady"] else "NOT steady"})',
                  fontsize=9)
    ax2.legend(fontsize=7)

    etas = [r["eta"] for r in d["runs"]]
    ax3.errorbar(range(1, len(etas) + 1), etas, yerr=[r["model_se"] for r in d["runs"]], fmt="o", ms=3,
                 capsize=2, label="runs (hydrodynamic SE)")
    n = len(etas) + 1
    ax3.errorbar([n], [case["measured"]], yerr=[case["uncertainty"]], fmt="s", color="C2", capsize=3,
                 label=f'mean {case["measured"]:.4f} ± {case["uncertainty"]:.4f}')
    if "theory" in d:  # srd-viscosity: the reference is the SRD kinetic theory
        t = d["theory"]
        ref_label = (f'SRD kinetic theory {t["total"]:.3f} (kin. {t["kinetic"]:.3f} + coll. '
                     f'{t["collisional"]:.3f}) ± {100 * t["model_error"]:g}%')
    else:
        ref_label = "Backer 2.09 ± 0.02"
    ax3.axhspan(case["reference"] - case["reference_uncertainty"], case["reference"] + case["reference_uncertainty"],
                color="k", alpha=0.25, label=ref_label)
    ax3.axhspan(case["reference"] - case["tolerance"], case["reference"] + case["tolerance"], color="k",
                alpha=0.07, label="gate")
    if "kinetic_theory" in d:
        ax3.axhline(d["kinetic_theory"]["total"], color="C1", ls="--", lw=1,
                    label=f'kinetic theory {d["kinetic_theory"]["total"]:.2f}')
    ax3.set_xlabel("run")
    ax3.set_ylabel("eta")
    ax3.set_title("PASS" if case["passed"] else "FAIL")
    ax3.legend(fontsize=7)
    footer(fig, doc)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")


def plot_transient(case, doc, out, plt):
    d = case["data"]
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(15, 4.3), gridspec_kw={"width_ratios": [2, 1, 1]})
    z = d["centers"]
    for i, t in enumerate(d["times"]):
        c = f"C{i}"
        ax1.errorbar(z, t["profile"], yerr=t["profile_sem"], fmt="o", ms=2, color=c, elinewidth=0.5,
                     label=f'T = {t["published_time"]:g} (t = {t["time"]:.3g})')
        ax1.plot(z, t["analytic_at_centre"], "-", color=c, lw=1)
    ax1.axhline(0, color="k", lw=0.5)
    ax1.set_xlabel("z (gradient direction)")
    ax1.set_ylabel("u_x")
    ax1.set_title(f'N = {d["N"]}, d = {d["channel_width"]:.4g}, g = ±{d["g"]:.3g}, nu = {d["nu"]:.4f} ± '
                  f'{d["nu_se"]:.4f}, {d["runs"]} runs (lines: analytic)', fontsize=9)
    ax1.legend(fontsize=7)

    T = [t["published_time"] for t in d["times"]]
    ax2.semilogx(T, [t["l2_relative"] for t in d["times"]], "o-", label="L2 / u_steady")
    ax2.semilogx(T, [t["threshold"] for t in d["times"]], "k--", label="threshold (4 x noise)")
    ax2.semilogx(T, [t["noise_relative"] for t in d["times"]], ":", color="0.5", label="noise RMS")
    ax2.set_xlabel("published time T")
    ax2.set_ylabel("relative L2 difference")
    ax2.set_title("PASS" if case["passed"] else "FAIL")
    ax2.legend(fontsize=7)

    s = d["steady_measurement"]
    x = s["centers"]
    ax3.plot(x, s["mean_profile"], "o", ms=3)
    half = len(x) // 2
    ax3.plot(x[:half], parabola(s["fits"]["lower"], x[:half]), "C3-")
    ax3.plot(x[half:], parabola(s["fits"]["upper"], x[half:]), "C3-")
    ax3.set_xlabel("x")
    ax3.set_ylabel("u_z")
    ax3.set_title(f'steady: eta = {s["eta"]:.4f} ± {s["se"]:.4f} (kinetic theory '
                  f'{d["kinetic_theory"]["total"]:.3f})', fontsize=9)
    footer(fig, doc)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    try:
        with open_json(args.json) as f:
            doc = json.load(f)
        cases = {c["name"]: c for c in doc["cases"]
                 if c["name"].startswith("poiseuille") or c["name"] == "srd-viscosity"}
    except (OSError, KeyError, json.JSONDecodeError) as e:
        print(f"plot_poiseuille: cannot read {args.json}: {e}", file=sys.stderr)
        return 2
    if not cases:
        print(f"plot_poiseuille: no poiseuille or srd-viscosity case in {args.json}", file=sys.stderr)
        return 2

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    stem, ext = os.path.splitext(args.output)
    both = len(cases) > 1
    if "poiseuille-viscosity" in cases:
        plot_viscosity(cases["poiseuille-viscosity"], doc, f"{stem}-viscosity{ext}" if both else args.output, plt)
    if "poiseuille-transient" in cases:
        plot_transient(cases["poiseuille-transient"], doc, f"{stem}-transient{ext}" if both else args.output, plt)
    if "srd-viscosity" in cases:
        plot_viscosity(cases["srd-viscosity"], doc, f"{stem}-srd-viscosity{ext}" if both else args.output, plt)
    return 0


if __name__ == "__main__":
    sys.exit(main())
