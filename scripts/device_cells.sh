#!/usr/bin/env bash
# nlist=cells (forces from the cells, no Verlet list; issue 55) on one H200, in one
# call of about 5 minutes, from a tree built for sm_90 (BUILD: its folder, with
# bin/kernels_test, bin/styles_gpu_test, bin/trajectory_digest and bin/mesobench):
#   tests     kernels_test's CudaCells.* and the tests that hold nlist=cells cases (the DPD
#             axes, initial forces and trajectory against the reference, bitwise runs in any
#             order), styles_gpu_test's LJ reference tests
#   sanitize  compute-sanitizer memcheck (step graphs) and racecheck (graphs=off) of 20
#             steps of dpd-fluid N = 8192 on nlist=cells (trajectory_digest), mixed, and
#             memcheck of CudaCells.LjForcesEqualBruteForce (LJ, boxes of 3 and 6 cells)
#   bench     dpd-fluid in mixed, the workload's default and nlist=cells over it, at
#             rho = 3 N = 1M, rho = 8 N = 1M and rho = 8 L = 64 (2.1M, Mirheo's size),
#             REPEATS timed repeats each (median, min..max in the JSON), short warm-up
# Everything goes under $OUT (status.txt: one line a part). About 4 minutes in all (each
# step has its own timeout: 7 minutes at the very worst); PARTS splits it over calls.
# SIZES (a subset of "rho3-1M rho8-1M rho8-2M") and LJ_MEMCHECK=0 shorten the call.
# Usage: BUILD=build/default [PARTS="tests sanitize bench"] scripts/device_cells.sh
set -u
O=${OUT:?set OUT to the output folder}
B=${BUILD:?set BUILD to the build folder}/bin
PARTS=" ${PARTS:-tests sanitize bench} "
part() { [[ $PARTS == *" $1 "* ]]; }
stamp() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$O/status.txt"; }
counts() { echo "$(grep -c '\[       OK \]' "$1") ok, $(grep -c '\[  SKIPPED \]' "$1") skipped, $(grep -c '\[  FAILED  \]' "$1") failed"; }
mkdir -p "$O"
[[ -d .deps/re2 ]] && export LD_LIBRARY_PATH="$PWD/.deps/re2/lib:${LD_LIBRARY_PATH:-}"
{ nvidia-smi -L; date -u; git rev-parse HEAD; } > "$O/device.txt" 2>&1
if part tests; then
  kt() {  # log timeout filter
    timeout $2 "$B/kernels_test" --gtest_color=no --gtest_filter="$3" > "$O/$1.log" 2>&1
    stamp "kernels_test $1 rc=$? $(counts "$O/$1.log")"
  }
  kt kernels-cells 60 'CudaCells.*:CudaDpdHalfList.TrajectoryIsBitwise*:CudaDpdBackend.Trajectory100*'
  kt kernels-axes 75 'CudaDpdBackend.Gather*:CudaDpdBackend.InitialForces*'
  timeout 45 "$B/styles_gpu_test" --gtest_color=no \
    --gtest_filter='CudaLj.ForcesEnergyVirialMatchReference:CudaLj.IntegratorsTrackReference' \
    > "$O/styles-gpu-test.log" 2>&1
  stamp "styles_gpu_test rc=$? $(counts "$O/styles-gpu-test.log")"
fi
if part sanitize; then
  san() {  # tool graphs(1|0) variant
    local v=$3; [ $2 = 0 ] && v=$v,graphs=off
    timeout ${SANITIZE_TIMEOUT:-45} compute-sanitizer --tool $1 --error-exitcode 9 \
      "$B/trajectory_digest" dpd-fluid 8192 cuda "$v" 20 10 > "$O/sanitizer-$1.log" 2>&1
    stamp "sanitizer $1 graphs=$2 rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/sanitizer-$1.log" | tail -1)"
  }
  V=nlist=cells,precision=mixed,tpp=4,reorder=morton2,sort=5,pow=fast,fuse=on,noise=fp32
  san memcheck 1 $V
  san racecheck 0 $V
  if [[ ${LJ_MEMCHECK:-1} == 1 ]]; then
    timeout 40 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/kernels_test" --gtest_color=no \
      --gtest_filter='CudaCells.LjForcesEqualBruteForce' > "$O/memcheck-lj.log" 2>&1
    stamp "memcheck LJ rc=$? $(grep -E 'ERROR SUMMARY' "$O/memcheck-lj.log" | tail -1) $(counts "$O/memcheck-lj.log")"
  fi
fi
if part bench; then
  for size in rho3-1M="--param N=1048576" rho8-1M="--param N=1048576 --param rho=8" \
              rho8-2M="--param L=64 --param rho=8"; do
    k=${size%%=*}
    [[ " ${SIZES:-rho3-1M rho8-1M rho8-2M} " == *" $k "* ]] || continue
    for v in default cells; do
      extra=(); [[ $v == cells ]] && extra=(--variant nlist=cells)
      # shellcheck disable=SC2086
      timeout 30 "$B/mesobench" run --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$' ${size#*=} \
        --max-n 100000000 --backend cuda "${extra[@]}" \
        --repeats ${REPEATS:-3} --min-time 0.2 --warmup-time 0.2 \
        --json "$O/dpd-$k-$v.json" > "$O/dpd-$k-$v.log" 2>&1
      stamp "dpd-fluid $k $v rc=$? $(grep -E 'dpd-fluid' "$O/dpd-$k-$v.log" | tail -1 | cut -c1-150)"
    done
  done
fi
