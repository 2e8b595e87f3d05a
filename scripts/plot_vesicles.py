#!/usr/bin/env python3
"""Pictures of dpd-vesicle runs, in the manner of Tang & Karniadakis' Figs.
14-15: a rendered snapshot of the hydrophobic (B) beads, a transmission-
microscopy-style projection of their density, and the morphology counts
against time.

    scripts/plot_vesicles.py --beads last-beads.csv --morphology morphology.json \\
        [--gate vesicle-formation-long.json] -o out-prefix

--beads: `mesobench morphology --beads-csv` (the last frame's B beads);
--morphology: `mesobench morphology --json`; --gate: the long form of the
vesicle-formation gate (`mesobench validate --json`): its seeds' counts.
Writes PREFIX-snapshot.png, PREFIX-tem.png and PREFIX-counts.png.
"""
import argparse
import json
import sys

from result_files import open_json


def read_beads(path):
    import numpy as np
    with open(path) as f:
        box = [float(v) for v in f.readline().split()[2:5]]
    return np.loadtxt(path, delimiter=",", skiprows=2, ndmin=2), box


def snapshot(beads, box, out, title):
    import matplotlib.pyplot as plt
    fig = plt.figure(figsize=(6.4, 6))
    ax = fig.add_subplot(projection="3d")
    # Depth cue: colour by the distance along the view direction.
    ax.scatter(beads[:, 0], beads[:, 1], beads[:, 2], s=0.4, c=beads[:, 0] + beads[:, 1],
               cmap="viridis", depthshade=True, linewidths=0)
    for k, lab in enumerate("xyz"):
        getattr(ax, f"set_{lab}lim")(-box[k] / 2, box[k] / 2)
        getattr(ax, f"set_{lab}label")(f"{lab} (r_c)")
    ax.set_box_aspect(box)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=130)
    plt.close(fig)


def tem(beads, box, z0, out, title):
    # Transmission-microscopy style: the hydrophobic density of a section 4 r_c
    # thick around z0 (a vesicle's lumen), projected along z: dark where the
    # beam crosses most B beads, membranes seen edge-on as rings.
    import matplotlib.pyplot as plt
    import numpy as np
    dz = (beads[:, 2] - z0 + box[2] / 2) % box[2] - box[2] / 2
    beads = beads[np.abs(dz) < 2.0]
    bins = int(round(box[0] / 0.25))
    h, xe, ye = np.histogram2d(beads[:, 0], beads[:, 1], bins=bins,
                               range=[[-box[0] / 2, box[0] / 2], [-box[1] / 2, box[1] / 2]])
    fig, ax = plt.subplots(figsize=(5.6, 5.2))
    ax.imshow(h.T, origin="lower", extent=[xe[0], xe[-1], ye[0], ye[-1]], cmap="gray_r",
              interpolation="gaussian")
    ax.set_xlabel("x (r_c)")
    ax.set_ylabel("y (r_c)")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=130)
    plt.close(fig)


def counts(morph, gate, out):
    import matplotlib.pyplot as plt
    n = 1 + (1 if gate else 0)
    fig, axes = plt.subplots(1, n, figsize=(5.6 * n, 4), squeeze=False)
    ax = axes[0][0]
    frames = morph["frames"]
    t = [f["time"] for f in frames]
    for key, style in (("micelles", "-"), ("sheets", "--"), ("vesicles", "-o")):
        ax.plot(t, [f[key] for f in frames], style, ms=3, label=key if key != "vesicles" else "vesicle lumens")
    ax.plot(t, [len(f["aggregates"]) for f in frames], ":", color="gray", label="aggregates")
    ax.set_yscale("symlog", linthresh=10)
    ax.set_xlabel("time (DPD units)")
    ax.set_ylabel("count")
    ax.set_title(f'pilot: {morph["trajectory"].split("/")[-1]}', fontsize=9)
    ax.legend(fontsize=8)
    if gate:
        ax = axes[0][1]
        case = next(c for c in gate["cases"] if c["name"] == "vesicle-formation")
        for r in case["data"]["runs"]:
            ax.plot(r["time"], r["vesicles"], "-o", ms=3, label=f'seed {r["seed"]}')
        ax.axvline(case["data"]["time_end"], color="k", lw=0.8)
        ax.set_xlabel("time (DPD units)")
        ax.set_ylabel("closed vesicle lumens")
        ax.set_title(f'vesicle-formation long form: {"PASS" if case["passed"] else "FAIL"}', fontsize=9)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=130)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--beads", required=True)
    ap.add_argument("--morphology", required=True)
    ap.add_argument("--gate")
    ap.add_argument("--title", default="dpd-vesicle")
    ap.add_argument("-o", "--output", required=True, help="prefix of the three PNG files")
    args = ap.parse_args()
    try:
        beads, box = read_beads(args.beads)
        with open_json(args.morphology) as f:
            morph = json.load(f)
        gate = None
        if args.gate:
            with open_json(args.gate) as f:
                gate = json.load(f)
    except (OSError, ValueError, IndexError, KeyError) as e:
        print(f"plot_vesicles: cannot read the inputs: {e}", file=sys.stderr)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    last = morph["frames"][-1]
    title = (f'{args.title}\nt = {last["time"]:g}: {len(last["aggregates"])} aggregates, '
             f'{last["vesicles"]} vesicle lumens')
    ves = [a for a in last["aggregates"] if a["kind"] == "vesicle"]
    z0 = ves[0]["centre"][2] if ves else 0.0
    snapshot(beads, box, args.output + "-snapshot.png", title + " (B beads)")
    tem(beads, box, z0, args.output + "-tem.png", title + f"\nB density of a section 4 r_c thick at z = {z0:.1f}")
    counts(morph, gate, args.output + "-counts.png")
    print(f"wrote {args.output}-snapshot.png, -tem.png, -counts.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
