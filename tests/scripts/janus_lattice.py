#!/usr/bin/env python3
"""scripts/janus_lattice.py reads c and a of a body-centred tetragonal lattice
in each particle's frame: two grains of different directors, positions
jittered by 0.03 and axes by about 3 degrees (half of them flipped), give back
c and a within 2% for c/a = 1.83 (the short form's grain) and 1.2, and a
grain whose axes point every way is left out. Skips (77) without NumPy or SciPy.
Usage: tests/scripts/janus_lattice.py [repository root]"""
import os
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
try:
    import numpy as np
    import scipy  # noqa: F401 (the script's k-d tree)
except ImportError:
    print("janus_lattice: skipped, no NumPy or SciPy")
    sys.exit(77)
import janus_lattice  # noqa: E402

rng = np.random.default_rng(5)


def grain(a, c, cells, centre, axis, random_axes=False):
    g = np.array([[x, y, z] for x in range(cells) for y in range(cells) for z in range(cells)], float)
    p = np.concatenate([g * [a, a, c], (g + 0.5) * [a, a, c]])
    p -= p.mean(axis=0)
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    # The rotation taking z to `axis` (Rodrigues).
    v = np.cross([0.0, 0.0, 1.0], axis)
    k = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    r = np.eye(3) + k + k @ k / (1.0 + axis[2])
    p = p @ r.T + centre + rng.normal(0.0, 0.03, p.shape)
    n = rng.normal(0.0, 1.0, p.shape) if random_axes else np.tile(axis, (len(p), 1)) + rng.normal(0.0, 0.05, p.shape)
    n /= np.linalg.norm(n, axis=1)[:, None]
    return p, n * rng.choice([-1.0, 1.0], len(p))[:, None]


failures = []
box = np.array([90.0, 90.0, 90.0])
for a, c in ((0.72, 1.32), (0.8, 0.96)):
    parts = [grain(a, c, 8, [20.0, 20.0, 20.0], [0.0, 0.0, 1.0]), grain(a, c, 8, [50.0, 50.0, 50.0], [1.0, 2.0, 0.5]),
             grain(a, c, 6, [75.0, 20.0, 70.0], [0.0, 1.0, 0.0], random_axes=True)]
    out = janus_lattice.lattice(np.concatenate([x[0] for x in parts]), np.concatenate([x[1] for x in parts]), box)
    got = {"c (body-centre)": (out["c"]["body_centre"], c), "c (axis)": (out["c"]["axis"], c),
           "a (body-centre)": (out["a"]["body_centre"], a), "a (equator)": (out["a"]["equator"], a),
           "c/a": (out["c_over_a"], c / a)}
    for what, (x, want) in got.items():
        if not abs(x / want - 1.0) <= 0.02:
            failures.append("c/a %.2f: %s %.4f, want %.4f within 2%%" % (c / a, what, x, want))
    # The third grain's axes point every way: none of its 432 particles is in a grain.
    if out["in_grains"] > 2 * 1024:
        failures.append("c/a %.2f: %d particles in grains, want at most 2048" % (c / a, out["in_grains"]))
    print("c/a %.3f: c %.4f / %.4f, a %.4f / %.4f, c/a %.4f, %d of %d in grains"
          % (c / a, out["c"]["body_centre"], out["c"]["axis"], out["a"]["body_centre"], out["a"]["equator"],
             out["c_over_a"], out["in_grains"], out["N"]))
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
