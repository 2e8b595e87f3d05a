#!/usr/bin/env bash
# The CLI end to end on a tiny case: list, run with JSON (provenance fields
# present, TPS positive), and the default-suite names.
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Outputs go to files before grep: `cmd | grep -q` under pipefail fails at
# random when grep exits first and cmd is killed by SIGPIPE.
"$bin" list --names > "$work/list.txt"
grep -q '^dpd-fluid/step/cpu/reorder=cell,sort=100,precision=double,rng=philox/rho=3/rc=1/s=0.5/N=8192  \[default\]$' "$work/list.txt"
# Without --names, grouped by variant: the variant's line, then the parameters.
"$bin" list > "$work/list.txt"
grep -A1 '^dpd-fluid/step/cpu/reorder=cell,sort=100,precision=double,rng=philox/$' "$work/list.txt" \
  > "$work/group.txt"
grep -q '^    rho=3/rc=1/s=0.5/N=8192  \[default\]$' "$work/group.txt"
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
assert r["variant_ignored_axes"] == ("nlist,cells,pow,fuse,tpp,noise,gather,density,"
                                     "graphs,overlap,vote,solvent_graphs,solvent_capacity"), r
assert prov["diagnostics"] == "", prov
assert r["variant_default"] == "reorder=cell,sort=100" and r["variant_given"] == "", r
# A few dozen steps from a random start: still heating from the initial
# overlaps, so only sanity is checked here (dpd-temperature validates T).
assert 0.0 < r["final_thermo"]["temperature"] < 10.0, r
print("smoke ok:", r["name"], round(r["tps_median"], 1), "TPS")
PY

# Per-workload default variants: the table answers without a device, the GPU
# defaults are mixed (dpd-fluid, lj-liquid), and a run records the default it
# started from and the axes --variant gave over it.
"$bin" list --variants > "$work/variants.txt"
grep -q '^dpd-fluid cuda mixed precision=mixed,nlist=half,reorder=morton2,sort=100,pow=fast,fuse=on,noise=fp32  \[default\]$' "$work/variants.txt"
grep -q '^dpd-fluid cuda double precision=double,reorder=morton2,sort=100,pow=fast,fuse=on$' "$work/variants.txt"
grep -q '^lj-liquid cuda mixed precision=mixed,nlist=tiled,reorder=morton2,sort=100,tpp=4  \[default\]$' "$work/variants.txt"
grep -q '^dpd-fluid cpu double reorder=cell,sort=100  \[default\]$' "$work/variants.txt"
# Then every axis with its values and default, the schedule axes too.
grep -q '^    nlist ballot|atomic|tiled|half|cluster|cells: ballot$' "$work/variants.txt"
grep -q '^    graphs on|off: on$' "$work/variants.txt"
grep -q '^    overlap off|on|always: off$' "$work/variants.txt"
awk '/^    / && length > 100 { bad = 1 } END { exit bad }' "$work/variants.txt"
"$bin" run --filter 'rho=3/rc=1/s=0.5/N=8192$' --backend cpu --variant rng=tea,sort=10 --repeats 1 \
  --min-time 0.01 --warmup-time 0 --json "$work/v.json" > /dev/null
python3 - "$work/v.json" <<'PY'
import json, sys
(r,) = json.load(open(sys.argv[1]))["results"]
assert r["variant_given"] == "sort=10,rng=tea", r["variant_given"]
assert r["variant_default"] == "reorder=cell,sort=100", r["variant_default"]  # the cpu default: cell order
assert "rng=tea" in r["variant_requested"] and "sort=10" in r["variant_requested"], r
assert r["variant"] == "reorder=cell,sort=10,precision=double,rng=tea", r["variant"]
print("variant defaults ok:", r["variant"])
PY

# Every help screen fits 100 columns (descriptions are wrapped at spaces:
# benchmarks/mesobench/cli/help_formatter.hpp); `help` names the program.
for sub in "" list run validate compare report morphology scale scale-point tune ibi help; do
  "$bin" $sub --help > "$work/help.txt"
  awk -v s="${sub:-mesobench}" 'length($0) > 100 { print "FAIL: help of " s " has a line of " length($0) \
    " columns: " $0; bad = 1 } END { exit bad }' "$work/help.txt"
done
"$bin" help > "$work/help.txt"
grep -q '^Usage: mesobench \[OPTIONS\] \[SUBCOMMAND\]$' "$work/help.txt"
echo "help screens ok"
