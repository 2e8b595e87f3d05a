#!/usr/bin/env python3
"""The peer drivers' parts that need no peer engine (issue 58), so that CI
checks them where OpenMM and LAMMPS are absent: the LAMMPS input built from
the suite's own case definitions (the weights, shift, thermostat, skin and
time step of each case), the timing protocol, the physics checks' bounds,
the matching of a peer's case to mesobench's, and the device script's
syntax.

    peers_offline.py <mesobench> <source dir>
"""
import json
import os
import subprocess
import sys
import tempfile
import time

mesobench, source = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(source, "scripts", "peers"))
import lammps_peer  # noqa: E402
import peer_common as pc  # noqa: E402

F = "dpd-fluid/.*/rho=3/rc=1/s=0.5/N=8192$|lj-liquid/.*N=64000$"
suite = pc.suite_cases(mesobench, F, ["N=500"], "peers_offline")
cases = {c["workload"]: c for c in suite["results"]}
assert set(cases) == {"dpd-fluid", "lj-liquid"}, sorted(cases)

# dpd-fluid: dpd/ext with the case's a, gamma, s for both weights, no perpendicular part.
dpd = cases["dpd-fluid"]
p = dpd["parameters"]
lines, settings, differs = lammps_peer.commands(dpd, 7)
assert f"pair_style dpd/ext {p['kT']!r} {p['rc']!r} 7" in lines, lines
assert f"pair_coeff 1 1 {p['a']!r} {p['gamma']!r} 0.0 {p['s']!r} {p['s']!r}" in lines, lines
assert p["s"] == 0.5 and "comm_modify vel yes" in lines and "fix integrate all nve" in lines, lines
assert f"create_atoms 1 random 500 7 NULL" in lines, lines
assert f"timestep {p['dt']!r}" in lines and f"neighbor {p['skin']!r} bin" in lines, lines
b = p["box"]
assert f"region box block 0 {b[0]!r} 0 {b[1]!r} 0 {b[2]!r}" in lines, lines
assert abs(500 / (b[0] * b[1] * b[2]) - p["rho"]) < 1e-9, (b, p["rho"])
assert differs == {}, differs
# Groot & Warren at rho = 3, a = 25: 3 + 0.101 * 25 * 9.
assert abs(lammps_peer.groot_warren_pressure(dpd) - 25.725) < 1e-9

# lj-liquid: lj/cut shifted at r_c, one Nose-Hoover thermostat with the case's tau.
lj = cases["lj-liquid"]
q = lj["parameters"]
lines, settings, _ = lammps_peer.commands(lj, 7)
assert f"pair_style lj/cut {q['rc']!r}" in lines and "pair_modify shift yes" in lines, lines
assert f"fix integrate all nvt temp {q['kT']!r} {q['kT']!r} {q['tau']!r} tchain 1" in lines, lines
assert lammps_peer.groot_warren_pressure(lj) is None
for bad, why in (({"mode": "xplor"}, "mode=xplor"), ({"integrator": "langevin"}, "integrator=langevin")):
    case = dict(lj, parameters=dict(q, **bad))
    try:
        lammps_peer.commands(case, 7)
        raise AssertionError(f"{bad} was built")
    except ValueError as e:
        assert why in str(e), e
try:
    lammps_peer.commands(dict(lj, workload="srd-fluid"), 7)
    raise AssertionError("srd-fluid was built")
except ValueError as e:
    assert "no LAMMPS input is built for srd-fluid" in str(e), e

# The timing protocol: untimed steps first, a warm-up that sizes a repeat, then the repeats.
calls = []


def fake_run(steps):
    calls.append(steps)
    return steps * 1e-3  # 1000 steps per second


class Args:
    equilibrate_steps, warmup_time, min_time, repeats, max_equilibrate_seconds = 50, 0.01, 0.02, 3, 0


steps, tps = pc.timed_repeats(fake_run, Args)
assert calls[0] == 50 and calls[1] == 1, calls
assert steps == 21 and calls[-3:] == [21] * 3 and len(tps) == 3, (steps, calls)
assert all(abs(t - 1000) < 1e-6 for t in tps), tps
assert pc.median([3, 1, 2]) == 2 and pc.median([4, 1, 2, 3]) == 2.5


# The warm-up ends when its runs sum to --warmup-time, also when a run sized to fill --min-time
# never reaches it: OpenMM's LJ liquid on the H200 (2,317 steps/s, min 0.2 s, warm-up 0.3 s)
# ran runs of 0.2 s until its timeout when the last run alone had to reach 0.3 s.
def steady(rate, limit=200):
    calls.clear()

    def run(steps):
        calls.append(steps)
        if len(calls) > limit:
            raise AssertionError(f"the warm-up never ended: runs of {calls[-5:]} steps")
        return steps / rate + 1e-3  # and a millisecond to read the state back
    return run


class DeviceDefaults:
    equilibrate_steps, warmup_time, min_time, repeats, max_equilibrate_seconds = 0, 0.3, 0.2, 5, 0


steps, tps = pc.timed_repeats(steady(2317.0), DeviceDefaults)
warm = calls[:-5]
assert warm[:4] == [1, 4, 16, 64] and len(warm) <= 8, warm  # about 0.33 s of warm-up in all
assert sum(k / 2317.0 + 1e-3 for k in warm) >= 0.3 > sum(k / 2317.0 + 1e-3 for k in warm[:-1]), warm
assert 0.2 <= steps / 2317.0 + 1e-3 < 0.21 and calls[-5:] == [steps] * 5, (steps, calls)

# Each case is saved as it finishes (a timeout keeps what ran); a case that raises is
# recorded with its reason and the next still runs.
saved = []


def fake_measure(case):
    if case["workload"] == "dpd-fluid":
        raise RuntimeError("CUDA_ERROR_OUT_OF_MEMORY")
    return {"name": case["name"], "tps_median": 1.0, "repeats": 1, "final_thermo": {"temperature": 1.2}}


results, failures = pc.run_cases(suite, fake_measure, "X", lambda r, f: saved.append((len(r), len(f))))
assert [r["name"] for r in results] == [lj["name"]], results
assert failures == [{"suite_case": dpd["name"], "reason": "RuntimeError: CUDA_ERROR_OUT_OF_MEMORY"}], failures
assert saved == ([(0, 1), (1, 1)] if suite["results"][0] is dpd else [(1, 0), (1, 1)]), saved

# The checks' bounds, just inside and just past them.
pc.check_temperature(1.0999, 1.0, 0.1)
pc.check_close("pressure", 24.0 + 0.05 * 24.0 + 0.0499, 24.0, "ours", 0.05, 0.05)
for check in (lambda: pc.check_temperature(1.1001, 1.0, 0.1),
              lambda: pc.check_close("pressure", 24.0 + 0.05 * 24.0 + 0.0501, 24.0, "ours", 0.05, 0.05),
              lambda: pc.check_close("pressure", -0.06, 0.0, "ours", 0.05, 0.05)):
    try:
        check()
        raise AssertionError("a value past the bound passed")
    except pc.PhysicsMismatch as e:
        assert "so its speed is not quoted" in str(e), e

# A peer's case matches mesobench's whatever the backend and variant; a peer's own
# result is never taken as the reference.
with tempfile.TemporaryDirectory() as tmp:
    ours = dict(dpd, final_thermo={"pressure": 23.5, "temperature": 1.0})
    ours["name"] = dpd["name"].replace("/cpu/", "/cuda/")
    peer = dict(ours, peer={"engine": "lammps"}, final_thermo={"pressure": 99.0, "temperature": 1.0})
    peer["name"] = "/".join(ours["name"].split("/")[:2] + ["cpu", "engine=lammps"] + ours["name"].split("/")[4:])
    path = os.path.join(tmp, "ours.json")
    with open(path, "w") as f:
        json.dump({"results": [peer, ours]}, f)
    refs = pc.reference_cases([path])
    assert list(refs) == [pc.case_key(dpd["name"])], refs
    assert refs[pc.case_key(dpd["name"])]["final_thermo"]["pressure"] == 23.5

# check_against_ours: each quantity against ours' final state within its own bound, all
# recorded; without a reference recorded and not checked.
class Bounds:
    pressure_tolerance, pressure_floor, potential_tolerance, potential_floor = 0.05, 0.05, 0.02, 0.02


ours_case = dict(dpd, final_thermo={"pressure": 23.5, "potential_energy_per_particle": 4.6})
refs = {pc.case_key(dpd["name"]): ours_case}
check = {}
pc.check_against_ours(dpd, refs, {"pressure": 24.0, "potential_energy_per_particle": 4.65}, Bounds, check)
assert check["pressure_reference"] == 23.5 and check["pressure_bound"] == [0.05, 0.05], check
assert check["potential_energy_per_particle_reference"] == 4.6 and check["reference"] == dpd["name"], check
try:
    pc.check_against_ours(dpd, refs, {"pressure": 24.0, "potential_energy_per_particle": 4.72}, Bounds, {})
    raise AssertionError("a potential energy 0.12 off passed a bound of 0.112")
except pc.PhysicsMismatch as e:
    assert str(e).startswith("potential energy per particle 4.72 against 4.6 (mesobench "), e
check = {}
pc.check_against_ours(lj, refs, {"pressure": 99.0}, Bounds, check)
assert check == {"pressure": 99.0, "reference": "none: give --reference (a mesobench run of the same case)"}, check

# The device script and the one that fetches what it carries parse; the first names every
# step it stamps.
script = os.path.join(source, "scripts", "device_peers.sh")
for sh in (script, os.path.join(source, "scripts", "peer_deps.sh")):
    assert subprocess.run(["bash", "-n", sh]).returncode == 0, sh
text = open(script).read()
for step in ("mesobench cuda", "mesobench cuda srd-fluid", "mesobench frame dpd-fluid", "mesobench frame lj-liquid",
             "mesobench srd-viscosity angle=90", "openmm CUDA lj-liquid", "openmm CUDA dpd-fluid", "lammps dpd-fluid",
             "lammps lj-liquid", "lammps srd-fluid", "mesobench cpu"):
    assert f'stamp "{step} rc=$?' in text, step
assert "--no-index" in text and 'peers.tar' in text and "--reference-frame" in text
assert text.index("openmm CUDA lj-liquid") < text.index("openmm CUDA dpd-fluid"), "the LJ liquid first"
# Each step runs when PEERS_ONLY (an ERE over those names) selects it; the diagnoses of
# OpenMM's DPD at 1M only when it names them. The selection the script's usage gives runs
# OpenMM's LJ liquid, what it is checked against, and the diagnoses.
steps = [line.split('"')[1] for line in text.splitlines() if line.startswith("if ") and 'want "' in line]
assert len(steps) == 14 and len(set(steps)) == 14 and all(f'stamp "{n} rc=$?' in text for n in steps), steps
want = next(line for line in text.splitlines() if line.startswith("want() {"))
usage = next(line for line in text.splitlines() if line.startswith("#   PEERS_ONLY='")).split("'")[1]


def selected(only):
    env = {k: v for k, v in os.environ.items() if k != "PEERS_ONLY"}
    env.update({"PEERS_ONLY": only} if only else {})
    return [n for n in steps if subprocess.run(["bash", "-c", want + '\nwant "$1"', "want", n], env=env).returncode == 0]


assert selected(None) == [n for n in steps if not n.startswith("diagnose")] and len(selected(None)) == 12
assert selected(usage) == ["mesobench cuda", "mesobench frame lj-liquid", "openmm CUDA lj-liquid",
                           "diagnose openmm dpd-fluid 1M lattice", "diagnose openmm dpd-fluid 1M memcheck"], usage

# Untimed steps in chunks, their rate logged; a peer too slow for its budget is given up
# with the rate as the reason (the OpenMM LJ liquid ran out of its whole step once).
calls = []
pc.equilibrate(fake_run, 1000, 0)
assert calls == [100, 900], calls  # 100 steps first, then two seconds' worth at 1000 steps/s
calls = []
try:
    pc.equilibrate(lambda s: calls.append(s) or s * 0.1, 2000, 60)  # 10 steps/s: 200 s
    raise AssertionError("200 s of untimed steps passed a budget of 60 s")
except pc.PeerTooSlow as e:
    assert calls == [100] and "100 of 2000 untimed steps took 10.0 s (10 steps/s)" in str(e), (calls, e)

# The phase watchdog (phase_watch.py), in a child process each (it ends its process): a phase
# past its budget is stopped with its name, step count and every thread's stack, recorded, exit
# 3; a call that holds the GIL (as creating an OpenMM Context does) is stopped by faulthandler's
# own thread after the grace, exit 1, and the record written when the phase began names it.
WATCHED = """
import ctypes, json, sys, time
sys.path.insert(0, sys.argv[1])
import phase_watch
records = []
def record(reason):
    records.append(reason)
    json.dump(records, open(sys.argv[2], "w"))
watch = phase_watch.PhaseWatch(lambda line: print(line, file=sys.stderr, flush=True), slack=0.2, grace=0.3)
watch.record = record
with watch.phase("context", 0):
    pass
run = watch.counting(lambda steps: time.sleep(steps * 1e-3) or steps * 1e-3)
with watch.phase("warm-up", 0.1):
    run(5)
    if sys.argv[3] == "sleep":
        run(100000)  # 100 s in a call that releases the GIL, as OpenMM's step() does
    else:
        ctypes.PyDLL(None).sleep(100)  # 100 s in a call that holds it
"""
with tempfile.TemporaryDirectory() as tmp:
    rec = os.path.join(tmp, "record.json")
    for how, status, line in (("sleep", 3, 17), ("hold", 1, 19)):
        t0 = time.monotonic()
        done = subprocess.run([sys.executable, "-c", WATCHED, os.path.join(source, "scripts", "peers"), rec, how],
                              capture_output=True, text=True, timeout=60)
        spent, records = time.monotonic() - t0, json.load(open(rec))
        assert done.returncode == status and spent < 10, (how, done.returncode, spent, done.stderr)
        assert "context: begins (budget 0.2 s)" in done.stderr and records[0].startswith("stopped in context"), records
        assert records[1].startswith("stopped in warm-up (budget 0.3 s): the process ended there"), records
        assert f'File "<string>", line {line} in <module>' in done.stderr, done.stderr  # the main thread's stack
        if how == "sleep":
            assert len(records) == 3 and records[2].startswith("warm-up passed its budget of 0.3 s ("), records
            assert ("5 steps done, 100000 in the call still running; the main thread was in <lambda> (<string>:13), "
                    "called from counted (phase_watch.py:") in records[2], records
            assert records[2].endswith("), called from <module> (<string>:17)"), records
            assert f"watchdog: {records[2]}; every thread's stack:" in done.stderr, done.stderr
        else:
            assert len(records) == 2 and "Timeout (0:00:00.6" in done.stderr, (records, done.stderr)

# g(r) (rdf.py): two independent ideal gases agree within 5 standard errors in every bin;
# an ideal gas and a fluid with a hard core (no pair within 0.9) do not. The standard
# error comes from the 64 blocks, about 1/sqrt(pairs in a bin): 0.01 at r = 0.5 here.
import numpy as np  # noqa: E402
import rdf  # noqa: E402

rng = np.random.default_rng(58)
box = np.array([16.0, 16.0, 16.0])
gas = [(rng.random((12000, 3)) * box, box) for _ in range(2)]
same = rdf.compare(gas[0], gas[1])
assert same["pass"] and same["max_difference_over_bound"] < 1, rdf.summary(same)
assert len(same["r"]) == 40 and abs(same["r"][0] - 0.525) < 1e-9 and abs(same["r"][-1] - 2.475) < 1e-9, same["r"]
assert all(0.002 < e < 0.03 for e in same["se_ours"]), same["se_ours"]
assert all(abs(g - 1) < 0.05 for g in same["g_ours"]), same["g_ours"]
k = 22  # a jittered simple cubic lattice: no pair closer than 16/22 - 2 * 0.05 = 0.63
lattice = (np.stack(np.meshgrid(*[np.arange(k)] * 3, indexing="ij"), -1).reshape(-1, 3) + 0.5) * box / k
hard = (lattice + rng.uniform(-0.05, 0.05, lattice.shape), box)
differ = rdf.compare(hard, gas[0])
assert not differ["pass"] and differ["g_peer"][0] == 0.0, rdf.summary(differ)
assert len(rdf.summary(differ)) <= 100, rdf.summary(differ)
with tempfile.TemporaryDirectory() as tmp:  # a peer's frame round-trips through its .npz
    rdf.write_frame(os.path.join(tmp, "f.npz"), *gas[0])
    x, b = rdf.read_frame(os.path.join(tmp, "f.npz"))
    assert x.shape == (12000, 3) and np.allclose(x, gas[0][0], atol=1e-5) and list(b) == [16.0] * 3
try:
    rdf.rdf(gas[0][0], [4.0, 16.0, 16.0])
    raise AssertionError("r_max over half the box was taken")
except ValueError as e:
    assert "not under half the box" in str(e), e

# The SRD peer: LAMMPS cannot set the case's rotation (130 deg about a random axis), so the
# case is recorded as not run and the closest fluid (90 deg, Cartesian axes) is labelled.
import lammps_srd_peer as srd  # noqa: E402

kin, col = srd.kinetic_theory_viscosity(10, 1.0, 0.1, 130)  # validation/srd-viscosity/README.md's
assert abs(kin - 0.486269) < 1e-6 and abs(col - 8.213979) < 1e-6, (kin, col)
kin, col = srd.kinetic_theory_viscosity(10, 1.0, 0.1, 90)
assert abs(col - (10 - 1 + np.exp(-10)) / 1.8) < 1e-12 and 0.4 < kin < 0.45, (kin, col)
fluid = pc.suite_cases(mesobench, "srd-fluid/.*L=10$", [], "peers_offline")["results"][0]
assert "130 deg about a random axis" in srd.refuse(fluid), srd.refuse(fluid)
near = srd.closest_case(fluid)
assert near["parameters"]["angle"] == 90 and near["name"].split("/")[3] == "rotation=90-cartesian", near["name"]
assert srd.refuse(near) is None and near["parameters"]["rho"] == fluid["parameters"]["rho"]
lines = srd.srd_commands((10, 10, 10), 10000, near["parameters"], 7, False)
assert any(l.startswith("fix srd all srd 1 NULL 1.0 1.0 9 shift yes 10 rescale no tstat no") for l in lines), lines
assert f"timestep {near['parameters']['dt']!r}" in lines and "create_atoms 1 random 10000 7 NULL" in lines, lines


class Visc:
    viscosity_z, viscosity_floor = 3.0, 0.02


ok = srd.check_viscosity({"eta": 5.6, "se": 0.1}, {"eta": 5.4, "se": 0.1, "source": "x"}, 5.43, Visc)
assert ok["pass"] and abs(ok["bound"] - (3 * np.hypot(0.1, 0.1) + 0.108)) < 1e-12, ok
try:
    srd.check_viscosity({"eta": 6.0, "se": 0.1}, {"eta": 5.4, "se": 0.1, "source": "x"}, 5.43, Visc)
    raise AssertionError("a viscosity 0.6 off passed a bound of 0.53")
except pc.PhysicsMismatch as e:
    assert "so its speed is not quoted" in str(e) and e.check["viscosity"]["pass"] is False, e
print("peers offline: all ok")
