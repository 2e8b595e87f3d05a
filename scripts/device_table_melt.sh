#!/usr/bin/env bash
# The tabulated melt on one GPU, in one call (docs/tables.md, "The tabulated melt"). First,
# alone on the GPU:
#   sweep    table-melt at N = 100,000 on cuda: the list builders and orders of SWEEP in mixed
#            and double (3 repeats); the fastest of each precision goes to $O/best-<precision>.txt
#   bench    table-melt at every N on cuda in mixed, double and single, each with the sweep's
#            fastest variant (single: mixed's axes), 5 repeats; the CPU reference at N = 10,000
#   baseline the same at every N with Variant{} (ballot lists, no reordering)
# VARIANT_MIXED and VARIANT_DOUBLE, when set, replace the sweep's choice (bench, gate).
# then side by side (none of them timed):
#   tests    kernels_test: CudaBonded* first, every test after the sanitizers
#   sanitize compute-sanitizer memcheck and racecheck (MESO_TEST_VARIANT=graphs=off) of CudaBonded*
#   gate     the table-melt long form on cuda with the sweep's mixed and double variants, and with
#            bond_k_scale=1.02 (4 runs a set, 200 configurations: what the gate resolves)
#   ibi      the ibi-melt long form on cuda (the default variant)
# Everything is packed into $OUT/table-melt.tar.xz at the end (file names hold '=' and ',').
# The binaries come built (.carry/bins.tar.xz: mesobench, kernels_test), RE2 from .deps/.
# Usage: PARTS="sweep bench baseline tests sanitize gate ibi" scripts/device_table_melt.sh <output dir>
set -u
O=$1
PARTS=${PARTS:-sweep bench tests sanitize gate ibi}
. scripts/device_carried.sh
KT=$BIN/kernels_test
# Every part ends by DEADLINE seconds after the start (560), so that the packing below runs.
END=$(( $(date +%s) + ${DEADLINE:-560} ))
left() { local l=$(( END - $(date +%s) )); (( l > 1 )) && echo $l || echo 1; }
SWEEP=${SWEEP:-"nlist=ballot nlist=atomic,reorder=morton2,sort=100 nlist=tiled,reorder=morton2,sort=100
  nlist=atomic,reorder=morton2,sort=100,tpp=4 nlist=tiled,reorder=morton2,sort=100,tpp=4"}
best() {
  local fixed; [[ $1 == double ]] && fixed=${VARIANT_DOUBLE:-} || fixed=${VARIANT_MIXED:-}
  [[ -n $fixed ]] && { echo "$fixed"; return; }
  cat "$O/best-$1.txt" 2>/dev/null || echo "precision=$1"
}
if part sweep; then
  for p in mixed double; do
    for v in $SWEEP; do
      timeout 120 "$MB" run --filter 'table-melt/.*/N=100000$' --backend cuda --variant "precision=$p,$v" \
        --repeats 3 --json "$O/sweep-$p-$v.json" > "$O/sweep-$p-$v.log" 2>&1
      stamp "sweep $p $v rc=$?"
    done
    python3 - "$O" "$p" <<'PY' | tee -a "$O/status.txt"
import glob, json, sys
o, p = sys.argv[1:3]
runs = []
for f in sorted(glob.glob(f"{o}/sweep-{p}-*.json")):
    c = json.load(open(f))["results"][0]
    runs.append((c["tps_median"], c["variant"]))
    print(f"  {p} {c['tps_median']:9.1f} TPS  {c['variant']}")
tps, v = max(runs)
open(f"{o}/best-{p}.txt", "w").write(v + "\n")
print("best", p, v, tps)
PY
  done
fi
if part bench; then
  for p in mixed double single; do
    v=$(best mixed); [[ $p == double ]] && v=$(best double)
    v=${v/precision=mixed/precision=$p}
    timeout 200 "$MB" run --filter table-melt --backend cuda --variant "$v" --repeats 5 \
      --json "$O/bench-cuda-$p.json" > "$O/bench-cuda-$p.log" 2>&1
    stamp "bench cuda $v rc=$?"
  done
  timeout 120 "$MB" run --filter 'table-melt/.*/N=10000$' --backend cpu --repeats 3 \
    --json "$O/bench-cpu.json" > "$O/bench-cpu.log" 2>&1
  stamp "bench cpu rc=$?"
fi
if part baseline; then
  for p in mixed double single; do
    v="precision=$p,nlist=ballot,reorder=none,sort=0"
    timeout 200 "$MB" run --filter table-melt --backend cuda --variant "$v" --repeats 5 \
      --json "$O/baseline-cuda-$p.json" > "$O/baseline-cuda-$p.log" 2>&1
    stamp "baseline cuda $v rc=$?"
  done
fi
# Side by side from here: the CPU reference sets share the host's cores.
export OMP_WAIT_POLICY=passive
if part ibi; then
  ( timeout $(left) "$MB" validate --filter ibi-melt --long --backend cuda \
      --json "$O/ibi-melt-long.json" > "$O/ibi-melt-long.log" 2>&1
    stamp "ibi-melt long rc=$? $(grep '^ibi-melt' "$O/ibi-melt-long.log" | tail -1)" ) &
fi
if part gate; then
  for p in mixed double; do
    ( timeout $(left) "$MB" validate --filter table-melt --long --backend cuda --variant "$(best $p)" \
        --json "$O/table-melt-long-$p.json" > "$O/table-melt-long-$p.log" 2>&1
      stamp "table-melt long $p rc=$? $(grep '^table-melt' "$O/table-melt-long-$p.log" | tail -1)" ) &
  done
  ( timeout $(left) "$MB" validate --filter table-melt --long --backend cuda --variant "$(best mixed)" \
      --param bond_k_scale=1.02 --param runs=4 --param samples=200 \
      --json "$O/table-melt-power.json" > "$O/table-melt-power.log" 2>&1
    stamp "table-melt power rc=$? $(grep '^table-melt' "$O/table-melt-power.log" | tail -1)" ) &
fi
if part tests; then
  timeout $(left) "$KT" --gtest_color=no --gtest_filter='CudaBonded*' > "$O/bonded-tests.log" 2>&1
  stamp "CudaBonded* rc=$? $(counts "$O/bonded-tests.log")"
fi
if part sanitize; then
  timeout $(left) compute-sanitizer --tool memcheck --error-exitcode 1 "$KT" --gtest_color=no \
    --gtest_filter='CudaBonded*' > "$O/memcheck.log" 2>&1
  stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$O/memcheck.log" | tail -1)"
  MESO_TEST_VARIANT=graphs=off timeout $(left) compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 1 \
    "$KT" --gtest_color=no --gtest_filter='CudaBonded*' > "$O/racecheck.log" 2>&1
  stamp "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/racecheck.log" | tail -1)"
fi
# Last, so that a late deadline cuts the full run rather than the sanitizers.
if part tests; then
  timeout $(left) "$KT" --gtest_color=no > "$O/kernels-test.log" 2>&1
  stamp "kernels_test rc=$? $(counts "$O/kernels-test.log")"
fi
wait
tar cf - -C "$O" . | xz -6 -T16 > "$OUT/table-melt.tar.xz"
