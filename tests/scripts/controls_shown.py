#!/usr/bin/env python3
"""Every negative control of the program is shown to fail (scripts/controls_shown.py
on `mesobench list --controls`), and the check says no where it must: a device
control without a result, a result that does not exist, the gate's own passing
run, a control the gate accepted, a short form for a long-form control, and a
malformed line. Usage: tests/scripts/controls_shown.py ROOT MESOBENCH"""
import os
import re
import subprocess
import sys
import tempfile

ROOT, MESOBENCH = sys.argv[1], sys.argv[2]
SCRIPT = os.path.join(ROOT, "scripts", "controls_shown.py")
G = "results/validation/gates-h200-2026-11-29/"
failures = []


def check(*args):
    p = subprocess.run([sys.executable, SCRIPT, "--root", ROOT] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def expect(what, got, want_rc, *want):
    rc, out = got
    missing = [w for w in want if not re.search(w, out)]
    if rc != want_rc or missing:
        failures.append("%s: exit %d (want %d), missing %s\n%s" % (what, rc, want_rc, missing, out))


expect("the program's controls", check("--mesobench", MESOBENCH), 0, r"controls_shown: \d+ controls, 0 not shown")

planted = [
    ("ibi-melt\talpha-0.02\tdevice\talpha=0.02\t" + G + "control-ibi-melt-alpha-0.02-short-double-s1.json.xz",
     0, r"1 controls, 0 not shown"),
    ("ibi-melt\talpha-0.02\tdevice\talpha=0.02\t", 1, r"alpha-0.02: no committed result shows it"),
    ("ibi-melt\talpha-0.02\tdevice\talpha=0.02\t" + G + "no-such.json.xz", 1, r"no-such\.json\.xz does not exist"),
    # The gate's own run (it passed, and ran no control).
    ("ssd-water\tlangevin-kT-1.1\tdevice\tlangevin_kT=1.1\t" + G + "ssd-water-long-double-s12.json.xz", 1,
     r"did not run control langevin-kT-1\.1", r"did not reject it"),
    # A control the gate accepted (the Gay-Berne gate's doubled step, 2026-11-29).
    ("nve-drift-rigid\tdt-x2\tdevice\tdt_factor=2\t" + G + "control-nve-drift-rigid-dt-x2-short-double-s1.json.xz", 1,
     r"did not reject it \(the gate passed\)"),
    # Another case's result.
    ("table-melt\tbond-k-1.02\tdevice\tbond_k_scale=1.02\t" + G + "control-ibi-melt-alpha-0.02-short-double-s1.json.xz",
     1, r"holds no result of table-melt"),
    # A long-form control shown by a short form.
    ("janus-assembly\tno-attraction\tdevice-long\ta_att=0\t" + G +
     "control-janus-assembly-no-attraction-short-double-s1.json.xz", 1, r"is not the long form"),
]
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "list.tsv")
    for entry in planted:
        line, rc, wants = entry[0], entry[1], entry[2:]
        with open(path, "w") as f:
            f.write(line + "\n")
        expect("planted %r" % line[:60], check("--list", path), rc, *wants)
    with open(path, "w") as f:
        f.write("ibi-melt\talpha-0.02\tsomewhere\t\t\n")
    expect("a malformed line", check("--list", path), 2, r"line 1 is not case, control, where")

for f in failures:
    print("FAIL", f)
print("controls_shown: %d failures" % len(failures))
sys.exit(1 if failures else 0)
