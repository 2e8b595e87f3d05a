#!/usr/bin/env python3
"""Pictures of the janus-assembly gate: the structure's measures against time
for each seed, and the last frame of a triblock Janus trajectory with its
diffraction peaks.

    scripts/plot_janus_assembly.py --gate janus-assembly.json \\
        [--trajectory run.h5] -o out-prefix
    scripts/plot_janus_assembly.py --dt-runs RUN.json ... -o out-prefix

--gate: `mesobench validate --filter janus-assembly --json`; --trajectory:
an H5MD file of `mesobench run --filter janus-triblock ... --trajectory`.
Writes PREFIX-series.png, and with a trajectory PREFIX-snapshot.png and
PREFIX-peaks.txt: the strongest Bragg peaks S(k)/N of the last frame (a
density grid's FFT) with the angle of k to the director, which tells the
phase: peaks across the director only (|cos| ~ 0) are columns, peaks along
it (|cos| ~ 1) layers, peaks at an intermediate angle a three-dimensional
lattice along the director (body-centred tetragonal: the {101} family).
--dt-runs: the time-step experiment's runs (one seed each, README "The second
experiment"): PREFIX-dt.png, the local order and the bulk temperature against
time, a colour a step and a line style a seed, with the gate's 0.7.
"""
import argparse
import json
import sys

from result_files import open_json


def series(gate, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    case = gate["cases"][0]
    data = case["data"]
    fig, ax = plt.subplots(1, 3, figsize=(13, 3.8))
    for run in data["runs"]:
        s = run["samples"]
        t = [x["time"] for x in s]
        label = "seed %d" % run["seed"]
        # Gates of the first long form have no local order (README).
        line, = ax[0].plot(t, [x.get("local_order", float("nan")) for x in s], label=label + " local")
        ax[0].plot(t, [x["order"] for x in s], ls=":", c=line.get_color(), label=label + " S")
        ax[1].plot(t, [x["facing"] for x in s], label=label)
        ax[2].plot(t, [x["bonds"] for x in s], label=label)
    gate_q = data.get("min_local_order", 0.8)  # 0.7 in the long form at the converged step
    ax[0].axhline(gate_q, ls="--", c="k", lw=0.8, label="gate %g" % gate_q)
    ax[1].axhline(0.5, ls="--", c="k", lw=0.8, label="gate 0.5")
    ax[1].axhline(data["facing_chance"], ls=":", c="gray", lw=0.8, label="chance")
    ax[0].set_ylabel("order of the patch axes: local P2, global S")
    ax[1].set_ylabel("fraction of neighbour pairs facing")
    ax[2].set_ylabel("patch bonds per particle (f^nu > 1/2)")
    for a in ax:
        a.set_xlabel("t")
        a.legend(fontsize=7)
    fig.suptitle("janus-assembly, %s form: N = %d, a^R = %g, a^A = %g, theta_m = %g deg, kT = %g"
                 % (data["form"], data["N"], data["a_rep"], data["a_att"], data["theta_m_deg"], data["kT"]),
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print("wrote", out)


def dt_runs(paths, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    runs = []
    for p in paths:
        with open_json(p) as f:
            data = json.load(f)["cases"][0]["data"]
        runs += [(data["dt"], r["seed"], r["samples"]) for r in data["runs"]]
    steps = sorted({dt for dt, _, _ in runs}, reverse=True)
    seeds = sorted({seed for _, seed, _ in runs})
    styles = ["-", "--", ":", "-."]
    fig, ax = plt.subplots(1, 2, figsize=(11, 3.8))
    for dt, seed, s in sorted(runs):
        c = "C%d" % steps.index(dt)
        ls = styles[seeds.index(seed) % len(styles)]
        t = [x["time"] for x in s]
        ax[0].plot(t, [x["local_order"] for x in s], c=c, ls=ls, label="dt %g, seed %d" % (dt, seed))
        ax[1].plot(t[1:], [x["bulk_temperature"] for x in s][1:], c=c, ls=ls)
    ax[0].axhline(0.7, ls="--", c="k", lw=0.8, label="0.7 (t70; the long form's gate)")
    ax[1].axhspan(0.97, 1.03, color="gray", alpha=0.15, label="kT +- 3%")
    ax[0].set_ylabel("local order of the patch axes")
    ax[1].set_ylabel("bulk temperature / kT (slower than 6 sqrt(kT/m))")
    for a in ax:
        a.set_xlabel("t")
        a.legend(fontsize=7)
    fig.suptitle("janus-assembly at two time steps, Langevin, kT = 1, %d seeds a step" % len(seeds), fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    print("wrote", out)


def axes_of(q):
    import numpy as np
    s, x, y, z = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    return np.stack([2 * (x * z + s * y), 2 * (y * z - s * x), 1 - 2 * (x * x + y * y)], axis=1)


def peaks(pos, n, box, grid=96, count=8):
    import numpy as np
    q = 1.5 * np.einsum("ia,ib->ab", n, n) / len(n) - 0.5 * np.eye(3)
    w, v = np.linalg.eigh(q)
    director = v[:, -1]
    frac = (pos / box) % 1.0
    idx = np.minimum((frac * grid).astype(int), grid - 1)
    rho = np.zeros((grid, grid, grid))
    np.add.at(rho, (idx[:, 0], idx[:, 1], idx[:, 2]), 1.0)
    sk = np.abs(np.fft.rfftn(rho)) ** 2 / len(pos)
    sk[0, 0, 0] = 0.0
    m = np.fft.fftfreq(grid, 1.0 / grid)
    mz = np.arange(sk.shape[2])
    kx, ky, kz = np.meshgrid(2 * np.pi * m / box[0], 2 * np.pi * m / box[1], 2 * np.pi * mz / box[2], indexing="ij")
    kmag = np.sqrt(kx ** 2 + ky ** 2 + kz ** 2)
    sk[kmag > 0.5 * 2 * np.pi * grid / max(box)] = 0.0  # beyond half the grid's Nyquist: aliasing
    out = []
    for flat in np.argsort(sk, axis=None)[::-1][:count]:
        i = np.unravel_index(flat, sk.shape)
        k = np.array([kx[i], ky[i], kz[i]])
        out.append({"S_over_N": float(sk[i]), "k": [float(c) for c in k], "k_abs": float(kmag[i]),
                    "cos_to_director": float(abs(k @ director) / kmag[i])})
    return float(w[-1]), [float(c) for c in director], out


def phase(top):
    """The phase the strong peaks (S(k)/N at least a third of the strongest) tell."""
    strong = [p["cos_to_director"] for p in top if p["S_over_N"] >= top[0]["S_over_N"] / 3]
    along = any(c > 0.9 for c in strong)
    across = any(c < 0.2 for c in strong)
    oblique = any(0.2 <= c <= 0.9 for c in strong)
    if oblique or (along and across):
        return "a 3-d lattice along the director (body-centred tetragonal: (002) along, {101} oblique)"
    if across:
        return "columns (peaks across the director only)"
    if along:
        return "layers (peaks along the director only)"
    return "no strong peak"


def snapshot(path, out_png, out_txt):
    import h5py
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    with h5py.File(path, "r") as f:
        g = f["particles/trajectory"]
        pos = g["position/value"][-1]
        q = g["orientation/value"][-1]
        box = np.array(g["box/edges/value"][-1])
        step = int(g["position/step"][-1]) if "step" in g["position"] else -1
    n = axes_of(q)
    order, director, top = peaks(pos, n, box)
    kind = phase(top)
    with open(out_txt, "w") as f:
        f.write("frame step %d, N = %d, S = %.4f, director (%.4f, %.4f, %.4f)\n"
                % ((step, len(pos), order) + tuple(director)))
        f.write("phase: %s\n" % kind)
        f.write("%10s %26s %8s %16s\n" % ("S(k)/N", "k", "|k|", "|cos(k, dir)|"))
        for p in top:
            f.write("%10.2f %26s %8.3f %16.3f\n" % (p["S_over_N"], "(%.3f, %.3f, %.3f)" % tuple(p["k"]), p["k_abs"],
                                                  p["cos_to_director"]))
    print("wrote", out_txt)
    # A slab of thickness 2 through the box's middle, seen across it: the
    # view axis is the box axis most nearly perpendicular to the director.
    view = int(np.argmin(np.abs(director)))
    keep = np.abs(((pos[:, view] / box[view]) % 1.0) * box[view] - 0.5 * box[view]) < 1.0
    a, b = [k for k in range(3) if k != view]
    fig, ax = plt.subplots(figsize=(6.5, 6))
    p, nn = (pos[keep] / box) % 1.0 * box, n[keep]
    colour = np.abs(nn @ np.array(director))
    ax.quiver(p[:, a], p[:, b], nn[:, a], nn[:, b], colour, cmap="viridis", pivot="middle", scale=40,
              headwidth=1, headlength=0, headaxislength=0, width=0.004, clim=(0, 1))
    ax.set_aspect("equal")
    ax.set_xlabel("xyz"[a])
    ax.set_ylabel("xyz"[b])
    ax.set_title("patch axes in a slab |%s - L/2| < 1 (colour |n . director|), S = %.2f;\nstrongest peak "
                 "S(k)/N = %.0f at %.0f deg to the director;\n%s"
                 % ("xyz"[view], order, top[0]["S_over_N"],
                    np.degrees(np.arccos(min(1.0, top[0]["cos_to_director"]))), kind), fontsize=8)
    fig.tight_layout()
    fig.savefig(out_png, dpi=120)
    print("wrote", out_png)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--gate")
    mode.add_argument("--dt-runs", nargs="+")
    ap.add_argument("--trajectory")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args()
    if a.dt_runs:
        dt_runs(a.dt_runs, a.out + "-dt.png")
        return 0
    with open_json(a.gate) as f:
        series(json.load(f), a.out + "-series.png")
    if a.trajectory:
        snapshot(a.trajectory, a.out + "-snapshot.png", a.out + "-peaks.txt")


if __name__ == "__main__":
    sys.exit(main())
