#!/usr/bin/env bash
# The CLI end to end on a tiny case: list, run with JSON (provenance fields
# present, TPS positive), and the default-suite names.
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Outputs go to files before grep: `cmd | grep -q` under pipefail fails at
# random when grep exits first and cmd is killed by SIGPIPE.
"$bin" list > "$work/list.txt"
grep -q '^dpd-fluid/step/cpu/reorder=none,sort=0,precision=double,rng=philox/rho=3/rc=1/s=0.5/N=8192  \[default\]$' "$work/list.txt"
"$bin" list --filter 'rho=50' > "$work/list50.txt"
grep -q 'rho=50' "$work/list50.txt"
"$bin" run --filter 'rho=3/rc=1/s=0.5/N=8192$' --backend cpu --repeats 2 --min-time 0.05 \
  --warmup-time 0.05 --json "$work/r.json" > "$work/table.txt"
grep -q 'MPS/s' "$work/table.txt"
python3 - "$work/r.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
prov = doc["provenance"]
for key in ("git_commit", "compiler", "build_type", "cpu_model", "date_utc"):
    assert prov[key], key
(r,) = doc["results"]
assert r["N"] == 8192 and r["backend"] == "cpu", r
assert r["tps_median"] > 0 and r["tps_min"] <= r["tps_median"] <= r["tps_max"], r
assert abs(r["mps_median"] - r["tps_median"] * 8192e-6) < 1e-9 * r["mps_median"], r
assert r["variant_ignored_axes"] == "nlist,cells,pow,fuse,tpp", r
# A few dozen steps from a random start: still heating from the initial
# overlaps, so only sanity is checked here (dpd-temperature validates T).
assert 0.0 < r["final_thermo"]["temperature"] < 10.0, r
print("smoke ok:", r["name"], round(r["tps_median"], 1), "TPS")
PY
