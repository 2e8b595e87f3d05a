#!/usr/bin/env python3
"""The lattice of assembled triblock Janus particles, read in each particle's
own frame: c and a of a body-centred tetragonal (BCT) lattice with c along
the patch axes, from the last frame of an H5MD trajectory.

    scripts/janus_lattice.py TRAJECTORY.h5md [--frame K] [--json OUT]

Diffraction of the whole box (scripts/plot_janus_assembly.py) needs one
grain: a polycrystal's peaks average over grains of different directors.
Here every neighbour vector r_ij is split along particle i's patch axis n_i,
z = |r_ij . n_i| and rho = |r_ij - (r_ij . n_i) n_i|, so grains of any
director add up. Only particles inside a grain count: those whose
neighbours' axes within 1 (the cut-off) are all within 25 degrees of their
own. In a BCT lattice with c along the axes the neighbour shells sit at
(z, rho) = (c/2, a/sqrt 2) (8 body-centre neighbours, the patch bonds),
(0, a) (4 across the equator) and (c, 0) (2 along the axis); each shell's
peak gives c or a, and two estimates of each that agree, with 2 / (a^2 c)
equal to the density, say the lattice is BCT.
"""
import argparse
import json
import sys

import numpy as np

R_MAX = 2.0         # neighbours counted out to here (beyond c, 1.3 in the short form's grain)
R_GRAIN = 1.0       # the cut-off: the neighbours whose axes must agree
COS_GRAIN = np.cos(np.radians(25.0))
BIN = 0.01
SHELLS = ("body", "equator", "axis")
BODY = ((0.25, 1.0), (0.25, 0.9))  # the body-centre shell's window in (z, rho): off the axis and the equator
OFF = 0.2                          # the equatorial and axial shells: within this of z = 0 and rho = 0


def axes_of(q):
    s, x, y, z = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    return np.stack([2 * (x * z + s * y), 2 * (y * z - s * x), 1 - 2 * (x * x + y * y)], axis=1)


def read_frame(path, frame):
    import h5py
    with h5py.File(path, "r") as f:
        g = f["particles/trajectory"]
        pos = np.asarray(g["position/value"][frame], dtype=float)
        q = np.asarray(g["orientation/value"][frame], dtype=float)
        box = np.asarray(g["box/edges/value"][frame], dtype=float)
    return pos, axes_of(q), box


def pairs(pos, box, r_max):
    """Every pair i < j closer than r_max (minimum image) and its vector."""
    from scipy.spatial import cKDTree
    wrapped = np.mod(pos, box)
    tree = cKDTree(wrapped, boxsize=box)
    ij = tree.query_pairs(r_max, output_type="ndarray")
    d = wrapped[ij[:, 1]] - wrapped[ij[:, 0]]
    d -= box * np.round(d / box)
    return ij[:, 0], ij[:, 1], d


def peak(values):
    """The mode of a histogram with BIN-wide bins, refined by a parabola."""
    if len(values) < 10:
        return float("nan")
    lo = values.min()
    h, edges = np.histogram(values, bins=max(3, int(np.ceil((values.max() - lo) / BIN))))
    h = np.convolve(h, np.ones(3) / 3, mode="same")
    k = int(np.argmax(h))
    x = 0.5 * (edges[k] + edges[k + 1])
    if 0 < k < len(h) - 1:
        den = h[k - 1] - 2 * h[k] + h[k + 1]
        if den < 0:
            x += 0.5 * (h[k - 1] - h[k + 1]) / den * (edges[1] - edges[0])
    return float(x)


def lattice(pos, n, box):
    i, j, d = pairs(pos, box, R_MAX)
    r = np.linalg.norm(d, axis=1)
    aligned = np.abs(np.einsum("ka,ka->k", n[i], n[j])) >= COS_GRAIN
    # Particles in a grain: no neighbour within the cut-off out of line.
    bad = np.zeros(len(pos), dtype=bool)
    near_bad = (r < R_GRAIN) & ~aligned
    bad[i[near_bad]] = True
    bad[j[near_bad]] = True
    good = ~bad
    out = {"N": len(pos), "in_grains": int(good.sum()), "density": len(pos) / float(np.prod(box))}
    # Each pair from both ends, in the frame of the particle at that end.
    zs, rhos = [], []
    for a, vec in ((i, d), (j, -d)):
        keep = good[a]
        z = np.einsum("ka,ka->k", vec[keep], n[a[keep]])
        zs.append(np.abs(z))
        rhos.append(np.linalg.norm(vec[keep] - z[:, None] * n[a[keep]], axis=1))
    z, rho = np.concatenate(zs), np.concatenate(rhos)
    def shell(z0, z1, r0, r1):
        w = (z >= z0) & (z < z1) & (rho >= r0) & (rho < r1)
        return {"z": peak(z[w]), "rho": peak(rho[w]), "per_particle": float(w.sum()) / max(1, out["in_grains"])}

    # The body-centre shell first; it places the other two windows (within 20%
    # of the c and a it gives), so no lattice constant is assumed.
    out["body"] = shell(BODY[0][0], BODY[0][1], BODY[1][0], BODY[1][1])
    c0, a0 = 2 * out["body"]["z"], np.sqrt(2) * out["body"]["rho"]
    out["equator"] = shell(0.0, OFF, 0.8 * a0, 1.2 * a0)
    out["axis"] = shell(0.8 * c0, min(1.2 * c0, R_MAX), 0.0, OFF)
    c_body, a_body = c0, float(a0)
    c_axis, a_eq = out["axis"]["z"], out["equator"]["rho"]
    out["c"] = {"body_centre": c_body, "axis": c_axis}
    out["a"] = {"body_centre": a_body, "equator": a_eq}
    c, a = 0.5 * (c_body + c_axis), 0.5 * (a_body + a_eq)
    out["c_over_a"] = c / a
    out["lattice_density"] = 2.0 / (a * a * c)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trajectory")
    ap.add_argument("--frame", type=int, default=-1)
    ap.add_argument("--json")
    a = ap.parse_args()
    try:
        pos, n, box = read_frame(a.trajectory, a.frame)
    except (OSError, KeyError, IndexError, ValueError) as e:
        print("janus_lattice: %s: not an H5MD trajectory with orientations (%s)" % (a.trajectory, e),
              file=sys.stderr)
        return 2
    out = lattice(pos, n, box)
    print("N = %d, %d in grains (no neighbour's axis beyond 25 degrees), density %.3f"
          % (out["N"], out["in_grains"], out["density"]))
    print("%-8s %7s %7s %12s" % ("shell", "z", "rho", "per particle"))
    for name in SHELLS:
        s = out[name]
        print("%-8s %7.3f %7.3f %12.2f" % (name, s["z"], s["rho"], s["per_particle"]))
    print("c = %.3f (body-centre shell) / %.3f (axial); a = %.3f (body-centre) / %.3f (equatorial)"
          % (out["c"]["body_centre"], out["c"]["axis"], out["a"]["body_centre"], out["a"]["equator"]))
    print("c/a = %.3f; a BCT lattice of these holds %.3f particles per unit volume"
          % (out["c_over_a"], out["lattice_density"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
        print("wrote", a.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
