#!/usr/bin/env python3
"""The radial distribution function of one frame, and a peer's against ours
(issue 58): the structural check that comes, with the temperature, pressure
and potential energy, before a peer's speed is quoted.

    scripts/peers/rdf.py ours.h5md peer.npz [--r-min 0.5 --r-max 2.5 --dr 0.05 --z 5]

A frame is mesobench's H5MD trajectory (`run --steps S --trajectory F.h5md`;
its last frame) or a peer's final frame (.npz with `positions` and `box`, as
the peer drivers write with --frames). Pairs are counted with SciPy's
periodic k-d tree (cKDTree with boxsize).

The noise is measured, not assumed: the box is cut into 4 x 4 x 4 blocks, g(r)
is computed with the particles of each block as centres, and a bin's standard
error is the spread of the 64 blocks' values over sqrt(64). That keeps the
density fluctuations of the fluid (far from Poisson near a critical point)
in the error. The check: in every bin of [r_min, r_max),

    |g_peer(r) - g_ours(r)| <= z sqrt(se_peer(r)^2 + se_ours(r)^2),

z = 5 by default (with 40 bins and 63 degrees of freedom a fluid that is the
same fails by chance about once in 10^4 comparisons); the result records the
largest difference, the bound in its bin and the largest ratio of the two.
Exit status of the command: 0 when the two agree, 1 when they do not, 2 on
bad input.
"""
import argparse
import sys

BLOCKS = 4  # per edge: 64 blocks


def read_frame(path):
    """(positions N x 3, box edges 3) of the last frame of an H5MD file or a .npz."""
    import numpy as np
    if path.endswith(".npz"):
        with np.load(path) as f:
            return np.asarray(f["positions"], dtype=float), np.asarray(f["box"], dtype=float)
    import h5py
    with h5py.File(path, "r") as f:
        groups = list(f["particles"])
        if len(groups) != 1:
            raise ValueError(f"{path}: one particle group expected, found {groups}")
        g = f["particles"][groups[0]]
        positions = np.asarray(g["position/value"][-1], dtype=float)
        edges = g["box/edges"]
        box = np.asarray(edges["value"][-1] if isinstance(edges, h5py.Group) else edges[()], dtype=float)
    return positions, box


def write_frame(path, positions, box):
    """A peer's final frame for rdf.py (float32 positions: 0.01% of a cutoff at L = 100)."""
    import numpy as np
    np.savez_compressed(path, positions=np.asarray(positions, dtype=np.float32), box=np.asarray(box, dtype=float))


def rdf(positions, box, r_min=0.5, r_max=2.5, dr=0.05):
    """(bin centres, g, its standard error) of one frame, by block (see above)."""
    import numpy as np
    from scipy.spatial import cKDTree
    box = np.asarray(box, dtype=float)
    if np.any(2 * r_max >= box):
        raise ValueError(f"r_max {r_max:g} is not under half the box {box.tolist()}")
    x = np.mod(np.asarray(positions, dtype=float), box)
    x[x >= box] = 0.0  # mod can round up to the edge; cKDTree wants [0, L)
    n = len(x)
    density = n / float(np.prod(box))
    edges = np.arange(r_min, r_max + 0.5 * dr, dr)
    shells = 4.0 / 3.0 * np.pi * np.diff(edges ** 3)
    tree = cKDTree(x, boxsize=box)
    block = np.minimum((x / box * BLOCKS).astype(int), BLOCKS - 1)
    block = (block[:, 0] * BLOCKS + block[:, 1]) * BLOCKS + block[:, 2]
    per_block = []
    for b in range(BLOCKS ** 3):
        centres = x[block == b]
        if len(centres) == 0:
            continue
        counts = np.diff(cKDTree(centres, boxsize=box).count_neighbors(tree, edges).astype(float))
        per_block.append((len(centres), counts))
    sizes = np.array([s for s, _ in per_block], dtype=float)
    counts = np.array([c for _, c in per_block])
    g = counts.sum(axis=0) / (sizes.sum() * density * shells)
    g_blocks = counts / (sizes[:, None] * density * shells)
    se = g_blocks.std(axis=0, ddof=1) / np.sqrt(len(per_block))
    return 0.5 * (edges[1:] + edges[:-1]), g, se


def compare(peer, ours, z=5.0, **bins):
    """The record of a peer's g(r) against ours: every bin within z combined errors."""
    import numpy as np
    r, g_p, se_p = rdf(*peer, **bins)
    _, g_o, se_o = rdf(*ours, **bins)
    diff = np.abs(g_p - g_o)
    bound = z * np.hypot(se_p, se_o)
    ratio = np.where(bound > 0, diff / np.where(bound > 0, bound, 1), np.where(diff > 0, np.inf, 0))
    worst = int(np.argmax(diff))
    return {
        "r": [round(float(v), 6) for v in r], "g_peer": [round(float(v), 5) for v in g_p],
        "g_ours": [round(float(v), 5) for v in g_o], "se_peer": [round(float(v), 5) for v in se_p],
        "se_ours": [round(float(v), 5) for v in se_o], "z": z,
        "max_abs_difference": float(diff[worst]), "at_r": float(r[worst]), "bound_there": float(bound[worst]),
        "max_difference_over_bound": float(ratio.max()), "at_r_of_max_ratio": float(r[int(np.argmax(ratio))]),
        "pass": bool(np.all(diff <= bound)),
        "method": f"cKDTree pair counts, {BLOCKS}^3 blocks of centres for the standard error",
    }


def summary(c):
    """One line (under 100 columns) of compare()'s record."""
    verdict = "agree" if c["pass"] else "DIFFER"
    return (f"g(r) {c['r'][0] - 0.5 * (c['r'][1] - c['r'][0]):g}..{c['r'][-1] + 0.5 * (c['r'][1] - c['r'][0]):g}: "
            f"{verdict}, max |dg| {c['max_abs_difference']:.4f} at r = {c['at_r']:.3f} (bound there "
            f"{c['bound_there']:.4f}), max |dg|/bound {c['max_difference_over_bound']:.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ours", help="mesobench's frame (.h5md: its last frame) or a .npz")
    ap.add_argument("peer", help="the peer's frame (.npz or .h5md)")
    ap.add_argument("--r-min", type=float, default=0.5)
    ap.add_argument("--r-max", type=float, default=2.5)
    ap.add_argument("--dr", type=float, default=0.05)
    ap.add_argument("--z", type=float, default=5.0, help="bound in combined standard errors (default 5)")
    args = ap.parse_args()
    try:
        ours, peer = read_frame(args.ours), read_frame(args.peer)
        c = compare(peer, ours, args.z, r_min=args.r_min, r_max=args.r_max, dr=args.dr)
    except (OSError, KeyError, ValueError) as e:
        print(f"rdf: {e}", file=sys.stderr)
        return 2
    print(summary(c))
    return 0 if c["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
