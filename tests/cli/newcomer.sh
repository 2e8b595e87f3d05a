#!/usr/bin/env bash
# The papercuts a newcomer met (issue 58), each checked: `help COMMAND` prints
# the command's help; `run --help` shows the defaults of repeats and timing;
# `list`, `compare`, `scale` and the non-terminal progress line fit 100
# columns; `--param` that makes selected cases one runs and lists it once and
# says so; the README's tour writes its trajectory as .h5md (the name
# MDAnalysis reads), which --trajectory writes (as .h5 too).
# Usage: newcomer.sh <mesobench> <source dir>
set -euo pipefail
bin=$1 S=$2
here=$(cd "$(dirname "$0")" && pwd)
source "$here/expect_refused.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# wide FILE WHAT: fails naming the first line of FILE over 100 columns.
wide() {
  awk -v what="$2" 'length > 100 { print "FAIL: " what " has a line of " length " columns: " $0; bad = 1; exit }
                    END { exit bad }' "$1"
}

"$bin" help run > "$t/help-run.txt"
"$bin" run --help > "$t/run-help.txt"
cmp -s "$t/help-run.txt" "$t/run-help.txt" || { echo "FAIL: help run differs from run --help"; exit 1; }
grep -q '^Usage: mesobench run' "$t/help-run.txt" || { echo "FAIL: help run is not run's help"; exit 1; }
expect_refused "help: no command 'nosuch'" help nosuch
for want in 'median and spread reported; default 5)' 'at least (default 0.2)' 'warm-up steps (default 0.3)'; do
  grep -qF "$want" "$t/run-help.txt" || { echo "FAIL: run --help lacks '$want'"; exit 1; }
done
echo "ok: help run, and run --help shows the defaults of --repeats, --min-time, --warmup-time"

"$bin" list > "$t/list.txt"
wide "$t/list.txt" "list"
"$bin" list --filter 'mdscf-dppc|living' > "$t/list-long.txt"  # the longest case names, 101-116 columns
grep -q '^    lipids=528/W=14000/grid=20x20x22/update=10  \[default\]$' "$t/list-long.txt" \
  || { echo "FAIL: mdscf-dppc's parameters not under its variant"; cat "$t/list-long.txt"; exit 1; }
"$bin" list --names --filter mdscf-dppc > "$t/names.txt"
grep -q '^mdscf-dppc/step/cpu/.*/lipids=528/W=14000/grid=20x20x22/update=10  \[default\]$' "$t/names.txt" \
  || { echo "FAIL: list --names does not print whole names"; exit 1; }
echo "ok: list fits 100 columns (--names: whole names)"

# --param L=20 makes srd-fluid's L = 20, 50 and 100 one case: one row, and a note.
"$bin" list --filter srd-fluid --param L=20 > "$t/srd-list.txt" 2> "$t/srd-list.err"
[[ $(grep -c 'L=20' "$t/srd-list.txt") -eq 1 ]] || { echo "FAIL: list --param L=20 rows:"; cat "$t/srd-list.txt"; exit 1; }
grep -q '^note: --param made 2 selected case(s) the same as another; each distinct case runs once$' "$t/srd-list.err" \
  || { echo "FAIL: no note on the collapsed cases"; cat "$t/srd-list.err"; exit 1; }
"$bin" run --filter srd-fluid --param L=6 --repeats 1 --min-time 0.001 --warmup-time 0 --quiet \
  --json "$t/srd.json" > "$t/srd-run.txt" 2> "$t/srd-run.err"
python3 - "$t/srd.json" <<'PY'
import json, sys
names = [r["name"] for r in json.load(open(sys.argv[1]))["results"]]
assert len(names) == len(set(names)) == 1, names
print("ok: run --filter srd-fluid --param L=6 ran one case:", names[0])
PY

# compare (its own test checks its lines): a long name and every column.
printf '{"results": [{"name": "%s", "tps_median": 20739.5, "tps": [20000, 20500, 20739.5, 20800, 21000]}]}\n' \
  "$(head -c 150 /dev/zero | tr '\0' x)" > "$t/c.json"
"$bin" compare "$t/c.json" "$t/c.json" > "$t/compare.txt"
wide "$t/compare.txt" "compare"

# scale: the launch line of each point, wrapped with shell continuations (a
# stand-in launcher that fails: no MPI job runs).
printf '#!/bin/bash\nexit 3\n' > "$t/mpirun" && chmod +x "$t/mpirun"
rc=0
"$bin" scale --mode weak --workload dpd-fluid --ranks 1,2 --per-rank 1000 --steps 2 --warmup 1 --repeats 1 \
  --backend cpu --mpirun "$t/mpirun" --out "$t/sweep" \
  > "$t/scale.txt" 2>&1 || rc=$?
[[ $rc -eq 1 ]] || { echo "FAIL: the stand-in sweep exited $rc"; cat "$t/scale.txt"; exit 1; }
grep -q '^point 1 rank: .* \\$' "$t/scale.txt" || { echo "FAIL: no wrapped launch line"; cat "$t/scale.txt"; exit 1; }
wide "$t/scale.txt" "scale"
echo "ok: compare and scale fit 100 columns"

# The tour's trajectory is .h5md, and --trajectory writes HDF5 under that name.
grep -q -- '--trajectory dpd.h5md' "$S/README.md" || { echo "FAIL: the README's tour does not write dpd.h5md"; exit 1; }
grep -q 'MDAnalysis.Universe("dpd.h5md")' "$S/README.md" || { echo "FAIL: the tour lacks the MDAnalysis line"; exit 1; }
for f in dpd.h5md dpd.h5; do
  "$bin" run --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=8192$' --steps 2 --trajectory "$t/$f" --every 1 --quiet \
    > /dev/null
  [[ $(head -c 8 "$t/$f" | od -An -tx1 | tr -d ' \n') == 894844460d0a1a0a ]] || { echo "FAIL: $f is not HDF5"; exit 1; }
done
echo "ok: the tour writes dpd.h5md; --trajectory writes .h5md and .h5"
