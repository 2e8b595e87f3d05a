#!/usr/bin/env bash
# One results schema (docs/results.schema.json, docs/results.md):
#  1. every committed result under results/ validates against it;
#  2. it is not vacuous: committed files with a required field removed or a
#     value out of range are rejected;
#  3. fresh output of `mesobench run --json`, `validate --json` (whole, shard
#     and merge) validates too.
# Usage: results_schema.sh <mesobench> <source dir>. Exit 77 (skip) when the
# jsonschema module is missing (scripts/install-deps.sh installs it).
set -euo pipefail
B=$1 S=$2
V=$S/scripts/validate_results.py
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

rc=0
python3 "$V" "$S/results" || rc=$?
[[ $rc -eq 77 ]] && exit 77
[[ $rc -eq 0 ]] || { echo "committed results do not follow the schema" >&2; exit 1; }

python3 - "$S" "$T" <<'PY'
import copy, json, sys
src, out = sys.argv[1:3]
bench = json.load(open(f"{src}/results/cuda-dpd/issue13/step-default-mixed.json"))
val = json.load(open(f"{src}/results/srd/srd-momentum-long-mixed.json"))
gbench = json.load(open(f"{src}/results/cuda-dpd/table2-nlist.json"))
def broken(doc, edit):
    d = copy.deepcopy(doc); edit(d); return d
cases = {
    "no-commit": broken(bench, lambda d: d["provenance"].pop("git_commit")),
    "bad-date": broken(bench, lambda d: d["provenance"].update(date_utc="yesterday")),
    "negative-tps": broken(bench, lambda d: d["results"][0].update(tps_median=-1.0)),
    "no-repeats": broken(bench, lambda d: d["results"][0].update(tps=[])),
    "unknown-backend": broken(bench, lambda d: d["results"][0].update(backend="gpu3")),
    "wrong-kind": broken(bench, lambda d: d.update(kind="validation")),
    "no-verdict": broken(val, lambda d: d["cases"][0].pop("passed")),
    "no-series": broken(val, lambda d: d["cases"][0]["data"].pop("px")),
    "bad-form": broken(val, lambda d: d.update(form="medium")),
    # Neither the document nor its cases say what variant ran.
    "no-variant": broken(val, lambda d: d.pop("variant")),
    "gbench-no-time": broken(gbench, lambda d: d["benchmarks"][0].pop("real_time")),
}
for name, doc in cases.items():
    json.dump(doc, open(f"{out}/{name}.json", "w"))
PY
for f in "$T"/*.json; do
  if python3 "$V" "$f" > "$T/out.txt"; then
    echo "schema accepted a broken file: $(basename "$f")" >&2; exit 1
  fi
  grep -q "invalid as" "$T/out.txt" || { cat "$T/out.txt"; exit 1; }
done
echo "schema rejects the 11 broken files"
rm -f "$T"/*.json

quick=(--backend cpu --repeats 2 --min-time 0.01 --warmup-time 0 --quiet)
"$B" run --filter 'dpd-fluid/.*rho=3/rc=1/.*N=8192$' "${quick[@]}" --json "$T/run-dpd.json" > /dev/null
"$B" run --filter 'srd-fluid/.*L=10$' "${quick[@]}" --json "$T/run-srd.json" > /dev/null
srd=(validate --filter srd-momentum --backend cpu --param L=4 --param collisions=20 --quiet)
"$B" "${srd[@]}" --json "$T/val.json" > /dev/null
tr=(validate --filter poiseuille-transient --backend cpu --param runs=2 --param max_time=200
    --param steady_runs=1 --param steady_production=20 --quiet)
"$B" "${tr[@]}" --shard 0/2 --json "$T/s0.json" > /dev/null
"$B" "${tr[@]}" --shard 1/2 --json "$T/s1.json" > /dev/null
"$B" validate --merge "$T/s0.json" "$T/s1.json" --json "$T/merged.json" > /dev/null
python3 "$V" -v "$T"
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
for f, kind in (("run-dpd", "benchmark"), ("run-srd", "benchmark"), ("val", "validation"),
                ("s0", "validation"), ("merged", "validation")):
    d = json.load(open(f"{t}/{f}.json"))
    assert d.get("kind") == kind and d.get("schema_version") == 1, (f, d.get("kind"), d.get("schema_version"))
print("fresh output carries kind and schema_version")
PY
