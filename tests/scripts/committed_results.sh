#!/usr/bin/env bash
# The committed results hold what the docs cite, and stay reproducible and plottable:
#  0. every results/ file a doc, script or test cites exists, and results/
#     stays within its budget (scripts/results_citations.py; issue 58); the
#     check fails on a planted dangling citation and on a lowered budget;
#  1. joining the committed poiseuille-transient shards with today's analysis
#     gives exactly the committed merged result (a change to the analysis
#     must come with regenerated results);
#  2. the plotting scripts draw the committed results (validation and
#     lj-liquid, living-polymerization, the wall and shear gates of results/walls/
#     with a fresh smoke run of each Couette gate), and the provenance line
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
# The wall and shear gates: every result of theirs under results/walls/, and a
# smoke run of each Couette gate (a second, about: not a result) so that their
# figure is drawn from today's JSON whether or not a long form is committed.
"$B" validate --filter '^srd-couette$' --backend cpu --param L=4 --param production=10 \
  --param equilibration=1 --json srd-couette.json > /dev/null || [[ $? -eq 1 ]]
OMP_NUM_THREADS=1 "$B" validate --filter '^dpd-couette$' --backend cpu --long --param cross=3 \
  --param height=4 --param production=0.2 --param equilibration=0.05 --param blocks=2 \
  --json dpd-couette.json > /dev/null || [[ $? -eq 1 ]]
mapfile -t walls < <(find "$S/results/walls" -name '*-slit-poiseuille-*.json*' -o -name '*-couette-*.json*')
[[ ${#walls[@]} -ge 4 ]] || { echo "results/walls/ holds ${#walls[@]} slit or Couette results" >&2; exit 1; }
python3 "$S/scripts/plot_walls.py" "${walls[@]}" srd-couette.json dpd-couette.json -o walls.png > /dev/null
for f in transient.png nve.png dpd.png lj.png lp.png walls-slit.png walls-couette.png; do
  [[ $(stat -c %s "$f") -gt 10000 ]] || { echo "$f is empty or tiny" >&2; exit 1; }
done
# Figures committed beside the results stay small (scripts/plot_walls.py's palette and dpi).
for f in walls-slit.png walls-couette.png; do
  [[ $(stat -c %s "$f") -le 61440 ]] || { echo "$f is $(stat -c %s "$f") bytes, over 60 kB" >&2; exit 1; }
done
python3 "$S/scripts/plot_walls.py" "$S/results/validation/dpd-temperature-short.json.xz" -o none.png 2> err.txt \
  && { echo "plot_walls drew a file without a wall gate" >&2; exit 1; }
grep -q "^plot_walls: no srd-slit-poiseuille, .* case in the inputs$" err.txt
[[ ! -e none.png ]] || { echo "plot_walls wrote a figure of nothing" >&2; exit 1; }
echo "plots drawn"
