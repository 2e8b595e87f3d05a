#!/usr/bin/env bash
# The committed long-form results stay reproducible and plottable:
#  1. joining the committed poiseuille-transient shards with today's analysis
#     gives exactly the committed merged result (a change to the analysis
#     must come with regenerated results);
#  2. the plotting scripts draw the committed results (validation and
#     lj-liquid, living-polymerization), and the provenance line
#     of a merged result names where its shards ran, not where they were joined.
# Usage: committed_results.sh <mesobench> <source dir>. Exit 77 (skip) only for
# part 2 when matplotlib is missing.
set -euo pipefail
B=$1 S=$2
R=$S/results/validation
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

"$B" validate --merge "$R"/poiseuille-transient-long-shards/transient-{0..9}.json --json "$T/transient.json" \
  > "$T/merge.txt"
python3 - "$T/transient.json" "$R/poiseuille-transient-long.json" "$S/scripts" <<'PY'
import json, sys
new, old = (json.load(open(p))["cases"][0] for p in sys.argv[1:3])
for key in ("measured", "uncertainty", "tolerance", "passed"):
    assert new[key] == old[key], f"{key}: re-merged {new[key]} != committed {old[key]}"
for a, b in zip(new["data"]["times"], old["data"]["times"]):
    assert a["l2_relative"] == b["l2_relative"], f"T = {a['time']}: {a['l2_relative']} != {b['l2_relative']}"
assert new["data"]["nu"] == old["data"]["nu"]
sys.path.insert(0, sys.argv[3])
from validation_provenance import provenance_line
line = provenance_line(json.load(open(sys.argv[1])))
for want in ("93f94b95e83e-dirty", "66d14840ed0e", "GPU NVIDIA H200", "backend cuda", "merged from 10 shards"):
    assert want in line, f"provenance line lacks {want!r}: {line}"
print("re-merged transient long form equals the committed one; provenance:", line)
PY

if ! python3 -c 'import matplotlib' 2>/dev/null; then
  echo "matplotlib missing: plots not checked"
  exit 77
fi
cd "$T"
python3 "$S/scripts/plot_poiseuille.py" transient.json -o transient.png
python3 "$S/scripts/plot_nve_drift.py" "$R"/nve-drift-long-{shift,xplor}-{double,mixed,single}.json.xz -o nve.png
python3 "$S/scripts/plot_dpd_temperature.py" "$R/dpd-temperature-short.json" -o dpd.png
python3 "$S/scripts/plot_lj_liquid.py" "$S"/results/cuda-lj/lj-liquid-*.json -o lj.png
python3 "$S/scripts/plot_living_polymerization.py" "$R/living-polymerization-long.json" -o lp.png
for f in transient.png nve.png dpd.png lj.png lp.png; do
  [[ $(stat -c %s "$f") -gt 10000 ]] || { echo "$f is empty or tiny" >&2; exit 1; }
done
echo "plots drawn"
