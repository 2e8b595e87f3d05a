#!/usr/bin/env bash
# The MD-SCF / DPPC GPU runs behind results/dppc/ (issue 15: CUDA bonded
# forces, the MD-SCF field with gather and scatter density assignment, pair
# style none, the DPPC bilayer), in one device call, most important first,
# each part bounded by a timeout:
#  1. every GPU test (kernels_test), none skipped;
#  2. compute-sanitizer memcheck (graphs on) and racecheck
#     (MESO_TEST_VARIANT=graphs=off) on the bonded and MD-SCF GPU tests and on 40-step
#     mdscf-dppc runs with density=gather and scatter;
#  3. mdscf-dppc benchmarks, 20k and ~1M beads: double/mixed x
#     gather/scatter; update=1 and update=10^9 (no update after the first)
#     for the time per field update; the CPU reference (16 threads) at 20k;
#  4. the cost of bead types: dpd-fluid N = 1M with 1 and 13 types (same
#     parameters), mixed and double defaults;
#  5. the dppc-density long form on the GPU (with its CPU comparison run),
#     VARIANT (default: the workload's cuda default).
# After every part the outputs are packed into $TGZ.
# Usage: [PARTS="..."] [VARIANT=...] scripts/device_mdscf_dppc.sh <bin dir> <output dir> <tgz>
set -u
BIN=$1
O=$2
TGZ=$3
PARTS=" ${PARTS:-1 2 3 4 5} "
part() { [[ $PARTS == *" $1 "* ]]; }
mkdir -p "$O"
pack() { tar czf "$TGZ" -C "$O" . ; }
stamp() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$O/status.txt"; }
{ nvidia-smi; nvidia-smi -L; date -u; } > "$O/device.txt" 2>&1
export MESO_GIT_COMMIT=${MESO_GIT_COMMIT:-unknown}

if part 1; then
  timeout 240 "$BIN/kernels_test" --gtest_color=no > "$O/gpu-tests.log" 2>&1
  stamp "kernels_test rc=$? $(grep -c '\[       OK \]' "$O/gpu-tests.log") ok, $(grep -c '\[  SKIPPED \]' "$O/gpu-tests.log") skipped, $(grep -c '\[  FAILED  \]' "$O/gpu-tests.log") failed lines"
  pack
fi

D20='mdscf-dppc/.*/lipids=528/'
D1M='mdscf-dppc/.*/lipids=25872/'
if part 2; then
  CS=compute-sanitizer
  F='*Bonded*:*Mdscf*'
  timeout 300 $CS --tool memcheck --error-exitcode 9 "$BIN/kernels_test" --gtest_filter="$F" > "$O/memcheck-tests.log" 2>&1
  stamp "memcheck tests rc=$? $(grep -c 'ERROR SUMMARY: 0 errors' "$O/memcheck-tests.log") clean summaries"
  MESO_TEST_VARIANT=graphs=off timeout 300 $CS --tool racecheck --racecheck-report all --error-exitcode 9 "$BIN/kernels_test" --gtest_filter="$F" > "$O/racecheck-tests.log" 2>&1
  stamp "racecheck tests rc=$? $(grep -c 'RACECHECK SUMMARY: 0 hazards' "$O/racecheck-tests.log") clean summaries"
  for pd in mixed,gather mixed,scatter double,gather; do
    prec=${pd%,*}
    d=${pd#*,}
    timeout 120 $CS --tool memcheck --error-exitcode 9 "$BIN/mesobench" run --backend cuda --filter "$D20" --steps 40 \
      --quiet --variant precision=$prec,density=$d > "$O/memcheck-dppc-$prec-$d.log" 2>&1
    stamp "memcheck dppc $prec $d rc=$?"
    [[ $prec == double ]] && continue
    timeout 120 $CS --tool racecheck --racecheck-report all --error-exitcode 9 "$BIN/mesobench" run \
      --backend cuda --filter "$D20" --steps 20 --quiet --variant precision=$prec,density=$d,graphs=off \
      > "$O/racecheck-dppc-$prec-$d.log" 2>&1
    stamp "racecheck dppc $prec $d rc=$?"
  done
  pack
fi

bench() {  # bench <name> <filter> [mesobench run args...]
  local name=$1 filter=$2
  shift 2
  timeout 150 "$BIN/mesobench" run --backend cuda --filter "$filter" --repeats 5 --min-time 0.3 \
    --warmup-time 0.3 --max-n 2000000 --json "$O/$name.json" "$@" > "$O/$name.txt" 2>&1
  stamp "bench $name rc=$?"
}
if part 3; then
  for prec in double mixed; do
    for d in gather scatter; do
      bench "dppc20k-$prec-$d" "$D20" --variant precision=$prec,density=$d
      bench "dppc1M-$prec-$d" "$D1M" --variant precision=$prec,density=$d
    done
    for u in 1 1000000000; do
      bench "dppc20k-$prec-update$u" "$D20" --variant precision=$prec --param update=$u
      bench "dppc1M-$prec-update$u" "$D1M" --variant precision=$prec --param update=$u
    done
  done
  timeout 150 "$BIN/mesobench" run --backend cpu --filter "$D20" --repeats 3 --min-time 1 \
    --json "$O/dppc20k-cpu.json" > "$O/dppc20k-cpu.txt" 2>&1
  stamp "bench dppc20k-cpu rc=$?"
  pack
fi

if part 4; then
  F='dpd-fluid/.*/rho=3/rc=1/.*N=1048576$'
  for t in 1 13; do
    bench "dpd1M-mixed-types$t" "$F" --param types=$t
    bench "dpd1M-double-types$t" "$F" --param types=$t --variant precision=double
  done
  pack
fi

if part 5; then
  V=${VARIANT:-}
  timeout 560 "$BIN/mesobench" validate --filter dppc-density --long --backend cuda ${V:+--variant $V} \
    --json "$O/dppc-density-long.json" > "$O/dppc-density-long.txt" 2>&1
  stamp "dppc-density long rc=$?"
  pack
fi
stamp done
