#!/usr/bin/env bash
# The device check of a refactor that must not change behaviour (workloads
# as registered styles, the step rules written once), in one device call:
#  1. builds the tree before the refactor (a `git archive` tarball) and the
#     working tree, both for sm_90, at once;
#  2. the GPU tests of the working tree: kernels_test, and the decomposition
#     tests on 1, 2 and 4 ranks sharing the GPU;
#  3. bitwise: every workload's default on cuda run for 1000 steps (srd-fluid:
#     collisions) with a checkpoint, before and after; the checkpoints must be
#     the same bytes (mdscf-dppc: the final thermo of the JSON to the last
#     digit, since its checkpoint no longer carries a list state it never had);
#     plus srd-fluid with reorder=cell,sort=0, whose meaning changed (now
#     every collision, bitwise the unsorted run in tag order);
#  4. compute-sanitizer memcheck (graphs) and racecheck (graphs=off)
#     of the step control on short runs of dpd-fluid and lj-liquid;
#  5. speed: the defaults of dpd-fluid N = 1M, lj-liquid 64000, srd-fluid
#     L = 50 and mdscf-dppc 20k, before and after interleaved twice.
# Usage: scripts/device_seams_check.sh <before source tarball> <output dir>
# (the output dir is packed into <output dir>.tgz at the end)
set -u
TGZ=$1
O=$2
mkdir -p "$O"
. "$(dirname "$0")/device_check_lib.sh"
build_before_after "$TGZ" /tmp/before-src mesobench kernels_test decomposition_gpu_test

# 2. GPU tests: every kernels_test test, and the decomposition tests on 1, 2
# and 4 ranks sharing the GPU (one OpenMP thread a rank).
gpu_tests 1 2 4

# 3. bitwise, before against after
: > "$O/bitwise.txt"
bitwise dpd 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$'
bitwise dpd-double 'dpd-fluid/.*/rho=3/rc=1/.*N=262144$' --variant precision=double
bitwise dpd-fixed 'dpd-fluid/.*/rho=3/rc=1/.*N=262144$' --param rebuild_every=7
bitwise lj 'lj-liquid'
bitwise srd 'srd-fluid.*L=50$'
bitwise dppc 'mdscf-dppc.*lipids=528/'
cat "$O/bitwise.txt"
# sort=0 on the solvent: every collision now; sorting is neutral in tag
# order, so the three runs end in the same state (the final thermo to the
# last digit; the checkpoints differ only in the variant they record).
for v in none cell0 cell1; do
  case $v in none) var=reorder=none ;; cell0) var=reorder=cell,sort=0 ;; cell1) var=reorder=cell,sort=1 ;; esac
  "$A/mesobench" run --backend cuda --filter 'srd-fluid.*L=10$' --param L=20 --steps 200 --variant "precision=mixed,$var" \
    --json "$O/sort-$v.json" > "$O/sort-$v.txt" 2>&1
done
python3 - "$O" <<'PY' | tee -a "$O/bitwise.txt"
import json, sys
o = sys.argv[1]
t = {v: json.load(open(f"{o}/sort-{v}.json"))["results"][0]["final_thermo"] for v in ("none", "cell0", "cell1")}
same = t["none"] == t["cell0"] == t["cell1"]
print(("IDENTICAL" if same else "DIFFERENT") + "  srd-fluid L=20 mixed, 200 collisions: reorder=none, reorder=cell,sort=0, "
      "reorder=cell,sort=1 final thermo", t["cell0"])
PY

# 4. sanitizers on the working tree
san() {  # san <tool> <name> <filter> [args]
  local tool=$1 name=$2 filter=$3
  shift 3
  timeout 120 $CS --tool "$tool" --error-exitcode 9 "$A/mesobench" run --backend cuda --filter "$filter" --steps 60 "$@" \
    > "$O/sanitizer-$tool-$name.log" 2>&1
  stamp "sanitizer $tool $name graphs=$([ -n "$G" ] && echo off || echo on) rc=$? $(grep -c 'ERROR SUMMARY: 0 errors\|RACECHECK SUMMARY: 0 hazards' "$O/sanitizer-$tool-$name.log")"
}
for tool in memcheck racecheck; do
  [[ $tool == racecheck ]] && G=graphs=off || G=""  # racecheck: the host-driven step
  san $tool dpd 'dpd-fluid/.*/rho=3/rc=1/.*N=8192$' --variant sort=5${G:+,$G}
  san $tool dpd-fixed 'dpd-fluid/.*/rho=3/rc=1/.*N=8192$' --param rebuild_every=3 ${G:+--variant $G}
  san $tool lj 'lj-liquid' --param N=4000 ${G:+--variant $G}
done

# 5. speed, before and after interleaved
R=(--backend cuda --repeats 5 --min-time 0.3 --warmup-time 0.3)
for round in 1 2; do
  for side in before after; do
    bin=$B
    [[ $side == after ]] && bin=$A
    "$bin/mesobench" run "${R[@]}" --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$' --json "$O/tps-dpd-$side-$round.json" > /dev/null 2>&1
    "$bin/mesobench" run "${R[@]}" --filter 'lj-liquid' --json "$O/tps-lj-$side-$round.json" > /dev/null 2>&1
    "$bin/mesobench" run "${R[@]}" --filter 'srd-fluid.*L=50$' --json "$O/tps-srd-$side-$round.json" > /dev/null 2>&1
    "$bin/mesobench" run "${R[@]}" --filter 'mdscf-dppc.*lipids=528/' --json "$O/tps-dppc-$side-$round.json" > /dev/null 2>&1
  done
  stamp "speed round $round"
done
python3 "$(dirname "$0")/before_after_tps.py" "$O" | tee "$O/tps-summary.txt"
stamp done
tar czf "$O.tgz" -C "$(dirname "$O")" "$(basename "$O")" && rm -rf "$O"
