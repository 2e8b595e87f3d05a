#!/usr/bin/env python3
"""scripts/janus_dt_convergence.py says no where it must: the committed Langevin
runs at dt = 0.005 and 0.001 are not converged; made-up series at dt, dt/2
and dt/4 are converged only while they agree within the band, hold the bulk
at kT and have few fast particles; seeds too far apart leave it unsettled;
the gate mode fails a run below its bounds; the seeds mode (the second
experiment) takes the larger step only when its mean ordering time and
plateau agree with the smaller step's, falls back to the smaller step when
they do not, and settles nothing when a run never orders; a file that is no
result is refused with exit 2. Usage: tests/scripts/janus_dt_convergence.py [root]"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCRIPT = os.path.join(ROOT, "scripts", "janus_dt_convergence.py")
COMMITTED = os.path.join(ROOT, "results", "orientation", "janus-berendsen-h200", "7-time-step-h100")
failures = []


def reading(*args):
    p = subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def expect(what, rc, out, want_rc, *want):
    """Exit status want_rc and every regular expression of `want` in the output."""
    missing = [w for w in want if not re.search(w, out)]
    if rc != want_rc or missing:
        failures.append("%s: exit %d (want %d), missing %s\n%s" % (what, rc, want_rc, missing, out))


def q_of(t, delay=0.0):
    """A sigmoid from 0 to 0.8 through 0.4 at t = 150 + delay."""
    x = (t - 150.0 - delay) / 30.0
    return 0.8 / (1.0 + 2.718281828 ** (-x))


def result(folder, name, dt, seed, t_end, delay=0.0, bump=0.0, bulk=1.0, hot=0, facing=0.55):
    samples = []
    for k in range(31):
        t = t_end * k / 30
        samples.append({"time": t, "local_order": q_of(t, delay) + (bump if k == 15 else 0.0), "facing": facing,
                        "bulk_temperature": bulk, "hot": hot if k == 20 else 0})
    doc = {"cases": [{"name": "janus-assembly", "data": {"integrator": "langevin", "dt": dt, "kT": 1.0,
                                                        "time_end": t_end,
                                                        "runs": [{"seed": seed, "samples": samples}]}}]}
    path = os.path.join(folder, name + ".json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def experiment(folder, **change):
    """The experiment's four runs; `change` alters the dt = 0.0005 run, or
    (key s12_delay) delays seed 12's ordering."""
    delay12 = change.pop("s12_delay", 3.0)
    return [result(folder, "a", 0.002, 11, 600.0, delay=2.0),
            result(folder, "b", 0.001, 11, 300.0, delay=0.0),
            result(folder, "c", 0.001, 12, 600.0, delay=delay12),
            result(folder, "d", 0.0005, 11, 300.0, **change)]


with tempfile.TemporaryDirectory() as tmp:
    rc, out = reading(os.path.join(COMMITTED, "l005.json.xz"), os.path.join(COMMITTED, "l001.json.xz"))
    expect("committed Langevin dt 0.005 against 0.001", rc, out, 1, r"langevin +1 +0\.005 +0\.001 +0\.668 .*NOT converged",
           "langevin: no step converged")

    rc, out = reading(*experiment(tmp))
    # Seed 12 reaches 0.7 at t = 220 (sampled every 20), so t_end = 2 x 220 rounded up to 500.
    expect("agreeing series", rc, out, 0, "band B = 0.050", r"11 +0\.002 +0\.001 .* converged",
           r"11 +0\.001 +0\.0005 .* converged", "langevin: the gate's step 0.002; t_end 500")

    rc, out = reading(*experiment(tmp, bump=0.08))
    expect("dt/4 off by 0.08 once", rc, out, 1, r"0\.0005 +0\.080 .*NOT converged", "langevin: no step converged")

    rc, out = reading(*experiment(tmp, bulk=1.04))
    expect("dt/4 bulk at 1.04 kT", rc, out, 1, r"1\.000/1\.040 .*NOT converged", "langevin: no step converged")

    rc, out = reading(*experiment(tmp, hot=5))
    expect("5 fast particles once", rc, out, 1, r" 5  NOT converged")

    rc, out = reading(*experiment(tmp, s12_delay=40.0))
    expect("seeds 40 time units apart", rc, out, 1, "cannot resolve a dependence on dt: not settled")

    # Seeds 16 time units apart differ by 0.106: the band widens to it, and 0.08 passes.
    rc, out = reading(*experiment(tmp, s12_delay=16.0, bump=0.08))
    expect("seed spread 0.106 widens the band", rc, out, 0, r"band B = 0\.106", r"0\.0005 +0\.080 .* converged")

    rc, out = reading("--gate", result(tmp, "g1", 0.001, 21, 600.0), result(tmp, "g2", 0.001, 22, 600.0, delay=400))
    expect("gate", rc, out, 1, r"0\.001 +21 +600 +0\.800 .*pass", r"0\.001 +22 +600 +0\.673 .*FAIL")
    # 31 samples of 24,000 particles at the rate of dt = 0.002: 14.4 expected, 29.6 allowed.
    rc, out = reading("--gate", result(tmp, "g3", 0.002, 23, 500.0, hot=29), result(tmp, "g4", 0.002, 24, 500.0, hot=31))
    expect("gate's fast particles", rc, out, 1, r"0\.002 +23 +500 .* 29/29\.6  pass", r"0\.002 +24 +500 .* 31/29\.6  FAIL")

    # The seeds mode: three seeds a step to t = 400; Q reaches 0.7 near t = 209 + delay.
    def seeds_runs(delays_big, delays_small):
        return ([result(tmp, "sb%d" % k, 0.002, 31 + k, 400.0, delay=d) for k, d in enumerate(delays_big)] +
                [result(tmp, "ss%d" % k, 0.001, 31 + k, 400.0, delay=d) for k, d in enumerate(delays_small)])

    rc, out = reading("--seeds", *seeds_runs([0, 20, -10], [10, 30, 0]))
    # t70 means 212 and 222 (SE 8.8 each): 10 against 37; the latest at 0.002, 228.6 -> 500.
    expect("seeds agree", rc, out, 0, r"\|t70 difference\| 10\.\d against 37\.\d",
           r"the gate's step 0\.002 \(converged against 0\.001\); t_end 500")

    rc, out = reading("--seeds", *seeds_runs([0, 20, -10], [100, 120, 90]))
    expect("seeds 100 apart", rc, out, 1, r"\|t70 difference\| 100\.\d against 37\.\d",
           r"the gate's step 0\.001 \(the smallest step run with several seeds, not shown converged\); t_end 700")

    rc, out = reading("--seeds", *seeds_runs([0, 20, 400], [10, 30, 0]))
    expect("a run never ordering", rc, out, 1, r"0\.002 +33 +never", "langevin: not settled")

    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write("not json\n")
    rc, out = reading(bad)
    expect("a file that is no result", rc, out, 2, r"bad\.json is not a janus-assembly result")
    if out.count("\n") != 1:
        failures.append("the refusal is not one line: %r" % out)

for f in failures:
    print("FAIL", f)
print("janus_dt_convergence: %d failures" % len(failures))
sys.exit(1 if failures else 0)
