#!/usr/bin/env bash
# The device check of the MPCD solvent as a stage of the one StepPlan (one
# Simulation for MD, solvent or both; the collision graph invalidated by the
# context's graph epoch), a change that must not change behaviour. Two parts,
# each one device call on a warm machine (the builds stay in build/):
#   part 1: builds the tree before (a `git archive` tarball) and the working
#           tree for sm_90; kernels_test; decomposition_gpu_test on 1, 2 and
#           4 ranks sharing the GPU; bitwise: every workload's default on
#           cuda for 1000 steps (srd-fluid: collisions) with a checkpoint,
#           before and after, the same bytes; compute-sanitizer memcheck
#           (graphs) and racecheck (graphs=off) of srd-fluid with
#           sorting, and memcheck of the two-rank decomposed SRD collision.
#   part 2: speed, before and after interleaved twice: the defaults of
#           dpd-fluid N = 1M, lj-liquid 64000, srd-fluid L = 50 and
#           mdscf-dppc 20k on one GPU; srd-fluid and dpd-fluid on two ranks
#           sharing the GPU (mesobench scale, strong, 1.25M and 1M).
# Usage: scripts/device_solvent_stage_check.sh <1|2> <before tarball> <output dir>
# (the output dir is packed into <output dir>.tgz at the end)
set -u
PART=$1
TGZ=$2
O=$3
mkdir -p "$O"
. "$(dirname "$0")/device_check_lib.sh"

if [[ $PART == 1 ]]; then
  build_before_after "$TGZ" build/before-src mesobench kernels_test decomposition_gpu_test
  gpu_tests 1 2 4
  : > "$O/bitwise.txt"
  bitwise dpd 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$'
  bitwise dpd-double 'dpd-fluid/.*/rho=3/rc=1/.*N=262144$' --variant precision=double
  bitwise lj 'lj-liquid'
  bitwise srd 'srd-fluid.*L=50$'
  bitwise srd-double 'srd-fluid.*L=10$' --variant precision=double,reorder=cell,sort=7
  bitwise srd-at 'srd-fluid.*L=10$' --param rule=at
  bitwise dppc 'mdscf-dppc.*lipids=528/'
  cat "$O/bitwise.txt"
  san() {  # san <tool> <name> [mesobench run args]
    local tool=$1 name=$2
    shift 2
    timeout 150 $CS --tool "$tool" --error-exitcode 9 "$A/mesobench" run --backend cuda --steps 40 "$@" \
      > "$O/sanitizer-$tool-$name.log" 2>&1
    stamp "sanitizer $tool $name rc=$? $(grep -c 'ERROR SUMMARY: 0 errors\|RACECHECK SUMMARY: 0 hazards' "$O/sanitizer-$tool-$name.log")"
  }
  san memcheck srd --filter 'srd-fluid.*L=10$' --param L=20
  san racecheck srd --filter 'srd-fluid.*L=10$' --param L=16 --variant graphs=off
  san memcheck lj --filter 'lj-liquid' --param N=4000
  timeout 200 mpirun -np 2 --oversubscribe --bind-to none $CS --tool memcheck --error-exitcode 9 \
    "$A/decomposition_gpu_test" --gtest_filter='*Srd*' --gtest_color=no > "$O/sanitizer-memcheck-srd-2ranks.log" 2>&1
  stamp "memcheck decomposed SRD on 2 ranks rc=$? $(grep -c 'ERROR SUMMARY: 0 errors' "$O/sanitizer-memcheck-srd-2ranks.log") clean summaries"
else
  B=build/before-src/build/bin
  A=build/device/bin
  R=(--backend cuda --repeats 5 --min-time 0.3 --warmup-time 0.3)
  S=(--backend cuda --ranks 2 --steps 300 --warmup 100 --repeats 3 --mpirun-args "--oversubscribe --bind-to none")
  for round in 1 2; do
    for side in before after; do
      bin=$B
      [[ $side == after ]] && bin=$A
      "$bin/mesobench" run "${R[@]}" --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$' --json "$O/tps-dpd-$side-$round.json" > /dev/null 2>&1
      "$bin/mesobench" run "${R[@]}" --filter 'lj-liquid' --json "$O/tps-lj-$side-$round.json" > /dev/null 2>&1
      "$bin/mesobench" run "${R[@]}" --filter 'srd-fluid.*L=50$' --json "$O/tps-srd-$side-$round.json" > /dev/null 2>&1
      "$bin/mesobench" run "${R[@]}" --filter 'mdscf-dppc.*lipids=528/' --json "$O/tps-dppc-$side-$round.json" > /dev/null 2>&1
      "$bin/mesobench" scale --mode strong --workload srd-fluid --total 1250000 "${S[@]}" \
        --out "$O/scale-srd-$side-$round" > "$O/scale-srd-$side-$round.txt" 2>&1
      "$bin/mesobench" scale --mode strong --workload dpd-fluid --total 1048576 "${S[@]}" \
        --out "$O/scale-dpd-$side-$round" > "$O/scale-dpd-$side-$round.txt" 2>&1
    done
    stamp "speed round $round"
  done
  python3 "$(dirname "$0")/before_after_tps.py" "$O" | tee "$O/tps-summary.txt"
fi
stamp done
tar czf "$O.tgz" -C "$(dirname "$O")" "$(basename "$O")" && rm -rf "$O"
