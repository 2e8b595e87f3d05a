"""What the peer drivers (openmm_peer.py, lammps_peer.py) share: the suite's
own case definitions, the timing protocol, the physics check that comes
before a speed is quoted, and the result file in the suite's schema
(docs/results.md), so that each driver holds only how its engine builds and
steps a case (issue 58)."""
import argparse
import json
import os
import platform as pyplatform
import socket
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

import phase_watch
import rdf


class PhysicsMismatch(ValueError):
    """A peer's state disagrees with the case's: its speed is not quoted."""


def suite_cases(mesobench, filt, params, tool):
    """The selected cases as the suite defines them: `mesobench run` on the
    CPU reference, once, briefly; its JSON holds N, the box and parameters."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cases.json")
        cmd = [mesobench, "run", "--backend", "cpu", "--filter", filt, "--repeats", "1", "--min-time", "0.001",
               "--warmup-time", "0", "--quiet", "--max-n", str(1 << 24), "--json", out]
        for p in params:
            cmd += ["--param", p]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True)
        except OSError as e:
            raise SystemExit(f"{tool}: cannot run {mesobench}: {e.strerror}")
        if done.returncode != 0:
            raise SystemExit(f"{tool}: {' '.join(cmd)} failed: {done.stderr.strip()}")
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


def median(values):
    s = sorted(values)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else 0.5 * (s[mid - 1] + s[mid])


def timed_repeats(run, args, watch=None):
    """The suite's protocol for a peer: --equilibrate-steps untimed steps, a
    warm-up of at least --warmup-time seconds in all (as `mesobench run`'s)
    whose last run sizes a repeat, then --repeats timed repeats of at least
    --min-time seconds. run(steps) steps the engine and returns the seconds it
    took (after the engine is done). Each of the three is a phase of watch (a
    phase_watch.PhaseWatch), planned to take --max-equilibrate-seconds,
    --warmup-time and --repeats x --min-time. Returns (steps per repeat, [TPS per repeat])."""
    watch = watch or phase_watch.Unwatched()
    run = watch.counting(run)
    with watch.phase("untimed steps", args.max_equilibrate_seconds):
        equilibrate(run, args.equilibrate_steps, args.max_equilibrate_seconds)
    with watch.phase("warm-up", args.warmup_time):
        steps, spent = warm_up(run, args.warmup_time, args.min_time)
    steps = max(1, int(steps * args.min_time / max(spent, 1e-9)) + 1)
    log(f"warm-up done ({spent:.3g} s for the last run); {args.repeats} timed repeats of {steps} steps")
    with watch.phase("timed repeats", args.repeats * args.min_time):
        return steps, [steps / run(steps) for _ in range(args.repeats)]


def warm_up(run, warmup_time, min_time):
    """Runs of 1, 4, 16, ... steps, each at most what fills min_time, until
    they sum to warmup_time seconds: (steps, seconds) of the last. The sum,
    not the last run, ends it: runs sized to fill min_time never reach a
    warmup_time above it, and OpenMM's LJ liquid (min 0.2 s, warm-up 0.3 s)
    ran such runs silently until its timeout (issue 58)."""
    steps, spent = 1, run(1)
    total = spent
    while total < warmup_time:
        if steps > 1 << 40:
            raise RuntimeError(f"warm-up: {steps} steps ran in {spent:.3g} s: the engine's clock does not advance")
        steps = max(1, min(steps * 4, int(steps * min_time / max(spent, 1e-9)) + 1))
        spent = run(steps)
        total += spent
    return steps, spent


class PeerTooSlow(RuntimeError):
    """A peer's untimed steps would outlast --max-equilibrate-seconds."""


def log(message):
    """A timed progress line on stderr, flushed: a log cut by a timeout still says where the time went."""
    print(f"{time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


def equilibrate(run, steps, budget):
    """run(steps) in chunks of about two seconds (the first of at most 100
    steps), logging the rate; raises PeerTooSlow as soon as the rate says the
    rest would take the whole past budget seconds (0: no budget)."""
    done, spent, chunk = 0, 0.0, min(steps, 100)
    while done < steps:
        chunk = min(chunk, steps - done)
        spent += run(chunk)
        done += chunk
        rate = done / max(spent, 1e-9)
        if budget and done < steps and spent + (steps - done) / rate > budget:
            raise PeerTooSlow(f"{done} of {steps} untimed steps took {spent:.1f} s ({rate:.3g} steps/s): the rest "
                              f"would pass --max-equilibrate-seconds {budget:g}")
        chunk = max(chunk, int(2 * rate))
    if steps:
        log(f"{steps} untimed steps in {spent:.2f} s ({rate:.4g} steps/s)")


def check_temperature(measured, kT, tolerance):
    if not abs(measured - kT) <= tolerance * kT:
        raise PhysicsMismatch(f"kinetic temperature {measured:.4g} against kT = {kT:g}: off by more than "
                              f"{100 * tolerance:g}%, so its speed is not quoted")


def check_close(quantity, measured, reference, source, tolerance, floor):
    """|x - x_ref| <= tolerance |x_ref| + floor (floor: for values near 0)."""
    bound = tolerance * abs(reference) + floor
    if not abs(measured - reference) <= bound:
        raise PhysicsMismatch(f"{quantity} {measured:.4g} against {reference:.4g} ({source}): off by more than "
                              f"{bound:.3g}, so its speed is not quoted")


# What a peer measures -> the field of mesobench's final_thermo it must match.
THERMO_FIELD = {"pressure": "pressure", "potential_energy_per_particle": "potential_energy_per_particle"}


def check_against_ours(case, references, measured, args, check):
    """Each measured quantity ({"pressure": p, ...}) against mesobench's own
    final state of the same case (--reference), within the quantity's
    --X-tolerance and --X-floor; recorded in check (without a reference:
    recorded, not checked). Raises PhysicsMismatch on the first that differs."""
    ours = references.get(case_key(case["name"]))
    check.update(measured)
    if ours is None:
        check["reference"] = "none: give --reference (a mesobench run of the same case)"
        return
    check["reference"] = ours["name"]
    for quantity, value in measured.items():
        key = quantity.split("_")[0]  # pressure, potential (energy)
        tol, floor = getattr(args, f"{key}_tolerance"), getattr(args, f"{key}_floor")
        reference = float(ours["final_thermo"][THERMO_FIELD[quantity]])
        check[f"{quantity}_reference"] = reference
        check[f"{quantity}_bound"] = [tol, floor]
        check_close(quantity.replace("_", " "), value, reference, f"mesobench {ours['name']}", tol, floor)


def reference_frames(paths):
    """{(workload, N): path} of mesobench's own final frames (--reference-frame:
    `run --steps S --trajectory F.h5md` of the same cases)."""
    import h5py
    found = {}
    for path in paths:
        with h5py.File(path, "r") as f:
            workload = f["parameters/mesobench"].attrs["workload"]
            workload = workload.decode() if isinstance(workload, bytes) else str(workload)
            n = f["particles"][list(f["particles"])[0]]["position/value"].shape[1]
        found[(workload, int(n))] = path
    return found


def check_structure(case, frames, positions, box, args, check, engine):
    """The peer's final frame: saved under --frames, and its g(r) against
    mesobench's final frame of the same case (--reference-frame) within
    --rdf-z combined standard errors (rdf.py), recorded in check["rdf"].
    Without a reference frame it is recorded, not checked. Raises
    PhysicsMismatch when the two differ."""
    n = int(case["N"])
    if args.frames:
        os.makedirs(args.frames, exist_ok=True)
        rdf.write_frame(os.path.join(args.frames, f"{engine}-{case['workload']}-N{n}.npz"), positions, box)
    ours = frames.get((case["workload"], n))
    if ours is None:
        check["rdf"] = "not checked: give --reference-frame (mesobench's final frame of the same case)"
        return
    c = rdf.compare((positions, box), rdf.read_frame(ours), args.rdf_z)
    c["reference_frame"] = os.path.basename(ours)
    check["rdf"] = c
    print(f"{engine} {case['workload']} N={n}: {rdf.summary(c)}", file=sys.stderr, flush=True)
    if not c["pass"]:
        e = PhysicsMismatch(f"{rdf.summary(c)}: so its speed is not quoted")
        e.check = check  # the failure's record keeps the two curves
        raise e


def reference_cases(paths):
    """{suite case name without backend and variant: result} of mesobench's
    own results (--reference): the pressure and temperature a peer's must
    match."""
    found = {}
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        for r in doc.get("results", []):
            if "peer" not in r and r.get("final_thermo"):
                found[case_key(r["name"])] = r
    return found


def case_key(name):
    """A case name without its backend and variant parts (which differ between engines)."""
    parts = name.split("/")
    return "/".join(parts[:2] + parts[4:])


def entry(case, engine, backend, variant, steps, tps, setup, thermo, peer):
    """One result entry in the suite's benchmark schema, with the peer's record."""
    n = int(case["N"])
    name = case["name"].split("/")
    name[2], name[3] = backend, variant
    return {
        "name": "/".join(name), "workload": case["workload"], "kernel": case["kernel"],
        "backend": backend, "variant": variant, "variant_requested": variant, "variant_ignored_axes": "",
        "N": n, "parameters": case["parameters"], "steps_per_repeat": steps, "repeats": len(tps),
        "tps": tps, "tps_median": median(tps), "tps_min": min(tps), "tps_max": max(tps),
        "mps_median": median(tps) * n * 1e-6, "setup_seconds": setup,
        "neighbor_list": {"builds": 0, "dangerous_builds": 0, "capacity": 0, "max_neighbors": 0, "mean_neighbors": 0},
        "final_thermo": dict(thermo, step=steps * len(tps)),
        "device": None,
        "peer": dict(peer, engine=engine, suite_case=case["name"]),
    }


def provenance(suite, engine_line, build_type, gpu):
    prov = dict(suite["provenance"])  # the commit and host of the case definitions
    prov.update({
        "compiler": f"{engine_line} (Python {pyplatform.python_version()})",
        "build_type": build_type,
        "date_utc": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "hostname": socket.gethostname(),
        "cpu_threads": os.cpu_count() or 1,
    })
    if not gpu:
        prov["gpu_model"], prov["gpu_driver"] = "", ""
    elif not prov.get("gpu_model"):
        try:
            prov["gpu_model"] = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                                               capture_output=True, text=True).stdout.splitlines()[0].strip()
        except (OSError, IndexError):
            prov["gpu_model"] = "GPU"
    prov["diagnostics"] = ""
    return prov


def common_arguments(doc, default_threads_help):
    """The options every peer driver takes (its own are added by the caller)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mesobench", required=True, help="the mesobench binary whose case definitions run")
    ap.add_argument("--filter", required=True, help="the suite's cases (RE2, as `mesobench run --filter`)")
    ap.add_argument("--param", action="append", default=[], help="key=value, as `mesobench run --param`")
    ap.add_argument("--cpu-threads", type=int, default=0, help=default_threads_help)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.2, help="seconds per timed repeat, at least")
    ap.add_argument("--warmup-time", type=float, default=0.3)
    ap.add_argument("--temperature-tolerance", type=float, default=0.10)
    ap.add_argument("--equilibrate-steps", type=int, default=2000,
                    help="untimed steps first, to the thermostat's temperature (default 2000: 10 tau at dt 0.005)")
    ap.add_argument("--reference", action="append", default=[],
                    help="mesobench results (run --json) of the same cases: the state the peer's must match")
    ap.add_argument("--potential-tolerance", type=float, default=0.02,
                    help="potential energy per particle against ours: relative (default 0.02)")
    ap.add_argument("--potential-floor", type=float, default=0.02, help="and absolute, added (default 0.02)")
    ap.add_argument("--reference-frame", action="append", default=[],
                    help="mesobench's final frame of the same case (run --steps S --trajectory F.h5md): "
                         "the g(r) the peer's must match")
    ap.add_argument("--rdf-z", type=float, default=5.0,
                    help="g(r) against ours: every bin within this many combined standard errors (default 5)")
    ap.add_argument("--frames", help="folder to write each case's final frame to (.npz, for rdf.py)")
    ap.add_argument("--max-equilibrate-seconds", type=float, default=0,
                    help="give up a case whose untimed steps would take longer (default 0: no limit)")
    ap.add_argument("-o", "--output", required=True, help="the result file to write (JSON)")
    return ap


def load_references(args, tool):
    """(reference_cases(--reference), reference_frames(--reference-frame)), or
    None after a one-line message."""
    try:
        cases = reference_cases(args.reference)
    except (OSError, ValueError, KeyError) as e:
        print(f"{tool}: cannot read --reference: {e}", file=sys.stderr)
        return None
    try:
        return cases, reference_frames(args.reference_frame)
    except (OSError, ValueError, KeyError, ImportError) as e:
        print(f"{tool}: cannot read --reference-frame: {e}", file=sys.stderr)
        return None


def refuse_existing(path, tool):
    if os.path.exists(path):
        print(f"{tool}: {path} exists: give a new file", file=sys.stderr)
        return True
    return False


def run_cases(suite, measure, engine_name, save, watch=None):
    """measure(case) for every case: (results, failures). A peer that crashes
    or cannot run a case is recorded as such, with the reason. save(results,
    failures) after each case keeps what ran if a timeout stops the rest; a
    failure is saved before its engine's objects are freed (OpenMM's CUDA
    context, freed after an illegal address, aborts the process). With watch
    (a phase_watch.PhaseWatch), each phase's record lists the running case as
    stopped there until it ends, so that the file says where a process died."""
    results, failures = [], []
    for case in suite["results"]:
        if watch:
            watch.record = lambda reason, name=case["name"]: save(
                results, failures + [{"suite_case": name, "reason": reason}])
        try:
            results.append(measure(case))
            r = results[-1]
            print(f"{r['name']}: {r['tps_median']:.4g} TPS (median of {r['repeats']}), T = "
                  f"{r['final_thermo']['temperature']:.3f}")
        except Exception as e:  # noqa: BLE001 - whatever the engine raised is the record
            failures.append({"suite_case": case["name"], "reason": f"{type(e).__name__}: {e}"})
            if getattr(e, "check", None):
                failures[-1]["check"] = e.check
            print(f"{case['name']}: not run in {engine_name}: {failures[-1]['reason']}", file=sys.stderr, flush=True)
            save(results, failures)  # now, while e's frames still hold the engine
        else:
            save(results, failures)
    return results, failures


def write_result(path, prov, results, failures, quiet=False):
    """The benchmark file, written whole or not at all; 0 when a case ran."""
    doc = {"kind": "benchmark", "schema_version": 1, "provenance": prov, "results": results,
           "peer_failures": failures, "command": " ".join([os.path.relpath(sys.argv[0])] + sys.argv[1:])}
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)
    if not quiet:
        print(f"wrote {path}: {len(results)} case(s), {len(failures)} not run")
    return 0 if results else 1


def clock(step, wait):
    """run(steps) for timed_repeats: step(steps), then wait() for the engine."""
    def run(steps):
        start = time.perf_counter()
        step(steps)
        wait()
        return time.perf_counter() - start
    return run
