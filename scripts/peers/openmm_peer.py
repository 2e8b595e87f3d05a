#!/usr/bin/env python3
"""The suite's dpd-fluid and lj-liquid cases run in OpenMM, a peer engine,
written as a mesobench benchmark result (docs/results.md) with the engine,
its version, its platform and every setting recorded (issue 58).

    scripts/peers/openmm_peer.py --mesobench build/default/bin/mesobench \\
        --filter 'dpd-fluid/.*/rho=3/rc=1/s=0.5/N=262144$|lj-liquid/.*N=64000$' \\
        --platform CUDA -o openmm-h200.json

The cases come from the suite's own definitions: `mesobench run` runs each
selected case once on the CPU reference (--param applies as there) and its
JSON gives N, the box and every parameter; this script builds the same
system in OpenMM from them. Reduced units map to OpenMM's as r_c (or sigma)
= 1 nm, m = 1 amu, kT (or epsilon) = 1 kJ/mol, so tau = 1 ps.

- dpd-fluid: the conservative force a (1 - r/r_c) as a CustomNonbondedForce,
  the dissipative and random forces by OpenMM's DPDIntegrator (gamma as its
  friction in 1/ps). OpenMM's weight is w_R = 1 - r/r_c (s = 1): the suite's
  s = 0.5 is not available, and the file says so ("differs").
- lj-liquid: 4 eps ((sigma/r)^12 - (sigma/r)^6) cut at r_c by OpenMM's own
  NonbondedForce (uncharged), the shift's energy (mode=shift) by a zero-force
  term read with the energy only; NVT by OpenMM's NoseHooverIntegrator with
  one thermostat (collision frequency 1/tau).

Each case: --equilibrate-steps untimed steps (the start, random for DPD and
a lattice for LJ, is far from the thermostat's temperature; --start lattice
starts DPD on the lattice too), a warm-up of --warmup-time seconds in all,
then --repeats timed runs of at least --min-time seconds each (steps per
second, the state read back at the end of each, which waits for the device).
The physics is checked before the speed is quoted: the mean kinetic
temperature over the timed runs against the case's kT (within
--temperature-tolerance, default 10%), the mean potential energy per
particle against mesobench's own final state for the same case (--reference:
a `mesobench run --json` of it; within --potential-tolerance 2% plus
--potential-floor 0.02), and the final frame's g(r) against mesobench's
final frame (--reference-frame: its H5MD trajectory of the case; every bin
of 0.5..2.5 within --rdf-z = 5 combined standard errors, rdf.py); without a
reference each is recorded, not checked; OpenMM reports no pressure. A case
that fails a check, crashes, or cannot be built is listed under
"peer_failures" with the reason, and its speed is not reported. Progress
lines with the time go to stderr as each phase begins and ends, and
--max-equilibrate-seconds gives up a case whose untimed steps run too
slowly, with the rate as its reason. No phase (context, untimed steps,
warm-up, timed repeats, checks) may outlast its planned time by
--phase-seconds: a watchdog (phase_watch.py) then prints the phase, its step
count and every thread's stack, records that in "peer_failures" and ends the
process (exit 3); while a phase runs, the file names it as where the case
stopped, so that a crash or a kill leaves that record.
"""
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common as pc  # noqa: E402
import phase_watch  # noqa: E402

BOLTZ = 0.0083144626181532  # kJ/mol/K: kT = 1 kJ/mol is this many kelvin's inverse


def build(case, openmm, unit):
    """(system, integrator, positions, settings, differences) of one case."""
    p, n = case["parameters"], int(case["N"])
    box = p["box"]
    system = openmm.System()
    system.setDefaultPeriodicBoxVectors(openmm.Vec3(box[0], 0, 0), openmm.Vec3(0, box[1], 0),
                                        openmm.Vec3(0, 0, box[2]))
    mass = float(p.get("mass", 1.0))
    for _ in range(n):
        system.addParticle(mass)
    kT = float(p["kT"])
    temperature = kT / BOLTZ
    differs = {}
    if case["workload"] == "dpd-fluid":
        a, rc, gamma, s = float(p["a"]), float(p["rc"]), float(p["gamma"]), float(p["s"])
        force = openmm.CustomNonbondedForce("0.5*a*rc*(1-r/rc)^2")
        force.addGlobalParameter("a", a)
        force.addGlobalParameter("rc", rc)
        integrator = openmm.DPDIntegrator(temperature, gamma, rc, float(p["dt"]))
        settings = {"conservative": "CustomNonbondedForce 0.5*a*rc*(1-r/rc)^2", "a": a, "rc": rc,
                    "integrator": "DPDIntegrator", "friction_per_ps": gamma, "temperature_K": temperature,
                    "dt_ps": float(p["dt"])}
        if s != 1.0:
            differs["s"] = f"OpenMM's DPDIntegrator weighs w_R = 1 - r/r_c (s = 1); the suite's case has s = {s:g}"
        if p.get("integrator", "vv") != "vv":
            differs["integrator"] = f"the suite's case integrates with {p['integrator']}"
        force.setNonbondedMethod(openmm.CustomNonbondedForce.CutoffPeriodic)
        force.setCutoffDistance(rc)
        for _ in range(n):
            force.addParticle([])
        system.addForce(force)
    elif case["workload"] == "lj-liquid":
        if p.get("mode", "shift") not in ("shift", "none"):
            raise ValueError(f"mode={p['mode']}: only shift and none are built here")
        rc, eps, sig = float(p["rc"]), float(p.get("epsilon", 1.0)), float(p.get("sigma", 1.0))
        shift = 4 * eps * ((sig / rc) ** 12 - (sig / rc) ** 6) if p.get("mode", "shift") == "shift" else 0.0
        if p.get("integrator", "nvt") != "nvt":
            raise ValueError(f"integrator={p['integrator']}: only nvt (Nose-Hoover) is built here")
        # The forces by OpenMM's own LJ (NonbondedForce, uncharged: what its users run; the
        # custom expression ran 4x slower on its CPU platform); a shift changes no force, so
        # its energy, -shift per pair within r_c, is a zero-force term in force group 1,
        # evaluated only when the energy is read, never integrated.
        force = openmm.NonbondedForce()
        force.setNonbondedMethod(openmm.NonbondedForce.CutoffPeriodic)
        force.setCutoffDistance(rc)
        force.setUseSwitchingFunction(False)
        force.setUseDispersionCorrection(False)
        for _ in range(n):
            force.addParticle(0.0, sig, eps)
        system.addForce(force)
        if shift:
            offset = openmm.CustomNonbondedForce("-shift")
            offset.addGlobalParameter("shift", shift)
            offset.setNonbondedMethod(openmm.CustomNonbondedForce.CutoffPeriodic)
            offset.setCutoffDistance(rc)
            offset.setForceGroup(1)
            for _ in range(n):
                offset.addParticle([])
            system.addForce(offset)
        tau = float(p.get("tau", 0.5))
        integrator = openmm.NoseHooverIntegrator(float(p.get("thermostat_kT", kT)) / BOLTZ, 1.0 / tau, float(p["dt"]),
                                                 1)
        integrator.setIntegrationForceGroups({0})
        settings = {"pair": "NonbondedForce (LJ, no charges, no switch, no dispersion correction), cut at rc; "
                            "the shift's energy by CustomNonbondedForce -shift in force group 1, not integrated",
                    "rc": rc, "shift": shift, "integrator": "NoseHooverIntegrator, chain length 1",
                    "collision_frequency_per_ps": 1.0 / tau, "temperature_K": temperature, "dt_ps": float(p["dt"])}
    else:
        raise ValueError(f"no OpenMM system is built for {case['workload']}")
    settings["neighbor_list"] = "OpenMM's own (its skin and rebuilds are not set or reported)"
    if p.get("skin") is not None:
        differs["skin"] = f"the suite's list skin {p['skin']:g} has no OpenMM setting"
    return system, integrator, settings, differs, temperature


def start(case, lattice):
    """The first positions: the LJ liquid's on a lattice (no overlaps), the DPD
    fluid's at random as the suite's, or on the lattice too (--start lattice)."""
    n, box = int(case["N"]), case["parameters"]["box"]
    if lattice or case["workload"] == "lj-liquid":
        return pc.lattice(n, box), "simple cubic lattice"
    rng = random.Random(int(case["parameters"].get("seed", 12345)))
    return [(rng.random() * box[0], rng.random() * box[1], rng.random() * box[2]) for _ in range(n)], "random"


def measure(case, args, openmm, unit, references, watch):
    """The result entry of one case (or raises with the reason it failed)."""
    watch = watch or phase_watch.Unwatched()
    system, integrator, settings, differs, temperature = build(case, openmm, unit)
    n, box = int(case["N"]), case["parameters"]["box"]
    positions, settings["start"] = start(case, args.start == "lattice")
    plat = openmm.Platform.getPlatformByName(args.platform)
    props = {"Precision": args.precision} if args.platform in ("CUDA", "OpenCL", "HIP") else {}
    if args.platform == "CPU" and args.cpu_threads:
        props["Threads"] = str(args.cpu_threads)
    t0 = time.perf_counter()
    pc.log(f"OpenMM {case['workload']} N={n}: creating the {args.platform} context")
    with watch.phase("context", 0):
        context = openmm.Context(system, integrator, plat, props)
        context.setPositions(positions)
        context.setVelocitiesToTemperature(temperature, int(case["parameters"].get("seed", 12345)))
        context.getState(getEnergy=True)
    setup = time.perf_counter() - t0
    pc.log(f"OpenMM {case['workload']} N={n}: context ready in {setup:.1f} s")
    samples = []
    kj = unit.kilojoule_per_mole

    def wait():  # the state read back waits for the device
        state = context.getState(getEnergy=True)
        samples.append((state.getKineticEnergy().value_in_unit(kj), state.getPotentialEnergy().value_in_unit(kj)))

    steps, tps = pc.timed_repeats(pc.clock(integrator.step, wait), args, watch)
    with watch.phase("checks", 0):
        timed = samples[-args.repeats:]  # after the equilibration and the warm-up
        t_reduced = 2.0 * sum(k for k, _ in timed) / len(timed) / (3 * n - 3)  # in units of kT = 1 kJ/mol
        energy = sum(u for _, u in timed) / len(timed) / n
        kT = float(case["parameters"]["kT"])
        check = {"temperature": t_reduced, "kT": kT, "temperature_tolerance": args.temperature_tolerance,
                 "pressure": "not checked: OpenMM reports no pressure (virial)"}
        pc.check_temperature(t_reduced, kT, args.temperature_tolerance)
        cases, frames = references
        pc.check_against_ours(case, cases, {"potential_energy_per_particle": energy}, args, check)
        final = context.getState(getPositions=True, enforcePeriodicBox=True)
        pc.check_structure(case, frames, final.getPositions(asNumpy=True).value_in_unit(unit.nanometer), box, args,
                           check, "openmm")
        variant = f"engine=openmm,platform={args.platform}"
        variant += f",precision={args.precision}" if "Precision" in props else ""
        peer = {"version": openmm.version.full_version, "platform": args.platform,
                "platform_properties": {k: plat.getPropertyValue(context, k) for k in plat.getPropertyNames()},
                "settings": settings, "differs": differs, "check": check}
        return pc.entry(case, "openmm", "cuda" if args.platform == "CUDA" else "cpu", variant, steps, tps, setup,
                        {"temperature": t_reduced, "potential_energy_per_particle": energy}, peer)


def main():
    ap = pc.common_arguments(__doc__, "CPU platform threads (default: OpenMM's, all cores)")
    ap.add_argument("--platform", default="CPU", help="OpenMM platform: CPU, CUDA, OpenCL, Reference")
    ap.add_argument("--precision", default="mixed", help="CUDA/OpenCL precision (default mixed)")
    ap.add_argument("--phase-seconds", type=float, default=60,
                    help="a phase (context, untimed steps, warm-up, timed repeats, checks) that outlasts its planned "
                         "time by this much is stopped with every thread's stack and recorded (default 60; 0: never); "
                         "the untimed steps are planned to take --max-equilibrate-seconds")
    ap.add_argument("--start", choices=("case", "lattice"), default="case",
                    help="first positions: the case's (DPD at random, LJ on a lattice; default) or a lattice for both")
    args = ap.parse_args()
    if pc.refuse_existing(args.output, "openmm_peer"):
        return 2
    references = pc.load_references(args, "openmm_peer")
    if references is None:
        return 2
    try:
        import openmm
        from openmm import unit
    except ImportError as e:
        print(f"openmm_peer: cannot import openmm ({e}): pip install openmm (openmm-cuda-13 for CUDA)",
              file=sys.stderr)
        return 77
    platforms = [openmm.Platform.getPlatform(i).getName() for i in range(openmm.Platform.getNumPlatforms())]
    if args.platform not in platforms:
        failures = "; ".join(openmm.Platform.getPluginLoadFailures()) or "none reported"
        print(f"openmm_peer: OpenMM has no platform {args.platform!r} (plugin load failures: {failures})",
              file=sys.stderr)
        return 2
    suite = pc.suite_cases(args.mesobench, args.filter, args.param, "openmm_peer")
    prov = pc.provenance(suite, f"OpenMM {openmm.version.full_version}", "peer: openmm", args.platform == "CUDA")

    def save(res, fail):
        pc.write_result(args.output, prov, res, fail, quiet=True)

    watch = phase_watch.PhaseWatch(pc.log, args.phase_seconds) if args.phase_seconds > 0 else None
    results, failures = pc.run_cases(suite, lambda case: measure(case, args, openmm, unit, references, watch),
                                     "OpenMM", save, watch)
    return pc.write_result(args.output, prov, results, failures)


if __name__ == "__main__":
    sys.exit(main())
