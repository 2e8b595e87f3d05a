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
- lj-liquid: 4 eps ((sigma/r)^12 - (sigma/r)^6) cut and shifted at r_c
  (mode=shift) as a CustomNonbondedForce, NVT by OpenMM's
  NoseHooverIntegrator with one thermostat (collision frequency 1/tau).

Each case: --equilibrate-steps untimed steps (the start, random for DPD and a
lattice for LJ, is far from the thermostat's temperature), a warm-up of
--warmup-time seconds, then --repeats timed runs of
at least --min-time seconds each (steps per second, the state read back at
the end of each, which waits for the device). The physics is checked before
the speed is quoted: the kinetic temperature after the runs against the
case's kT (within --temperature-tolerance, default 10%); a case that fails
the check, crashes, or cannot be built is listed under "peer_failures" with
the reason, and its speed is not reported.
"""
import argparse
import json
import os
import platform as pyplatform
import re
import socket
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

BOLTZ = 0.0083144626181532  # kJ/mol/K: kT = 1 kJ/mol is this many kelvin's inverse


def suite_cases(mesobench, filt, params):
    """The selected cases as the suite defines them: `mesobench run` on the
    CPU reference, once, briefly; its JSON holds N, the box and parameters."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cases.json")
        cmd = [mesobench, "run", "--backend", "cpu", "--filter", filt, "--repeats", "1", "--min-time", "0.001",
               "--warmup-time", "0", "--quiet", "--max-n", str(1 << 24), "--json", out]
        for p in params:
            cmd += ["--param", p]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"openmm_peer: {' '.join(cmd)} failed: {done.stderr.strip()}")
        with open(out) as f:
            return json.load(f)


def lattice(n, box):
    """n points on a simple cubic lattice filling the box (no overlaps for LJ)."""
    k = 1
    while k ** 3 < n:
        k += 1
    step = [b / k for b in box]
    return [((i % k + 0.5) * step[0], ((i // k) % k + 0.5) * step[1], (i // (k * k) + 0.5) * step[2])
            for i in range(n)]


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
    elif case["workload"] == "lj-liquid":
        if p.get("mode", "shift") not in ("shift", "none"):
            raise ValueError(f"mode={p['mode']}: only shift and none are built here")
        rc, eps, sig = float(p["rc"]), float(p.get("epsilon", 1.0)), float(p.get("sigma", 1.0))
        shift = 4 * eps * ((sig / rc) ** 12 - (sig / rc) ** 6) if p.get("mode", "shift") == "shift" else 0.0
        force = openmm.CustomNonbondedForce("4*eps*((sig/r)^12-(sig/r)^6)-shift")
        for name, value in (("eps", eps), ("sig", sig), ("shift", shift)):
            force.addGlobalParameter(name, value)
        if p.get("integrator", "nvt") != "nvt":
            raise ValueError(f"integrator={p['integrator']}: only nvt (Nose-Hoover) is built here")
        tau = float(p.get("tau", 0.5))
        integrator = openmm.NoseHooverIntegrator(float(p.get("thermostat_kT", kT)) / BOLTZ, 1.0 / tau, float(p["dt"]),
                                                 1)
        settings = {"pair": "CustomNonbondedForce 4*eps*((sig/r)^12-(sig/r)^6)-shift", "rc": rc, "shift": shift,
                    "integrator": "NoseHooverIntegrator, chain length 1", "collision_frequency_per_ps": 1.0 / tau,
                    "temperature_K": temperature, "dt_ps": float(p["dt"])}
    else:
        raise ValueError(f"no OpenMM system is built for {case['workload']}")
    force.setNonbondedMethod(openmm.CustomNonbondedForce.CutoffPeriodic)
    force.setCutoffDistance(rc)
    for _ in range(n):
        force.addParticle([])
    system.addForce(force)
    settings["neighbor_list"] = "OpenMM's own (its skin and rebuilds are not set or reported)"
    if p.get("skin") is not None:
        differs["skin"] = f"the suite's list skin {p['skin']:g} has no OpenMM setting"
    positions = lattice(n, box) if case["workload"] == "lj-liquid" else None
    return system, integrator, positions, settings, differs, temperature


def measure(case, args, openmm, unit):
    """The result entry of one case (or raises with the reason it failed)."""
    import random
    system, integrator, positions, settings, differs, temperature = build(case, openmm, unit)
    n, box = int(case["N"]), case["parameters"]["box"]
    if positions is None:
        rng = random.Random(int(case["parameters"].get("seed", 12345)))
        positions = [(rng.random() * box[0], rng.random() * box[1], rng.random() * box[2]) for _ in range(n)]
    plat = openmm.Platform.getPlatformByName(args.platform)
    props = {"Precision": args.precision} if args.platform in ("CUDA", "OpenCL", "HIP") else {}
    if args.platform == "CPU" and args.cpu_threads:
        props["Threads"] = str(args.cpu_threads)
    t0 = time.perf_counter()
    context = openmm.Context(system, integrator, plat, props)
    context.setPositions(positions)
    context.setVelocitiesToTemperature(temperature, int(case["parameters"].get("seed", 12345)))
    context.getState(getEnergy=True)
    setup = time.perf_counter() - t0

    def run(steps):
        start = time.perf_counter()
        integrator.step(steps)
        context.getState(getEnergy=True)  # waits for the device
        return time.perf_counter() - start

    run(args.equilibrate_steps)  # from the start the case's own run has to the thermostat's temperature
    steps, spent = 1, run(1)
    while spent < args.warmup_time:  # warm-up, and how many steps fill --min-time
        steps = max(1, min(steps * 4, int(steps * args.min_time / max(spent, 1e-9)) + 1))
        spent = run(steps)
    steps = max(1, int(steps * args.min_time / max(spent, 1e-9)) + 1)
    tps = [steps / run(steps) for _ in range(args.repeats)]
    state = context.getState(getEnergy=True)
    kinetic = state.getKineticEnergy().value_in_unit(unit.kilojoule_per_mole)
    dof = 3 * n - 3
    t_reduced = 2.0 * kinetic / dof  # in units of kT = 1 kJ/mol
    kT = float(case["parameters"]["kT"])
    if not (abs(t_reduced - kT) <= args.temperature_tolerance * kT):
        raise ValueError(f"kinetic temperature {t_reduced:.4g} against kT = {kT:g}: off by more than "
                         f"{100 * args.temperature_tolerance:g}%, so its speed is not quoted")
    tps_sorted = sorted(tps)
    median = tps_sorted[len(tps) // 2] if len(tps) % 2 else 0.5 * (tps_sorted[len(tps) // 2 - 1] + tps_sorted[len(tps) // 2])
    variant = f"engine=openmm,platform={args.platform}" + (f",precision={args.precision}" if "Precision" in props else "")
    name = case["name"].split("/")
    name[2] = "cuda" if args.platform == "CUDA" else "cpu"
    name[3] = variant
    return {
        "name": "/".join(name), "workload": case["workload"], "kernel": case["kernel"],
        "backend": name[2], "variant": variant, "variant_requested": variant, "variant_ignored_axes": "",
        "N": n, "parameters": case["parameters"], "steps_per_repeat": steps, "repeats": args.repeats,
        "tps": tps, "tps_median": median, "tps_min": min(tps), "tps_max": max(tps), "mps_median": median * n * 1e-6,
        "setup_seconds": setup,
        "neighbor_list": {"builds": 0, "dangerous_builds": 0, "capacity": 0, "max_neighbors": 0, "mean_neighbors": 0},
        "final_thermo": {"step": steps * args.repeats, "temperature": t_reduced},
        "device": None,
        "peer": {"engine": "openmm", "version": openmm.version.full_version, "platform": args.platform,
                 "platform_properties": {k: plat.getPropertyValue(context, k) for k in plat.getPropertyNames()},
                 "settings": settings, "differs": differs, "suite_case": case["name"],
                 "check": {"temperature": t_reduced, "kT": kT, "tolerance": args.temperature_tolerance}},
    }


def provenance(suite, args, openmm):
    prov = dict(suite["provenance"])  # the commit and host of the case definitions
    prov.update({
        "compiler": f"OpenMM {openmm.version.full_version} (Python {pyplatform.python_version()})",
        "build_type": "peer: openmm",
        "date_utc": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "hostname": socket.gethostname(),
        "cpu_threads": os.cpu_count() or 1,
    })
    if args.platform != "CUDA":
        prov["gpu_model"], prov["gpu_driver"] = "", ""
    elif not prov.get("gpu_model"):
        try:
            prov["gpu_model"] = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                                               capture_output=True, text=True).stdout.splitlines()[0].strip()
        except (OSError, IndexError):
            prov["gpu_model"] = "GPU"
    prov["diagnostics"] = ""
    return prov


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mesobench", required=True, help="the mesobench binary whose case definitions run")
    ap.add_argument("--filter", required=True, help="the suite's cases (RE2, as `mesobench run --filter`)")
    ap.add_argument("--param", action="append", default=[], help="key=value, as `mesobench run --param`")
    ap.add_argument("--platform", default="CPU", help="OpenMM platform: CPU, CUDA, OpenCL, Reference")
    ap.add_argument("--precision", default="mixed", help="CUDA/OpenCL precision (default mixed)")
    ap.add_argument("--cpu-threads", type=int, default=0, help="CPU platform threads (default: OpenMM's, all cores)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.2, help="seconds per timed repeat, at least")
    ap.add_argument("--warmup-time", type=float, default=0.3)
    ap.add_argument("--temperature-tolerance", type=float, default=0.10)
    ap.add_argument("--equilibrate-steps", type=int, default=2000,
                    help="untimed steps first, to the thermostat's temperature (default 2000: 10 tau at dt 0.005)")
    ap.add_argument("-o", "--output", required=True, help="the result file to write (JSON)")
    args = ap.parse_args()
    if os.path.exists(args.output):
        print(f"openmm_peer: {args.output} exists: give a new file", file=sys.stderr)
        return 2
    try:
        import openmm
        from openmm import unit
    except ImportError as e:
        print(f"openmm_peer: cannot import openmm ({e}): pip install openmm (openmm-cuda-13 for CUDA)",
              file=sys.stderr)
        return 77
    if args.platform not in [openmm.Platform.getPlatform(i).getName() for i in range(openmm.Platform.getNumPlatforms())]:
        print(f"openmm_peer: OpenMM has no platform {args.platform!r}", file=sys.stderr)
        return 2
    suite = suite_cases(args.mesobench, args.filter, args.param)
    results, failures = [], []
    for case in suite["results"]:
        try:
            results.append(measure(case, args, openmm, unit))
            r = results[-1]
            print(f"{r['name']}: {r['tps_median']:.4g} TPS (median of {r['repeats']}), T = "
                  f"{r['final_thermo']['temperature']:.3f}")
        except Exception as e:  # a peer that crashes or cannot run a case is recorded as such
            failures.append({"suite_case": case["name"], "reason": f"{type(e).__name__}: {e}"})
            print(f"{case['name']}: not run in OpenMM: {failures[-1]['reason']}", file=sys.stderr)
    doc = {"kind": "benchmark", "schema_version": 1, "provenance": provenance(suite, args, openmm),
           "results": results, "peer_failures": failures,
           "command": " ".join([os.path.relpath(sys.argv[0])] + sys.argv[1:])}
    if not results:
        doc["results"] = []
    tmp = args.output + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, args.output)
    print(f"wrote {args.output}: {len(results)} case(s), {len(failures)} not run")
    return 0 if results else 1


if __name__ == "__main__":
    sys.exit(main())
