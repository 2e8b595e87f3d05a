#!/usr/bin/env python3
"""Plot the wall and shear gates (docs/walls.md) from `mesobench validate --json`
results: any number of files, plain or compressed, each holding any of the four cases.

srd-slit-poiseuille, dpd-slit-poiseuille (OUT-slit.png): per result, u_x(z) between the
walls with the parabola the gate fitted (dashed where it is extrapolated to the walls), the
walls, and each wall's no-slip plane: the tangent of the parabola at the wall reaches zero a
slip length b beyond it. Below it, the profile less the parabola for SRD, and the density
profile for DPD (the near-wall layers the gate reports).

srd-couette, dpd-couette (OUT-couette.png): per gate, u_x(z) against the imposed profile
gdot z at each shear rate, and the shear stress -P_xz = eta gdot against gdot with the
reference viscosity's band (the gate's tolerance) through the origin.

The gates record no standard error per bin: the error bars are the scatter of the bins about
the fitted parabola (the slit, over its fitted bins) or line (Couette), one value per
profile, as the fit's residual gives it.

    scripts/plot_walls.py results/walls/h200-2026-11-29/*slit-poiseuille-long-*.json.xz -o walls.png

With both kinds in the inputs it writes OUT-slit.png and OUT-couette.png, with one kind (or
--only) OUT.
"""
import argparse
import json
import lzma
import math
import os
import sys

from png_palette import shrink_png
from result_files import open_json
from validation_provenance import provenance_line

SLIT = ("srd-slit-poiseuille", "dpd-slit-poiseuille")
COUETTE = ("srd-couette", "dpd-couette")
DPI = 72  # with the 64-colour palette, a figure of these sizes stays under ~60 kB


def unit(name):
    return "a" if name.startswith("srd") else "r_c"


def label(doc, case, path, clash):
    """precision and backend, the control's overrides, and the file where two would read alike."""
    d = case["data"]
    text = f'{d.get("precision", "?")}, {doc.get("backend", "?")}, {doc.get("form", "?")}'
    if d.get("overrides"):  # a control's knob, or a smoke run's (cut short)
        knobs = ",".join(f"{k}={v:g}" for k, v in sorted(d["overrides"].items()))
        text += ", " + (knobs if len(knobs) <= 32 else knobs[:31] + "…")
    if clash:  # the file's name less the case's
        text += f" ({os.path.basename(path).split('.json')[0].replace(case['name'] + '-', '')})"
    return text


def verdict(case):
    return "PASS" if case["passed"] else "FAIL"


def parabola(fit, z):
    c0, c1, c2 = fit["c"]
    return c0 + c1 * (z - fit["x0"]) + c2 * (z - fit["x0"]) ** 2


def scatter(residuals, params):
    """The scatter of points about a least-squares fit with params parameters."""
    n = len(residuals)
    return math.sqrt(sum(r * r for r in residuals) / max(n - params, 1))


def slit_panels(ax_u, ax_w, ax_b, doc, case, text, np):
    d = case["data"]
    z, u = np.array(d["z"]), np.array(d["profile"])
    h, fit, b, u_name = 0.5 * d["slit_height"], d["fit"], d["slip_length"], unit(case["name"])
    # The fitted bins: all of the slit for SRD, the bulk (|z| < h - r_c) for DPD.
    fitted = np.sort(np.argsort(np.abs(z))[:d.get("fit_bins", len(z))])
    fz = np.linspace(z[fitted].min(), z[fitted].max(), 100)
    if "profile_se" in d:
        err, what = np.array(d["profile_se"]), "± SE"
    else:
        s = scatter(u[fitted] - parabola(fit, z[fitted]), 3)
        err, what = np.full(len(z), s), f"± {s:.1e} (scatter about the fit)"
    bars = dict(ms=2.5, capsize=1.5, elinewidth=0.7)
    ax_u.errorbar(z, u, yerr=err, fmt="o", color="C0", label=f"u_x(z) {what}", **bars)
    ax_u.plot(fz, parabola(fit, fz), "C3-", lw=1.1, label=f"parabola fitted to {len(fitted)} bins")
    for edge in (np.linspace(fz.max(), h, 20), np.linspace(-h, fz.min(), 20)):
        ax_u.plot(edge, parabola(fit, edge), "C3--", lw=1.0)
    pad = 0.12 * h
    ax_u.axvspan(-h - pad, -h, color="0.6", alpha=0.35, lw=0, label="walls")
    ax_u.axvspan(h, h + pad, color="0.6", alpha=0.35, lw=0)
    ax_u.set_xlim(-h - pad, h + pad)
    ax_u.set_ylim(min(0.0, ax_u.get_ylim()[0]), None)
    ax_u.set_xlabel(f"z ({u_name})")
    ax_u.set_ylabel("u_x")
    ax_u.set_title(f'{case["name"]}\n{text}: {verdict(case)}\neta = {case["measured"]:.3f} ± '
                   f'{case["uncertainty"]:.3f} (ref. {case["reference"]:.3f}, tol. {case["tolerance"]:.3f})',
                   fontsize=7.5)
    ax_u.legend(fontsize=6, loc="lower center")

    # Near the walls, against the distance from each: the parabola's tangent at the wall
    # reaches zero at the no-slip plane, b beyond the wall (the gate averages the two). A
    # flow that slides (a control) has its plane far away: only the legend gives its b.
    allow = d["slip_allowance"]
    resolved = b is not None and math.isfinite(b) and abs(b) < h
    reach = max(1.6, 3.0 * abs(b)) if resolved else 1.6
    inside = h - np.abs(z[fitted]).max()  # the fitted bins' nearest distance from a wall
    for side, mark in ((1, "o"), (-1, "s")):
        sel = (np.abs(z) > h - reach) & (np.sign(z) == side)
        ax_w.errorbar(h - np.abs(z[sel]), u[sel], yerr=err[sel], fmt=mark, mfc="none" if side < 0 else None,
                      color="C0", **bars)
        for lo, hi, style in ((inside, reach, "C3-"), (0.0, inside, "C3--")):
            dd = np.linspace(lo, hi, 30)
            ax_w.plot(dd, parabola(fit, side * (h - dd)), style, lw=0.9)
        u_w = parabola(fit, side * h)
        rise = -side * (fit["c"][1] + 2.0 * fit["c"][2] * (side * h - fit["x0"]))  # du/d(distance)
        if resolved and rise:
            ax_w.plot([0.0, -u_w / rise], [u_w, 0.0], ":", color="C2", lw=1.2)
    b_text = f"{b:.3f}" if b is not None else "none"
    ax_w.plot([-b if resolved else math.nan], [0.0], "x", color="C2", ms=7, mew=1.6,
              label=f"no-slip plane: b = {b_text} ± {d['slip_length_se']:.3f} {u_name}")
    ax_w.axvspan(-allow, allow, color="C2", alpha=0.1, lw=0, label=f"|b| allowed: {allow:g} {u_name} (+ 4 SE)")
    lo = -max(1.5 * abs(b) if resolved else 0.0, 1.3 * allow)
    ax_w.axvspan(lo, 0.0, color="0.6", alpha=0.35, lw=0)
    ax_w.axhline(0.0, color="k", lw=0.5)
    ax_w.set_xlim(lo, reach)
    ax_w.set_ylim(min(0.0, ax_w.get_ylim()[0]), None)
    ax_w.set_xlabel(f"distance from the wall ({u_name})")
    ax_w.set_ylabel("u_x")
    ax_w.set_title("near the walls: upper (filled), lower (open)", fontsize=7)
    ax_w.legend(fontsize=6, loc="upper left")

    if "density_profile" in d:
        rho = np.array(d["density_profile"])
        ax_b.plot(z, rho, "o-", ms=2.5, lw=0.8, color="C4", label="density per slab")
        ax_b.axhline(d["rho"], color="k", lw=0.7, label=f'rho = {d["rho"]:g}')
        outside = np.setdiff1d(np.arange(len(z)), fitted)
        if outside.size:
            ax_b.plot(z[outside], rho[outside], "o", ms=3, color="C1",
                      label=f'near the walls {d["density_near_walls"]:.3f}, bulk {d["density_bulk"]:.3f}')
        ax_b.set_ylabel("number density")
    else:
        ax_b.errorbar(z, u - parabola(fit, z), yerr=err, fmt="o", color="C0",
                      label=f'u_x - parabola (rms {fit["residual_rms"]:.1e})', **bars)
        ax_b.axhline(0.0, color="k", lw=0.5)
        ax_b.set_ylabel("u_x - parabola")
    ax_b.axvspan(-h - pad, -h, color="0.6", alpha=0.35, lw=0)
    ax_b.axvspan(h, h + pad, color="0.6", alpha=0.35, lw=0)
    ax_b.set_xlim(-h - pad, h + pad)
    ax_b.set_xlabel(f"z ({u_name})")
    ax_b.legend(fontsize=6)


def couette_runs(case):
    """[(shear rate, eta, SE, slope, slope SE, z, profile)] of a Couette case."""
    d = case["data"]
    if "rates" in d:  # dpd-couette: one entry per rate
        return [(r["shear_rate"], r["eta"], r["eta_se"], r["slope"], r["slope_se"], r["z"], r["profile"])
                for r in d["rates"]]
    return [(d["shear_rate"], case["measured"], case["uncertainty"], d["slope"], d["slope_se"], d["z"],
             d["profile"])]


def couette_row(ax_u, ax_s, name, found, np):
    u_name = unit(name)
    top = 0.0
    for k, (doc, case, path, text) in enumerate(found):
        for j, (rate, eta, se, slope, slope_se, z, prof) in enumerate(couette_runs(case)):
            z, prof = np.array(z), np.array(prof)
            c = f"C{(2 * k + j) % 10}"
            s = scatter(prof - np.polyval(np.polyfit(z, prof, 1), z), 2)
            ax_u.errorbar(z, prof, yerr=s, fmt="o", ms=2.5, capsize=1.5, elinewidth=0.7, color=c,
                          label=f"{text}, gdot = {rate:g}: slope {slope:.4f} ± {slope_se:.4f}")
            ax_u.plot(z, rate * z, "--", color=c, lw=0.9)
            ax_s.errorbar([rate], [eta * rate], yerr=[se * abs(rate)], fmt="o", ms=4, capsize=2, color=c,
                          label=f"{text}, gdot = {rate:g}: eta = {eta:.3f} ± {se:.3f}, {verdict(case)}")
            top = max(top, abs(rate))
    z_lo = min(min(r[5]) for _, case, _, _ in found for r in couette_runs(case))
    z_hi = max(max(r[5]) for _, case, _, _ in found for r in couette_runs(case))
    ax_u.plot([], [], "k--", lw=0.9, label="imposed gdot z")
    ax_u.axhline(0.0, color="k", lw=0.4)
    ax_u.set_xlim(z_lo - 0.3, z_hi + 0.3)
    ax_u.set_xlabel(f"z ({u_name})")
    ax_u.set_ylabel("u_x")
    ax_u.legend(fontsize=6, loc="upper left")

    # The band and the split of the published protocol's result: no overrides, the long form.
    case = max(found, key=lambda r: (not r[1]["data"].get("overrides"), r[0].get("form") == "long"))[1]
    ref, tol, ref_se = case["reference"], case["tolerance"], case["reference_uncertainty"]
    g = np.linspace(0.0, 1.15 * top, 50)
    ax_s.plot(g, ref * g, "k-", lw=0.9, label=f"reference eta = {ref:.3f} ± {ref_se:.3f}")
    ax_s.fill_between(g, (ref - ref_se) * g, (ref + ref_se) * g, color="k", alpha=0.25, lw=0)
    ax_s.fill_between(g, (ref - tol) * g, (ref + tol) * g, color="k", alpha=0.08, lw=0,
                      label=f"gate: eta within ±{tol:.3f}")
    ax_s.set_xlim(0.0, 1.15 * top)
    ax_s.set_ylim(0.0, None)
    ax_s.set_xlabel("shear rate gdot")
    ax_s.set_ylabel("shear stress -P_xz")
    d = case["data"]
    if "eta_kinetic" in d:
        t = d["theory"]
        ax_s.text(0.97, 0.04, f'kinetic {d["eta_kinetic"]:.3f} ± {d["eta_kinetic_se"]:.3f} (theory '
                  f'{t["kinetic"]:.3f})\ncollisional {d["eta_collisional"]:.3f} ± {d["eta_collisional_se"]:.3f} '
                  f'({t["collisional"]:.3f})', transform=ax_s.transAxes, ha="right", fontsize=6)
    ax_s.legend(fontsize=6, loc="upper left")
    boxes = {(" x ".join(f"{v:g}" for v in c["data"]["box"]), c["data"]["n"]): None for _, c, _, _ in found}
    ax_u.set_title(f"{name}: " + "; ".join(f"box {box}, N = {n}" for box, n in boxes), fontsize=8)
    ax_s.set_title(f"{name}: stress against shear rate", fontsize=8)


def save(fig, docs, out):
    fig.text(0.01, 0.005, provenance_line(docs), fontsize=6, color="0.4")
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    fig.savefig(out, dpi=DPI)
    shrink_png(out)
    print(f"wrote {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+", help="outputs of `mesobench validate --json` (.json, .json.xz, .json.gz)")
    ap.add_argument("-o", "--output", required=True, help="the figure (PNG); two figures: OUT-slit, OUT-couette")
    ap.add_argument("--only", choices=("slit", "couette"), help="draw the one figure of these gates (into OUT)")
    args = ap.parse_args()
    wanted = {"slit": SLIT, "couette": COUETTE}.get(args.only, SLIT + COUETTE)
    found = {}  # case name -> [(doc, case, path)]
    for path in args.json:
        try:
            with open_json(path) as f:
                doc = json.load(f)
            for case in doc["cases"]:
                if case["name"] in wanted and not case.get("partial"):
                    found.setdefault(case["name"], []).append((doc, case, path))
        except (OSError, KeyError, TypeError, ValueError, lzma.LZMAError, EOFError) as e:
            print(f"plot_walls: cannot read {path}: {e}", file=sys.stderr)
            return 2
    if not found:
        print(f"plot_walls: no {', '.join(wanted)} case in the inputs", file=sys.stderr)
        return 2
    for name, runs in found.items():
        labels = [label(doc, case, path, False) for doc, case, path in runs]
        found[name] = [(doc, case, path, label(doc, case, path, labels.count(labels[k]) > 1))
                       for k, (doc, case, path) in enumerate(runs)]

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    slit = [(name, r) for name in SLIT for r in found.get(name, [])]
    couette = [name for name in COUETTE if name in found]
    stem, ext = os.path.splitext(args.output)
    figures = []  # (figure, its results, its file): drawn before any is written
    try:
        if slit:
            fig, axes = plt.subplots(3, len(slit), figsize=(3.2 * len(slit), 8.0), squeeze=False,
                                     gridspec_kw={"height_ratios": [3, 2.2, 2]})
            for k, (name, (doc, case, path, text)) in enumerate(slit):
                slit_panels(axes[0][k], axes[1][k], axes[2][k], doc, case, text, np)
            figures.append((fig, [r[1][0] for r in slit], f"{stem}-slit{ext}" if couette else args.output))
        if couette:
            fig, axes = plt.subplots(len(couette), 2, figsize=(11, 3.4 * len(couette)), squeeze=False)
            for k, name in enumerate(couette):
                couette_row(axes[k][0], axes[k][1], name, found[name], np)
            figures.append((fig, [r[0] for name in couette for r in found[name]],
                            f"{stem}-couette{ext}" if slit else args.output))
    except (KeyError, TypeError, ValueError, IndexError) as e:
        print(f"plot_walls: a result lacks what the figure needs: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    for fig, docs, out in figures:
        try:
            save(fig, docs, out)
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError) as e:
            # A wrong -o; a full or read-only disk propagates (`mesobench report` fails on it).
            print(f"plot_walls: cannot write {out}: {e.strerror or e}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
