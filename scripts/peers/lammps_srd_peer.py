#!/usr/bin/env python3
"""The suite's srd-fluid case against LAMMPS's SRD (`fix srd`, its SRD
package), a physics and speed peer on the CPU (issue 58).

    scripts/peers/lammps_srd_peer.py --mesobench build/default/bin/mesobench \\
        --filter 'srd-fluid/.*L=50$' --ours-viscosity ours-srd-90.json -o lammps-srd.json

LAMMPS's SRD is made for big (colloidal) particles in an SRD solvent; with no
big group (NULL) it runs a pure SRD fluid, streaming every step and rotating
every N = 1 steps with a random grid shift. It cannot run the suite's case as
defined: it rotates the velocities relative to the cell's mean by 90 degrees
about one of +-x, +-y, +-z (fix_srd.cpp, reset_velocities), where the case
rotates by `angle` (130) degrees about a random axis. The case is recorded
under "peer_failures" with that reason, and the closest fluid LAMMPS can run
is measured instead and labelled so (variant rotation=90-cartesian,
parameters angle = 90): the case's N, rho, kT, dt_c and grid shift, its
particles at random with Maxwell-Boltzmann velocities, no velocity rescaling
(`rescale no`: LAMMPS's default caps speeds at 4 mean free paths a step).

Physics before speed: the kinetic temperature within --temperature-tolerance
of kT, and the shear viscosity of the same 90-degree fluid by reverse
non-equilibrium MD (Mueller-Plathe, `fix viscosity 1 x z 16`: momentum
swapped every step between the slabs at z = 0 and L_z / 2 of a 12 x 12 x 16
cell box, two shear layers of width 8 as our reverse Poiseuille flow's
channels; the cell thermostat on, `tstat yes`, as ours), eta = |J| / shear
rate, J the momentum swapped per area and time, the shear rate the mean of
the two layers' fitted slopes (the swap slabs left out), its standard error
over --viscosity-blocks blocks of production. It is checked against ours at
90 degrees (--ours-viscosity: `mesobench validate --filter '^srd-viscosity$'
--param angle=90 --json F`; its gate compares with the 130-degree theory
and fails, which is expected: the measured eta and its SE are what is read),
within --viscosity-z combined standard errors plus --viscosity-floor of
ours (default 2%: the two rotation sets give the same collisional
viscosity, which depends on the rotation only through its mean, but not the
same kinetic part, 8% of eta at 90 degrees); Kikuchi et al.'s kinetic theory
at 90 degrees (a random axis) is recorded beside both. Without
--ours-viscosity the check is against that theory with the same bound.
"""
import argparse
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lammps_peer  # noqa: E402
import peer_common as pc  # noqa: E402

ROTATION = 90.0  # degrees: fix srd's only rotation, about one of +-x, +-y, +-z
SHEAR_BOX = (12, 12, 16)  # cells; the gradient along z, 16 slabs of one cell
SEED = 49894


def kinetic_theory_viscosity(n, kT, h, angle_deg, a=1.0, m=1.0):
    """Kikuchi et al. (2003) for SRD with a random grid shift (a random axis):
    (kinetic, collisional), as validation/srd-viscosity/README.md states it."""
    c = math.cos(math.radians(angle_deg))
    c2 = math.cos(math.radians(2 * angle_deg))
    occ = n - 1 + math.exp(-n)
    kinetic = n * kT * h / a ** 3 * (5 * n / (occ * (4 - 2 * c - 2 * c2)) - 0.5)
    collisional = m / (18 * a * h) * occ * (1 - c)
    return kinetic, collisional


def srd_commands(box, n, p, seed, thermostat):
    """LAMMPS input of a pure SRD fluid of n particles in box (cells of 1)."""
    kT, dt = float(p["kT"]), float(p["dt"])
    return ["units lj", "atom_style atomic", "atom_modify first empty", "boundary p p p",
            f"region box block 0 {box[0]} 0 {box[1]} 0 {box[2]}", "create_box 1 box",
            f"create_atoms 1 random {n} {seed} NULL", f"mass 1 {float(p.get('mass', 1.0))!r}",
            "group empty type 2",  # no big particles: fix srd's communication of an empty group
            f"velocity all create {kT!r} {seed + 1} dist gaussian mom yes",
            "neighbor 0.3 bin", "neigh_modify delay 0 every 1 check no", "comm_modify group empty",
            f"timestep {dt!r}",
            f"fix srd all srd 1 NULL {kT!r} 1.0 {seed + 2} shift yes {seed + 3} rescale no "
            f"tstat {'yes' if thermostat else 'no'} cubic error 0.001",
            "thermo_style custom step temp", "thermo 0"]


def closest_case(case):
    """The suite's case as LAMMPS can run it (rotation 90 degrees about a Cartesian axis)."""
    p = dict(case["parameters"], angle=ROTATION)
    name = case["name"].split("/")
    name[3] = "rotation=90-cartesian"
    return dict(case, parameters=p, name="/".join(name))


def refuse(case):
    """Why LAMMPS cannot run the case as defined, or None."""
    p = case["parameters"]
    if p.get("rule", "srd") != "srd" or p.get("walls", "none") != "none":
        return f"rule={p.get('rule')}, walls={p.get('walls')}: only the periodic srd rule has a peer here"
    if float(p.get("angle", 130)) != ROTATION:
        return (f"LAMMPS's fix srd rotates by 90 deg about one of +-x, +-y, +-z; the case rotates by "
                f"{float(p.get('angle', 130)):g} deg about a random axis, which it cannot set: the closest fluid "
                "(rotation=90-cartesian, the case's N, rho, kT, dt_c and grid shift) is measured instead")
    return None


def measure_speed(case, args, lammps):
    """The closest case's result entry (timing and its temperature check)."""
    p = case["parameters"]
    L = int(p["L"])
    n = int(case["N"])
    lmp = lammps.lammps(cmdargs=["-log", "none", "-screen", "none", "-nocite"])
    samples = []
    try:
        t0 = time.perf_counter()
        lines = srd_commands((L, L, L), n, p, int(p.get("seed", 12345)), int(p.get("thermostat", 0)))
        lmp.commands_list(lines)
        lmp.command("run 0 post no")
        setup = time.perf_counter() - t0

        def step(steps):
            lmp.command(f"run {steps} pre no post no")
            samples.append(lmp.get_thermo("temp"))

        steps, tps = pc.timed_repeats(pc.clock(step, lambda: None), args)
        temperature = sum(samples[-args.repeats:]) / args.repeats
        version = lmp.version()
    finally:
        lmp.close()
    kT = float(p["kT"])
    check = {"temperature": temperature, "kT": kT, "temperature_tolerance": args.temperature_tolerance}
    pc.check_temperature(temperature, kT, args.temperature_tolerance)
    differs = {"rotation": "90 deg about one of +-x, +-y, +-z (fix srd); the suite's srd-fluid: "
                           f"{float(case['parameters'].get('angle', 130)):g} deg about a random axis"}
    peer = {"version": str(version), "platform": "CPU, SRD 90 deg about x, y or z",  # the report's label says so
            "platform_properties": {"mpi_ranks": 1, "threads": 1, "note": "fix srd has no OpenMP style"},
            "settings": {"input": lines, "streaming": "every step", "rotation_every": 1}, "differs": differs,
            "check": check}
    return pc.entry(case, "lammps", "cpu", "engine=lammps,platform=CPU,rotation=90-cartesian", steps, tps, setup,
                    {"temperature": temperature}, peer)


def measure_viscosity(p, args, lammps):
    """eta of the 90-degree SRD fluid by Mueller-Plathe: {eta, se, blocks, ...}."""
    import numpy as np
    box = SHEAR_BOX
    n = int(round(float(p["rho"]) * box[0] * box[1] * box[2]))
    dt, nbin = float(p["dt"]), box[2]
    block = int(round(args.viscosity_time / args.viscosity_blocks / dt))
    lmp = lammps.lammps(cmdargs=["-log", "none", "-screen", "none", "-nocite"])
    try:
        lmp.commands_list(srd_commands(box, n, p, SEED, True) + [
            f"fix mp all viscosity 1 x z {nbin}",
            f"compute layers all chunk/atom bin/1d z lower {1.0 / nbin!r} units reduced",
            f"fix prof all ave/chunk 1 {block} {block} layers vx"])
        lmp.command(f"run {int(round(args.viscosity_equilibration / dt))}")  # the start-up, d^2/(pi^2 nu) = 12
        z = (np.arange(nbin) + 0.5) * box[2] / nbin
        lower, upper = slice(1, nbin // 2), slice(nbin // 2 + 1, nbin)  # the swap slabs left out
        etas, temps, rates = [], [], []
        for _ in range(args.viscosity_blocks):
            before = lmp.extract_fix("mp", 0, 0)
            lmp.command(f"run {block} pre no post no")
            moved = lmp.extract_fix("mp", 0, 0) - before
            vx = np.array([lmp.extract_fix("prof", 0, 2, i, 2) for i in range(nbin)])
            rate = 0.5 * (abs(np.polyfit(z[lower], vx[lower], 1)[0]) + abs(np.polyfit(z[upper], vx[upper], 1)[0]))
            flux = abs(moved) / (2 * box[0] * box[1] * block * dt)
            etas.append(flux / rate)
            rates.append(rate)
            temps.append(lmp.get_thermo("temp"))
    finally:
        lmp.close()
    etas = np.array(etas)
    return {"eta": float(etas.mean()), "se": float(etas.std(ddof=1) / math.sqrt(len(etas))),
            "blocks": [round(float(e), 4) for e in etas], "block_time": block * dt,
            "shear_rate": float(np.mean(rates)), "temperature": float(np.mean(temps)), "N": n, "box": list(box),
            "method": f"Mueller-Plathe (fix viscosity 1 x z {nbin}), {args.viscosity_equilibration:g} time units "
                      f"of start-up, eta = |J| / shear rate per block, SE over {len(etas)} blocks"}


def check_viscosity(lmp_eta, ours, theory, args):
    """The record of LAMMPS's eta against ours (or the theory): raises PhysicsMismatch past the bound."""
    if ours is not None:
        ref, ref_se, source = ours["eta"], ours["se"], f"ours at 90 deg ({ours['source']})"
    else:
        ref, ref_se, source = theory, 0.0, "Kikuchi et al.'s theory at 90 deg (no --ours-viscosity)"
    bound = args.viscosity_z * math.hypot(lmp_eta["se"], ref_se) + args.viscosity_floor * ref
    record = {"lammps": lmp_eta, "reference": ref, "reference_se": ref_se, "reference_source": source,
              "theory_90deg_random_axis": theory, "bound": bound,
              "bound_rule": f"{args.viscosity_z:g} combined SE + {args.viscosity_floor:g} of the reference",
              "pass": abs(lmp_eta["eta"] - ref) <= bound}
    if not record["pass"]:
        e = pc.PhysicsMismatch(f"viscosity {lmp_eta['eta']:.4g} +- {lmp_eta['se']:.2g} against {ref:.4g} "
                               f"({source}): off by more than {bound:.3g}, so its speed is not quoted")
        e.check = {"viscosity": record}
        raise e
    return record


def read_ours(path):
    """{eta, se, source} of a `mesobench validate srd-viscosity --param angle=90` JSON."""
    with open(path) as f:
        doc = json.load(f)
    data = doc["cases"][0]["data"]
    if float(data["angle_deg"]) != ROTATION:
        raise ValueError(f"{path} ran angle {data['angle_deg']:g}, not {ROTATION:g}")
    return {"eta": float(data["eta"]), "se": float(data["se"]),
            "source": f"{os.path.basename(path)}: {doc['backend']}, {data['N']} particles, "
                      f"{data['production_time']:g} time units"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mesobench", required=True, help="the mesobench binary whose case definitions run")
    ap.add_argument("--filter", required=True, help="the suite's srd-fluid cases (RE2, as `mesobench run`)")
    ap.add_argument("--param", action="append", default=[], help="key=value, as `mesobench run --param`")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--min-time", type=float, default=0.5, help="seconds per timed repeat, at least")
    ap.add_argument("--warmup-time", type=float, default=0.3)
    ap.add_argument("--equilibrate-steps", type=int, default=20, help="untimed steps first (default 20)")
    ap.add_argument("--max-equilibrate-seconds", type=float, default=0)
    ap.add_argument("--temperature-tolerance", type=float, default=0.10)
    ap.add_argument("--ours-viscosity", help="mesobench validate srd-viscosity --param angle=90 --json FILE")
    ap.add_argument("--viscosity-time", type=float, default=800.0, help="production time units (default 800)")
    ap.add_argument("--viscosity-blocks", type=int, default=16, help="blocks of production (default 16)")
    ap.add_argument("--viscosity-equilibration", type=float, default=50.0, help="time units first (default 50)")
    ap.add_argument("--viscosity-z", type=float, default=3.0, help="combined SE in the bound (default 3)")
    ap.add_argument("--viscosity-floor", type=float, default=0.02,
                    help="and this fraction of the reference, added (default 0.02)")
    ap.add_argument("-o", "--output", required=True, help="the result file to write (JSON)")
    args = ap.parse_args()
    if pc.refuse_existing(args.output, "lammps_srd_peer"):
        return 2
    try:
        ours = read_ours(args.ours_viscosity) if args.ours_viscosity else None
    except (OSError, ValueError, KeyError, IndexError) as e:
        print(f"lammps_srd_peer: cannot read --ours-viscosity: {e}", file=sys.stderr)
        return 2
    loaded = lammps_peer.load_lammps("lammps_srd_peer", [("fix", "srd")])  # fix srd: its SRD package
    if isinstance(loaded, int):
        return loaded
    lammps, version = loaded
    suite = pc.suite_cases(args.mesobench, args.filter, args.param, "lammps_srd_peer")
    prov = pc.provenance(suite, f"LAMMPS {version}", "peer: lammps", False)
    results, failures = [], []
    for case in suite["results"]:
        why = refuse(case)
        if why:
            failures.append({"suite_case": case["name"], "reason": why})
            print(f"{case['name']}: not run in LAMMPS as defined: {why}", file=sys.stderr)
            if "closest fluid" not in why:
                continue
        near = closest_case(case)
        try:
            p = near["parameters"]
            kinetic, collisional = kinetic_theory_viscosity(float(p["rho"]), float(p["kT"]), float(p["dt"]),
                                                             ROTATION)
            pc.log(f"LAMMPS srd viscosity: {args.viscosity_time:g} time units in a {SHEAR_BOX} cell box")
            viscosity = check_viscosity(measure_viscosity(p, args, lammps), ours, kinetic + collisional, args)
            pc.log(f"LAMMPS srd viscosity {viscosity['lammps']['eta']:.4g} +- {viscosity['lammps']['se']:.2g} "
                   f"against {viscosity['reference']:.4g}: within {viscosity['bound']:.3g}")
            r = measure_speed(near, args, lammps)
            r["peer"]["check"]["viscosity"] = viscosity
            results.append(r)
            print(f"{r['name']}: {r['tps_median']:.4g} TPS (median of {r['repeats']}), T = "
                  f"{r['final_thermo']['temperature']:.3f}")
        except Exception as e:  # noqa: BLE001 - whatever LAMMPS raised is the record
            failures.append({"suite_case": near["name"], "reason": f"{type(e).__name__}: {e}"})
            if getattr(e, "check", None):
                failures[-1]["check"] = e.check
            print(f"{near['name']}: not run in LAMMPS: {failures[-1]['reason']}", file=sys.stderr)
    return pc.write_result(args.output, prov, results, failures)


if __name__ == "__main__":
    sys.exit(main())
