#!/usr/bin/env bash
# `mesobench morphology` on a short dpd-vesicle trajectory: a table row and
# a JSON frame per trajectory frame, the chains counted from the
# concentration, the JSON valid against the results schema, the last frame's
# B beads in the CSV. Bad input (no file, not H5MD, a concentration outside
# [0, 1]) exits 2 naming it and writes neither output file.
set -euo pipefail
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

rc=0
"$bin" run --backend cpu --filter 'dpd-vesicle/.*N=262144' --param N=3000 --steps 20 --every 10 \
  --trajectory "$work/v.h5" > "$work/run.out" 2> "$work/run.err" || rc=$?
if [[ $rc -eq 2 ]] && grep -q "without HDF5" "$work/run.err"; then echo "mesobench was built without HDF5"; exit 77; fi
[[ $rc -eq 0 ]] || { cat "$work/run.err"; fail "the dpd-vesicle run exited $rc"; }

"$bin" morphology "$work/v.h5" --json "$work/m.json" --beads-csv "$work/b.csv" > "$work/m.out" ||
  fail "morphology exited $?"
rows=$(grep -cE '^ +[0-9]+ +[0-9.]+ ' "$work/m.out" || true)
python3 - "$work/m.json" "$rows" <<'PY' || fail "the JSON does not hold what the table printed"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["kind"] == "morphology", doc["kind"]
frames = doc["frames"]
assert len(frames) == int(sys.argv[2]) >= 2, (len(frames), sys.argv[2])
# 10% of 3000 beads in chains of 8: llround(37.5) = 38 chains.
assert doc["parameters"]["chains"] == 38, doc["parameters"]
assert [f["step"] for f in frames] == sorted(f["step"] for f in frames)
for f in frames:
    assert f["chains"] == 38 and 0 <= f["chains_aggregated"] <= 38
    assert f["micelles"] + f["sheets"] + sum(a["kind"] == "vesicle" for a in f["aggregates"]) == len(f["aggregates"])
PY
rc=0
python3 "$root/scripts/validate_results.py" "$work/m.json" > "$work/schema.out" || rc=$?
[[ $rc -eq 0 || $rc -eq 77 ]] || { cat "$work/schema.out"; fail "the JSON is not valid against the schema"; }
# The CSV: the box, a header, then the 38 chains' 6 B beads each.
[[ $(head -1 "$work/b.csv") == "# box "* ]] || fail "the CSV does not start with the box"
[[ $(sed -n 2p "$work/b.csv") == "x,y,z" ]] || fail "the CSV has no header"
[[ $(($(wc -l < "$work/b.csv") - 2)) -eq 228 ]] || fail "the CSV holds $(($(wc -l < "$work/b.csv") - 2)) beads, not 228"

expect_refused() {  # expect_refused <what the message names> <args...>
  local want=$1
  shift
  rm -f "$work/bad.json" "$work/bad.csv"
  local out rc=0
  out=$("$bin" morphology "$@" --json "$work/bad.json" --beads-csv "$work/bad.csv" 2>&1) || rc=$?
  [[ $rc -eq 2 ]] || fail "morphology $* exited $rc, not 2: $out"
  [[ $out == *"$want"* ]] || fail "morphology $*: the message does not name '$want': $out"
  [[ -z $(find "$work" -name 'bad.json*' -o -name 'bad.csv*') ]] ||
    fail "morphology $* left an output file"
}
expect_refused "$work/none.h5" "$work/none.h5"
echo "not hdf5" > "$work/text.h5"
expect_refused "text.h5" "$work/text.h5"
expect_refused "concentration" "$work/v.h5" --concentration 2
echo "cli.morphology: ok"
