#!/usr/bin/env python3
"""A mesobench H5MD trajectory as files that OVITO and VMD open with their
built-in readers (docs/io.md, "Viewing a trajectory"):

    scripts/h5md_to_lammps.py TRAJ.h5md OUT.lammpstrj [--data OUT.data --chain-length N]

OUT.lammpstrj: a LAMMPS text dump, one frame per H5MD frame, with
`id type x y z ix iy iz` (wrapped positions and image counters; OVITO's
"Unwrap trajectories" modifier and VMD's `pbc unwrap` use them) and the
box. Types are 1-based (H5MD species + 1).
--data OUT.data: the first frame as a LAMMPS data file (atom style bond),
with bonds between consecutive particles of each chain when --chain-length
N is given (chains are runs of N consecutive tags from tag 0, as polymer-srd
and dpd-vesicle build them): OVITO then draws the chains' bonds.
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trajectory")
    ap.add_argument("dump")
    ap.add_argument("--data")
    ap.add_argument("--chain-length", type=int, default=0)
    ap.add_argument("--chains", type=int, default=0, help="chains (default: as many as fit in N particles)")
    a = ap.parse_args()
    try:
        import h5py
        import numpy as np
    except ImportError as e:
        sys.exit(f"h5md_to_lammps.py: {e} (scripts/install-deps.sh installs h5py and numpy)")
    try:
        f = h5py.File(a.trajectory, "r")
    except OSError as e:
        sys.exit(f"h5md_to_lammps.py: cannot open {a.trajectory} as HDF5: {e}")
    with f:
        if "particles" not in f or len(f["particles"]) != 1:
            sys.exit(f"h5md_to_lammps.py: {a.trajectory} has no single H5MD particles group")
        g = f["particles"][next(iter(f["particles"]))]
        pos = g["position/value"]
        steps = g["position/step"][()]
        img = g["image/value"] if "image" in g else None
        species = g["species/value"] if "species" in g else None
        edges = g["box/edges/value"][()] if "value" in g["box/edges"] else np.repeat([g["box/edges"][()]], len(pos), 0)
        origin = f["parameters/mesobench"].attrs.get("box_origin") if "parameters/mesobench" in f else None
        frames, n = pos.shape[0], pos.shape[1]
        if a.chain_length < 0 or a.chain_length == 1:
            sys.exit(f"h5md_to_lammps.py: --chain-length {a.chain_length} (0: no bonds, or at least 2)")
        chains = a.chains or (n // a.chain_length if a.chain_length else 0)
        if chains * a.chain_length > n:
            sys.exit(f"h5md_to_lammps.py: {chains} chains of {a.chain_length} exceed the {n} particles")
        with open(a.dump, "w") as out:
            for k in range(frames):
                L = edges[k]
                lo = np.asarray(origin, float) if origin is not None else -0.5 * L
                x = pos[k]
                t = (species[k] if species is not None else np.zeros(n, int)) + 1
                im = img[k] if img is not None else np.zeros((n, 3), int)
                out.write(f"ITEM: TIMESTEP\n{int(np.atleast_1d(steps)[k])}\nITEM: NUMBER OF ATOMS\n{n}\n")
                out.write("ITEM: BOX BOUNDS pp pp pp\n")
                for d in range(3):
                    out.write(f"{lo[d]:.10g} {lo[d] + L[d]:.10g}\n")
                out.write("ITEM: ATOMS id type x y z ix iy iz\n")
                rows = np.column_stack([np.arange(1, n + 1), t, x, im])
                np.savetxt(out, rows, fmt=["%d", "%d", "%.8g", "%.8g", "%.8g", "%d", "%d", "%d"])
        if a.data:
            L = edges[0]
            lo = np.asarray(origin, float) if origin is not None else -0.5 * L
            t = (species[0] if species is not None else np.zeros(n, int)) + 1
            im = img[0] if img is not None else np.zeros((n, 3), int)
            bonds = [(c * a.chain_length + k, c * a.chain_length + k + 1)
                     for c in range(chains) for k in range(a.chain_length - 1)]
            with open(a.data, "w") as out:
                out.write(f"mesobench {a.trajectory}, frame 0\n\n{n} atoms\n{len(bonds)} bonds\n")
                out.write(f"{int(t.max())} atom types\n{1 if bonds else 0} bond types\n\n")
                for d, ax in enumerate("xyz"):
                    out.write(f"{lo[d]:.10g} {lo[d] + L[d]:.10g} {ax}lo {ax}hi\n")
                out.write("\nMasses\n\n" + "".join(f"{i} 1\n" for i in range(1, int(t.max()) + 1)))
                out.write("\nAtoms # bond\n\n")
                for i in range(n):
                    mol = i // a.chain_length + 1 if a.chain_length and i < chains * a.chain_length else 0
                    p = pos[0][i]
                    out.write(f"{i + 1} {mol} {t[i]} {p[0]:.8g} {p[1]:.8g} {p[2]:.8g} {im[i][0]} {im[i][1]} {im[i][2]}\n")
                if bonds:
                    out.write("\nBonds\n\n" + "".join(f"{j + 1} 1 {b[0] + 1} {b[1] + 1}\n" for j, b in enumerate(bonds)))
    print(f"wrote {a.dump} ({frames} frames, {n} particles)" + (f" and {a.data}" if a.data else ""))


if __name__ == "__main__":
    main()
