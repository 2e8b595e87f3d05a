#!/usr/bin/env python3
"""Figures of the polymer solution in the SRD solvent (Howard et al. 2018,
sec. 4.3):

    scripts/plot_polymer_srd.py [--bench run.json ...] [--gate gate.json]
                                [--trajectory chains.h5] -o out-prefix

--bench: `mesobench run --filter polymer-srd --json` files (one per
precision): Fig. 9 redrawn, the wall time per unit of simulated time
1 / (TPS dt) against the monomer density, MPCD against the Langevin
baseline, with their ratio (the paper's at most 1.4, the target 1.25).
Writes PREFIX-fig9.png and prints the table.
--gate: the polymer-hydrodynamics JSON (`mesobench validate --json`): R_g and
D against N on log axes with the fitted and the asymptotic power laws.
Writes PREFIX-scaling.png.
--trajectory: an H5MD trajectory of polymer-srd (its monomers): the last
frame's chains, unwrapped and coloured by chain. Writes PREFIX-chains.png.
"""
import argparse
import json
import re
import sys

from result_files import open_json


def bench_rows(paths):
    rows = []
    for path in paths:
        with open_json(path) as f:
            doc = json.load(f)
        for r in doc["results"]:
            if r.get("workload") != "polymer-srd":
                continue
            p = r["parameters"]
            rows.append({"precision": r["variant"].split("precision=")[1].split(",")[0],
                         "solvent": p["solvent"], "chains": p["chains"], "rho_m": p["monomer_density"],
                         "tps": r["tps_median"], "tps_min": r["tps_min"], "tps_max": r["tps_max"],
                         "dt": p["dt"], "device": doc["provenance"].get("gpu", "")})
    return rows


def fig9(rows, out):
    import matplotlib.pyplot as plt
    pairs = {(r["precision"], r["chains"], r["solvent"]) for r in rows}
    if not any((p, c, "srd") in pairs and (p, c, "langevin") in pairs for p, c, _ in pairs):
        sys.exit("plot_polymer_srd.py: no chain count has both an srd and a langevin result to compare")
    fig, (ax, ar) = plt.subplots(2, 1, figsize=(6.4, 6.4), sharex=True, height_ratios=[2, 1])
    print(f"{'precision':<9} {'chains':>6} {'rho_m':>9} {'s/tau MPCD':>11} {'s/tau Lgv':>10} {'ratio':>6}")
    for prec, mark in (("mixed", "o"), ("double", "s"), ("single", "^")):
        sel = [r for r in rows if r["precision"] == prec]
        if not sel:
            continue
        by = {}
        for r in sel:
            by.setdefault(r["chains"], {})[r["solvent"]] = r
        xs, srd, lgv, ratio = [], [], [], []
        for chains in sorted(by):
            pair = by[chains]
            if "srd" not in pair or "langevin" not in pair:
                continue
            t_srd = 1.0 / (pair["srd"]["tps"] * pair["srd"]["dt"])
            t_lgv = 1.0 / (pair["langevin"]["tps"] * pair["langevin"]["dt"])
            xs.append(pair["srd"]["rho_m"])
            srd.append(t_srd)
            lgv.append(t_lgv)
            ratio.append(t_srd / t_lgv)
            print(f"{prec:<9} {chains:>6} {xs[-1]:>9.4f} {t_srd:>11.4g} {t_lgv:>10.4g} {ratio[-1]:>6.3f}")
        ax.plot(xs, srd, mark + "-", label=f"MPCD ({prec})")
        ax.plot(xs, lgv, mark + "--", mfc="none", label=f"Langevin ({prec})")
        ar.plot(xs, ratio, mark + "-", label=prec)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylabel("wall time per unit time (s / tau)")
    ax.legend(fontsize=8)
    ax.set_title("polymer-srd: 50-bead chains, MPCD solvent (L = 50) vs Langevin", fontsize=9)
    ar.axhline(1.4, color="gray", ls=":", label="Howard et al. (P100), at most")
    ar.axhline(1.25, color="red", ls=":", label="target")
    ar.set_xlabel("monomer density (1 / a^3)")
    ar.set_ylabel("MPCD / Langevin")
    ar.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=130)
    plt.close(fig)


def scaling(path, out):
    import matplotlib.pyplot as plt
    import numpy as np
    with open_json(path) as f:
        doc = json.load(f)
    case = next(c for c in doc["cases"] if c["name"] == "polymer-hydrodynamics")
    runs = case["data"]["analysis"]["runs"]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9.6, 4.2))
    for dyn, mark in (("langevin", "s"), ("srd", "o")):
        sel = sorted((r for r in runs if r["dynamics"] == dyn), key=lambda r: r["N"])
        if not sel:
            continue
        n = np.array([r["N"] for r in sel], float)
        rg = np.sqrt([r["rg2"] for r in sel])
        a1.plot(n, rg, mark, label=dyn)
        d = np.array([r["D"] for r in sel])
        a2.errorbar(n, d, yerr=[r["D_sem"] for r in sel], fmt=mark, label=f"{dyn}" + (" (box-corrected)" if dyn == "srd" else ""))
        if dyn == "srd":
            a2.plot(n, [r["D_kirkwood"] for r in sel], "x:", color="gray", label="Kirkwood kT/(6 pi eta R_h)")
        else:
            a2.plot(n, [r["D_rouse"] for r in sel], "--", color="gray", label="Rouse kT/(N gamma)")
    n = np.array([10, 80.0])
    nu = case["data"]["analysis"]["nu"]
    a1.plot(n, nu["prefactor"] * n ** nu["nu"], "-", color="C2", label=f"fit N=10-40: nu = {nu['nu']:.3f}")
    a1.plot(n, nu["prefactor"] * 10 ** (nu["nu"] - 0.588) * n ** 0.588, ":", color="k", label="N^0.588")
    for ax, lab in ((a1, "R_g (a)"), (a2, "D (a^2 / tau)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("N (monomers)")
        ax.set_ylabel(lab)
        ax.legend(fontsize=7)
    gates = case["data"]["gates"]
    fig.suptitle("polymer-hydrodynamics (%s form): " % case["data"]["form"] +
                 "; ".join(f"{g['quantity'].split(':')[0]} = {g['measured']:.3f} +- {g['se']:.3f}" for g in gates),
                 fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=130)
    plt.close(fig)


def chains_picture(path, out):
    import h5py
    import matplotlib.pyplot as plt
    import numpy as np
    with h5py.File(path, "r") as f:
        traj = f["particles/trajectory"]
        pos = traj["position/value"][-1]
        img = traj["image/value"][-1]
        box = traj["box/edges/value"][-1]
        time = float(traj["position/time"][-1])
        setup = f["parameters/mesobench"].attrs["setup"]
    setup = setup.decode() if isinstance(setup, bytes) else str(setup)
    m = re.search(r"\bN=(\d+)", setup)
    if not m or "chains=" not in setup:
        sys.exit(f"plot_polymer_srd.py: {path} is not a polymer-srd trajectory (setup: {setup[:60]})")
    r = pos + img * box
    n = int(m.group(1))
    chains = len(r) // n
    fig = plt.figure(figsize=(6.4, 6))
    ax = fig.add_subplot(projection="3d")
    cmap = plt.get_cmap("tab20")
    for c in range(chains):
        x = r[c * n:(c + 1) * n]
        ax.plot(x[:, 0], x[:, 1], x[:, 2], "-o", ms=1.5, lw=0.8, color=cmap(c % 20))
    ax.set_box_aspect((1, 1, 1))
    solvent = re.search(r"\bsolvent=(\w+)", setup)
    where = "in the SRD solvent (not drawn)" if solvent and solvent.group(1) == "srd" else "under Langevin dynamics"
    ax.set_title(f"polymer-srd: {chains} chains of {n} {where}\nL = {box[0]:g}, t = {time:g}, unwrapped",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=130)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bench", nargs="*", default=[])
    ap.add_argument("--gate")
    ap.add_argument("--trajectory")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    if not (a.bench or a.gate or a.trajectory):
        sys.exit("plot_polymer_srd.py: give --bench, --gate or --trajectory")
    if a.bench:
        rows = bench_rows(a.bench)
        if not rows:
            sys.exit("plot_polymer_srd.py: no polymer-srd results in " + " ".join(a.bench))
        fig9(rows, a.out + "-fig9.png")
    if a.gate:
        scaling(a.gate, a.out + "-scaling.png")
    if a.trajectory:
        chains_picture(a.trajectory, a.out + "-chains.png")


if __name__ == "__main__":
    main()
