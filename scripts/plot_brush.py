#!/usr/bin/env python3
"""Pictures of a surface-polymerization run (GALAMOST Table 2's brushes):
from an H5MD trajectory of `mesobench run --filter surface-polymerization
--steps N --trajectory F`, the last frame (or --frame K) as

  PREFIX-brush.png    the ball, the initiators and every reacted monomer in 3D
                      (free monomers left out), coloured by distance from the
                      ball's centre;
  PREFIX-slab.png     a slab |z| < 1.5 through the centre: ball, brush and melt;
  PREFIX-profile.png  the reacted monomers' density against the distance from
                      the centre, for every frame (the brush growing).

    scripts/plot_brush.py traj.h5 -o out-prefix [--frame K] [--title TEXT]

Types are the workload's: 0 ball (B), 1 initiator (I), 2 free monomer (M),
3 reacted monomer (P). The ball sits at the box centre (the origin).
"""
import argparse
import math


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trajectory")
    ap.add_argument("-o", "--output", required=True, help="prefix of the three PNG files")
    ap.add_argument("--frame", type=int, default=-1)
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    import h5py
    import numpy as np
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with h5py.File(a.trajectory, "r") as f:
        t = f["particles/trajectory"]
        pos_all = t["position/value"]
        species_all = t["species/value"]
        steps = t["position/step"][:]
        pos = np.asarray(pos_all[a.frame])
        species = np.asarray(species_all[a.frame])
        edges = np.asarray(t["box/edges/value"][a.frame])
        r_all = [np.linalg.norm(np.asarray(pos_all[k]), axis=1) for k in range(len(steps))]
        s_all = [np.asarray(species_all[k]) for k in range(len(steps))]
    step = int(steps[a.frame])
    ball, init, free, brush = (species == k for k in range(4))
    r = np.linalg.norm(pos, axis=1)
    title = a.title or f"step {step}"

    fig = plt.figure(figsize=(6.4, 6.0))
    ax = fig.add_subplot(projection="3d")
    ax.scatter(*pos[ball].T, s=2, c="0.6", alpha=0.25, depthshade=False, label=f"ball ({ball.sum()})")
    sc = ax.scatter(*pos[brush].T, s=3, c=r[brush], cmap="viridis", depthshade=False,
                    label=f"reacted monomers ({brush.sum()})")
    ax.scatter(*pos[init].T, s=6, c="crimson", depthshade=False, label=f"initiators ({init.sum()})")
    half = 0.5 * float(edges[0])
    for set_lim in (ax.set_xlim, ax.set_ylim, ax.set_zlim):
        set_lim(-half, half)
    ax.set_box_aspect((1, 1, 1))
    fig.colorbar(sc, ax=ax, shrink=0.6, label="distance from the centre")
    ax.legend(loc="upper left", fontsize=8, markerscale=3)
    ax.set_title(f"brush, {title}")
    fig.tight_layout()
    fig.savefig(f"{a.output}-brush.png", dpi=150)
    plt.close(fig)

    slab = np.abs(pos[:, 2]) < 1.5
    fig, ax = plt.subplots(figsize=(6.0, 6.0))
    for mask, colour, size, name in ((free, "0.85", 2, "free monomers"), (ball, "0.35", 3, "ball"),
                                     (brush, "tab:blue", 4, "reacted monomers"), (init, "crimson", 8, "initiators")):
        m = mask & slab
        ax.scatter(pos[m, 0], pos[m, 1], s=size, c=colour, label=f"{name} ({m.sum()})")
    ax.set_aspect("equal")
    ax.set_xlim(-half, half)
    ax.set_ylim(-half, half)
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.legend(loc="upper right", fontsize=8, markerscale=2)
    ax.set_title(f"slab |z| < 1.5, {title}")
    fig.tight_layout()
    fig.savefig(f"{a.output}-slab.png", dpi=150)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    bins = np.arange(0.0, half + 1e-9, 0.5)
    shell = 4.0 / 3.0 * math.pi * (bins[1:] ** 3 - bins[:-1] ** 3)
    mid = 0.5 * (bins[1:] + bins[:-1])
    for k in range(len(steps)):
        if int(steps[k]) == 0:
            continue
        counts, _ = np.histogram(r_all[k][s_all[k] == 3], bins=bins)
        ax.plot(mid, counts / shell, label=f"step {int(steps[k])}")
    ax.set_xlabel("distance from the ball's centre")
    ax.set_ylabel("reacted monomers per volume")
    ax.set_title(f"brush density profile, {title}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(f"{a.output}-profile.png", dpi=150)
    plt.close(fig)
    print(f"plot_brush: wrote {a.output}-brush.png, -slab.png, -profile.png (step {step})")


if __name__ == "__main__":
    main()
