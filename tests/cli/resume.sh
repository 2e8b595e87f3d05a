#!/usr/bin/env bash
# A resumable validation case stopped at its time limit and continued with
# --resume gives bit for bit the result of the uninterrupted run (LJ
# trajectories continue exactly from a checkpoint on the CPU reference), and
# the stop and resume options refuse what they cannot do.
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A short thermalization of 1000 particles keeps the test quick; it is about resuming, not
# physics (200 steps of Nose-Hoover leave the lattice start far from the liquid, so the gates
# may fail, exit 1: the verdict is not what is compared; the long run is 3 chunks of 1000
# steps, stopped after the first and second).
case_args=(validate --filter nve-drift-xplor --backend cpu --variant precision=single --param N=1000
           --param thermalize=200 --param long_steps=3000)
verdict() {  # verdict <command...>: runs it, and fails unless it exits 0 or 1 (a gate's verdict)
  local rc=0
  "$@" || rc=$?
  [[ $rc -le 1 ]] || { echo "FAIL: exit $rc from: $2 $3 $4"; exit 1; }
}
verdict "$bin" "${case_args[@]}" --json "$work/whole.json" > "$work/whole.txt"
# --time-limit 0: every call advances by one chunk of the long run, then
# stops with exit code 3 and a checkpoint in the JSON.
rc=0
"$bin" "${case_args[@]}" --time-limit 0 --json "$work/part1.json" > "$work/part1.txt" || rc=$?
[[ $rc -eq 3 ]] || { echo "FAIL: --time-limit 0 exited $rc, want 3"; exit 1; }
grep -q 'INCOMPLETE' "$work/part1.txt"
rc=0
"$bin" validate --resume "$work/part1.json" --time-limit 0 --json "$work/part2.json" > /dev/null || rc=$?
[[ $rc -eq 3 ]] || { echo "FAIL: second stop exited $rc, want 3"; exit 1; }
verdict "$bin" validate --resume "$work/part2.json" --json "$work/done.json" > /dev/null
python3 - "$work/whole.json" "$work/part1.json" "$work/part2.json" "$work/done.json" <<'PY'
import json, sys
whole, part1, part2, done = (json.load(open(p)) for p in sys.argv[1:5])
(r1,) = part1["cases"][0]["data"]["per_run"]
(r2,) = part2["cases"][0]["data"]["per_run"]
assert r1["incomplete"] and r2["incomplete"]
assert r2["checkpoint"]["step"] > r1["checkpoint"]["step"] > 1000, (r1["checkpoint"]["step"], r2["checkpoint"]["step"])
(a,), (b,) = whole["cases"], done["cases"]
assert "incomplete" not in done
for ga, gb in zip(a["data"]["gates"], b["data"]["gates"]):
    assert ga["measured"] == gb["measured"], (ga, gb)
assert len(done["resumed_from"]) == 2
print("resume ok: p_drift", b["data"]["gates"][2]["measured"])
PY

# Orientational particles: the checkpoint holds orientations and angular
# momenta, and the Gay-Berne liquid's resumed run equals the whole one too.
# Two chunks of 1000 steps: the stopped call ends after the first. A short thermalization and
# two fluctuation windows: the verdict is not what is compared.
rigid_args=(validate --filter '^nve-drift-rigid$' --backend cpu --param long_steps=2000 --param thermalize=200
            --param short_steps=1000)
verdict "$bin" "${rigid_args[@]}" --json "$work/rigid-whole.json" > /dev/null
rc=0
"$bin" "${rigid_args[@]}" --time-limit 0 --json "$work/rigid-part.json" > /dev/null || rc=$?
[[ $rc -eq 3 ]] || { echo "FAIL: nve-drift-rigid --time-limit 0 exited $rc, want 3"; exit 1; }
verdict "$bin" validate --resume "$work/rigid-part.json" --json "$work/rigid-done.json" > /dev/null
python3 - "$work/rigid-whole.json" "$work/rigid-part.json" "$work/rigid-done.json" <<'PY'
import json, sys
whole, part, done = (json.load(open(p)) for p in sys.argv[1:4])
(r,) = part["cases"][0]["data"]["per_run"]
assert r["incomplete"] and len(r["checkpoint"]["orientation"]) == 4 * r["checkpoint"]["n"]
a, b = whole["cases"][0]["data"], done["cases"][0]["data"]
for ga, gb in zip(a["gates"], b["gates"]):
    assert ga["measured"] == gb["measured"], (ga, gb)
assert a["per_run"][0]["e_drift"] == b["per_run"][0]["e_drift"]
print("rigid resume ok: e_drift", b["per_run"][0]["e_drift"])
PY

# Cases of one call that ran different variants (on a GPU each runs its workload's default):
# each is resumed in the variant its entry records, the header names each variant with its
# cases, and the result records each case's variant and no document-wide one. Two tiny LJ runs
# stopped after their first chunk, one in single and one in double, joined as one call's file.
tiny=(validate --backend cpu --param N=256 --param thermalize=10 --param long_steps=2000 --param runs=1
      --time-limit 0)
rc=0
"$bin" "${tiny[@]}" --filter '^nve-drift-shift$' --variant precision=single --json "$work/t-single.json" \
  > /dev/null || rc=$?
"$bin" "${tiny[@]}" --filter '^nve-drift-xplor$' --json "$work/t-double.json" > /dev/null || rc=$?
[[ $rc -eq 3 ]] || { echo "FAIL: the tiny runs exited $rc, want 3"; exit 1; }
python3 - "$work/t-single.json" "$work/t-double.json" "$work/two.json" <<'PY'
import json, sys
single, double = (json.load(open(p)) for p in sys.argv[1:3])
assert single["cases"][0]["precision"] == "single" and single["variant_given"] == "precision=single", single
for key in ("variant", "precision", "variant_given"):
    single.pop(key)
single["cases"] += double["cases"]
json.dump(single, open(sys.argv[3], "w"))
PY
verdict "$bin" validate --resume "$work/two.json" --json "$work/two-done.json" > "$work/two-done.txt"
grep -A2 '^precision single, variant ' "$work/two-done.txt" | grep -q '^    for nve-drift-shift$' \
  || { echo "FAIL: the header does not say nve-drift-shift ran in single"; cat "$work/two-done.txt"; exit 1; }
grep -A2 '^precision double, variant ' "$work/two-done.txt" | grep -q '^    for nve-drift-xplor$' \
  || { echo "FAIL: the header does not say nve-drift-xplor ran in double"; cat "$work/two-done.txt"; exit 1; }
python3 - "$work/two-done.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert "variant" not in d and "precision" not in d, "a document-wide variant for cases of two"
shift, xplor = d["cases"]
assert (shift["precision"], shift["data"]["precision"]) == ("single", "single"), shift["precision"]
assert (xplor["precision"], xplor["data"]["precision"]) == ("double", "double"), xplor["precision"]
assert "precision=single" in shift["variant"] and shift["workload"] == "lj-liquid", shift["variant"]
print("resume of two variants ok")
PY

source "$(dirname "$0")/expect_refused.sh"
expect_refused "nothing to continue" validate --resume "$work/done.json"
expect_refused "drop the other options" validate --resume "$work/part1.json" --long
expect_refused "cannot stop and resume" validate --filter poiseuille --time-limit 10
expect_refused "finish it with --resume" validate --merge "$work/part1.json"
