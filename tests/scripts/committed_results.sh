#!/usr/bin/env bash
# The committed results hold what the docs cite, and stay reproducible and plottable:
#  0. every results/ file a doc, script or test cites exists, and results/
#     stays within its budget (scripts/results_citations.py; issue 58); the
#     check fails on a planted dangling citation and on a lowered budget;
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
C=$S/scripts/results_citations.py
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

python3 "$C" --root "$S"
# The check is not vacuous: a tree (no git: every file counts) with a doc
# that cites a missing result, and one whose results/ is over a budget.
R=results  # spelled through $R so that the checker does not read these lines as citations
mkdir -p "$T/tree/$R/exp" "$T/tree/docs"
head -c 2000 /dev/zero > "$T/tree/$R/exp/summary.json"
echo "See [the summary](../$R/exp/summary.json)." > "$T/tree/docs/ok.md"
python3 "$C" --root "$T/tree" > /dev/null
python3 "$C" --root "$T/tree" --budget 1999 > /dev/null 2> "$T/err" && { echo "a results/ over budget passed" >&2; exit 1; }
grep -q "results/ holds 2000 bytes in 1 files, over its budget of 1999" "$T/err"
echo "And \`$R/exp/gone.json\`." >> "$T/tree/docs/ok.md"
python3 "$C" --root "$T/tree" > /dev/null 2> "$T/err" && { echo "a dangling citation passed" >&2; exit 1; }
grep -qx "docs/ok.md:2: cites $R/exp/gone.json, which is not in results/" "$T/err"
echo "citations and budget ok; a dangling citation and a lowered budget fail"

# Files over 60 kB are stored xz-compressed; `validate --merge` reads plain JSON.
for i in {0..9}; do
  xz -dc "$S/results/validation/poiseuille-transient-long-shards/transient-$i.json.xz" > "$T/transient-$i.json"
done
"$B" validate --merge "$T"/transient-{0..9}.json --json "$T/transient.json" > "$T/merge.txt"
python3 - "$T/transient.json" "$S/results/validation/poiseuille-transient-long.json.xz" "$S/scripts" <<'PY'
import json, lzma, sys
new, old = (json.load((lzma.open if p.endswith(".xz") else open)(p, "rt"))["cases"][0] for p in sys.argv[1:3])
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
python3 "$S/scripts/plot_nve_drift.py" "$S"/results/validation/nve-drift-long-{shift,xplor}-{double,mixed,single}.json.xz -o nve.png
python3 "$S/scripts/plot_dpd_temperature.py" "$S/results/validation/dpd-temperature-short.json.xz" -o dpd.png
python3 "$S/scripts/plot_lj_liquid.py" "$S"/results/cuda-lj/lj-liquid-*.json -o lj.png
python3 "$S/scripts/plot_living_polymerization.py" "$S/results/validation/living-polymerization-long.json" -o lp.png
for f in transient.png nve.png dpd.png lj.png lp.png; do
  [[ $(stat -c %s "$f") -gt 10000 ]] || { echo "$f is empty or tiny" >&2; exit 1; }
done
echo "plots drawn"
