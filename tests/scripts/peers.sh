#!/usr/bin/env bash
# scripts/peers/openmm_peer.py (issue 58): the suite's dpd-fluid and lj-liquid
# cases, from mesobench's own definitions, run in OpenMM on the CPU and are
# written in the results schema with the engine, its version and settings;
# a case whose physics check fails is recorded with the reason, not timed;
# its potential energy per particle is checked against mesobench's own run
# of the case; a phase past its budget is stopped by the driver's watchdog and
# recorded; an existing output is refused. Exit 77 (skip) without OpenMM
# (pip install openmm) or jsonschema.
# Usage: peers.sh <mesobench> <source dir>
set -euo pipefail
B=$1 S=$2
P=$S/scripts/peers/openmm_peer.py
if ! python3 -c 'import openmm, jsonschema' 2>/dev/null; then
  echo "OpenMM or jsonschema missing (pip install openmm jsonschema): peers not checked"
  exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# Small and short: the smoke test of the driver, not a measurement.
small=(--mesobench "$B" --repeats 3 --min-time 0.05 --warmup-time 0.05 --equilibrate-steps 300 --cpu-threads 1)
# mesobench's own run of the same cases: its final potential energy per particle (4.6 for
# DPD, -2.5 for LJ; one 500-particle snapshot, which scatters by about 0.05) is the check's.
OMP_NUM_THREADS=1 "$B" run --backend cpu --filter 'dpd-fluid/.*/rho=3/rc=1/s=0.5/N=8192$|lj-liquid/.*N=64000$' \
  --param N=500 --repeats 1 --steps 400 --quiet --json "$T/ours.json" > /dev/null
# and its final frames, which the peer's g(r) is checked against (rdf.py)
for w in 'dpd-fluid/.*/rho=3/rc=1/s=0.5/N=8192$' 'lj-liquid/.*N=64000$'; do
  OMP_NUM_THREADS=1 "$B" run --backend cpu --filter "$w" --param N=500 --steps 400 --every 400 --quiet \
    --trajectory "$T/ours-${w%%/*}.h5md" > /dev/null
done
python3 "$P" "${small[@]}" --filter 'dpd-fluid/.*/rho=3/rc=1/s=0.5/N=8192$|lj-liquid/.*N=64000$' --param N=500 \
  --temperature-tolerance 0.5 --reference "$T/ours.json" --potential-tolerance 0.05 --potential-floor 0.1 \
  --reference-frame "$T/ours-dpd-fluid.h5md" --reference-frame "$T/ours-lj-liquid.h5md" --frames "$T/frames" \
  -o "$T/peer.json"
python3 "$S/scripts/validate_results.py" "$T/peer.json"
python3 - "$T/peer.json" "$T/ours.json" <<'PY'
import json, sys
import openmm
doc = json.load(open(sys.argv[1]))
ours = {r["workload"]: r for r in json.load(open(sys.argv[2]))["results"]}
got = {r["workload"]: r for r in doc["results"]}
assert set(got) == {"dpd-fluid", "lj-liquid"}, (sorted(got), doc["peer_failures"])
for w, r in got.items():
    # g(r) against our final frame of the same case, every bin within 5 combined errors
    rdf = r["peer"]["check"]["rdf"]
    assert rdf["pass"] and rdf["z"] == 5 and len(rdf["r"]) == 40, rdf
    assert rdf["reference_frame"] == f"ours-{w}.h5md", rdf["reference_frame"]
    assert abs(rdf["max_abs_difference"]) <= rdf["bound_there"], rdf
    peer = r["peer"]
    assert peer["engine"] == "openmm" and peer["version"] == openmm.version.full_version, peer
    assert peer["platform"] == "CPU" and peer["platform_properties"]["Threads"] == "1", peer
    assert r["backend"] == "cpu" and r["variant"] == "engine=openmm,platform=CPU", r
    assert r["N"] == 500 and r["tps_median"] > 0 and len(r["tps"]) == 3, r
    assert peer["suite_case"].startswith(w + "/") and "/N=500" in peer["suite_case"], peer
    # The suite's parameters, as its own run recorded them.
    assert r["parameters"]["kT"] == (1.0 if w == "dpd-fluid" else 1.2) and r["parameters"]["dt"] == 0.005, r
    assert abs(r["final_thermo"]["temperature"] - r["parameters"]["kT"]) <= 0.5 * r["parameters"]["kT"], r
    # The potential energy per particle against ours, within the stated bound.
    check, u = peer["check"], ours[w]["final_thermo"]["potential_energy_per_particle"]
    assert check["reference"] == ours[w]["name"] and check["potential_energy_per_particle_reference"] == u, check
    assert abs(check["potential_energy_per_particle"] - u) <= 0.05 * abs(u) + 0.1, check
assert "s" in got["dpd-fluid"]["peer"]["differs"], got["dpd-fluid"]["peer"]
assert got["lj-liquid"]["peer"]["settings"]["shift"] < 0, got["lj-liquid"]["peer"]["settings"]
assert doc["provenance"]["compiler"].startswith("OpenMM ") and doc["peer_failures"] == [], doc
print("peers ok:", {w: round(r["tps_median"], 1) for w, r in got.items()})
PY
for w in dpd-fluid lj-liquid; do  # each case's final frame, for rdf.py
  [[ -s $T/frames/openmm-$w-N500.npz ]] || { echo "FAIL: no final frame of $w under --frames"; exit 1; }
done
# A physics check that fails: the case is listed with the reason, no speed.
rc=0
python3 "$P" "${small[@]}" --filter 'dpd-fluid/.*/rho=3/rc=1/s=0.5/N=8192$' --param N=500 \
  --temperature-tolerance 1e-9 -o "$T/strict.json" 2> "$T/strict.err" || rc=$?
[[ $rc -eq 1 ]] || { echo "FAIL: a failed physics check exited $rc"; exit 1; }
python3 - "$T/strict.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["results"] == [] and len(doc["peer_failures"]) == 1, doc
assert "so its speed is not quoted" in doc["peer_failures"][0]["reason"], doc["peer_failures"]
print("a failed physics check is recorded, not timed")
PY
# A phase past its budget (a million untimed steps, 1 s): the watchdog stops the driver inside
# OpenMM's step() with exit 3, prints every thread's stack and records where it was.
rc=0
python3 "$P" "${small[@]}" --filter 'lj-liquid/.*N=64000$' --param N=500 --equilibrate-steps 1000000 \
  --phase-seconds 1 -o "$T/hung.json" 2> "$T/hung.err" || rc=$?
[[ $rc -eq 3 ]] || { echo "FAIL: a phase past its budget exited $rc"; cat "$T/hung.err"; exit 1; }
grep -q 'File ".*openmm\.py", line [0-9]* in step' "$T/hung.err" || { echo "FAIL: no stack"; exit 1; }
python3 - "$T/hung.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
reason = doc["peer_failures"][0]["reason"] if len(doc["peer_failures"]) == 1 else doc
assert doc["results"] == [] and reason.startswith("untimed steps passed its budget of 1 s ("), reason
assert " steps done, " in reason and "the main thread was in step (openmm.py:" in reason, reason
print("a phase past its budget is stopped and recorded:", reason[:90])
PY
rc=0; python3 "$P" "${small[@]}" --filter x -o "$T/peer.json" 2> "$T/err" || rc=$?
[[ $rc -eq 2 ]] && grep -q "exists: give a new file" "$T/err" || { echo "FAIL: an existing output was not refused"; exit 1; }
echo "peers: all ok"
