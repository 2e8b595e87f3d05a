#!/usr/bin/env bash
# Domain decomposition on CUDA ranks (issue 14, second part) on a device
# machine, in one call, each part bounded by a timeout:
#  1. every GPU test (kernels_test): the list builders, cell list, forces,
#     reorder and context changed for ghosts;
#  2. decomposition_gpu_test under mpirun on 1, 2 and 4 ranks (sharing the
#     node's GPUs round-robin), and the CPU decomposition_test on 2 ranks;
#  3. compute-sanitizer memcheck and racecheck of the new kernels (border
#     selection, packing, unpacking, slot moves) and of the changed ones, on
#     2 ranks;
#  4. the decomposition's cost on the GPUs there are: mesobench scale, weak
#     (dpd-fluid 1M per rank) and strong (2M), 1 and 2 ranks, with the time
#     split (on one GPU both ranks share it: the split, not the efficiency,
#     is the measurement).
# After every part the outputs are packed into $TGZ.
# Usage: [PARTS="..."] scripts/device_gpu_ranks.sh <bin dir> <output dir> <tgz>
set -u
BIN=$1
O=$2
TGZ=$3
PARTS=" ${PARTS:-1 2 3 4} "
part() { [[ $PARTS == *" $1 "* ]]; }
mkdir -p "$O"
pack() { tar czf "$TGZ" -C "$O" . ; }
stamp() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$O/status.txt"; }
{ nvidia-smi; nvidia-smi -L; lscpu; date -u; } > "$O/device.txt" 2>&1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
MB=$BIN/mesobench
GPUS=$(nvidia-smi -L | grep -c '^GPU')
counts() { echo "$(grep -c '\[       OK \]' "$1") ok, $(grep -c '\[  SKIPPED \]' "$1") skipped, $(grep -c '\[  FAILED  \]' "$1") failed lines"; }

if part 1; then
  timeout 300 "$BIN/kernels_test" --gtest_color=no > "$O/gpu-tests.log" 2>&1
  stamp "kernels_test rc=$? $(counts "$O/gpu-tests.log")"
  pack
fi

if part 2; then
  for r in 1 2 4; do
    timeout 240 mpirun -np $r --oversubscribe --bind-to none "$BIN/decomposition_gpu_test" --gtest_color=no \
      > "$O/mpi-decomposition-gpu-$r.log" 2>&1
    stamp "decomposition_gpu_test on $r ranks ($GPUS GPUs) rc=$? $(counts "$O/mpi-decomposition-gpu-$r.log")"
  done
  timeout 120 mpirun -np 2 --bind-to none "$BIN/decomposition_test" --gtest_color=no > "$O/mpi-decomposition-cpu-2.log" 2>&1
  stamp "decomposition_test (cpu) on 2 ranks rc=$? $(counts "$O/mpi-decomposition-cpu-2.log")"
  pack
fi

if part 3; then
  F=${SANITIZE_FILTER:-*CudaVariants*:*GrootWarren*:*TeaNoise*}
  timeout 280 mpirun -np 2 --oversubscribe --bind-to none compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$BIN/decomposition_gpu_test" --gtest_color=no --gtest_filter="$F" > "$O/sanitizer-memcheck.log" 2>&1
  stamp "compute-sanitizer memcheck on 2 ranks ($F) rc=$? $(grep -c 'ERROR SUMMARY: 0 errors' "$O/sanitizer-memcheck.log") clean summaries"
  # racecheck's own collector crashes (SIGSEGV inside libsanitizer-collection,
  # compute-sanitizer of CUDA 13.0) on this build's single-rank CUDA-graph
  # path, in kernels_test as well; the multi-rank step is host-driven, and
  # MESO_TEST_VARIANT=graphs=off puts the one-rank comparison runs on that path too.
  # One rank at a time runs under it, the other plain (MPMD).
  export MESO_TEST_VARIANT=graphs=off
  for r in 0 1; do
    if [ $r = 0 ]; then
      timeout 280 mpirun -x MESO_TEST_VARIANT --bind-to none -np 1 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9 \
        "$BIN/decomposition_gpu_test" --gtest_color=no --gtest_filter="$F" : -np 1 "$BIN/decomposition_gpu_test" \
        --gtest_color=no --gtest_filter="$F" > "$O/sanitizer-racecheck-rank$r.log" 2>&1
    else
      timeout 280 mpirun -x MESO_TEST_VARIANT --bind-to none -np 1 "$BIN/decomposition_gpu_test" --gtest_color=no --gtest_filter="$F" : \
        -np 1 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9 \
        "$BIN/decomposition_gpu_test" --gtest_color=no --gtest_filter="$F" > "$O/sanitizer-racecheck-rank$r.log" 2>&1
    fi
    stamp "compute-sanitizer racecheck on rank $r of 2 ($F) rc=$? $(grep -c 'RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)' "$O/sanitizer-racecheck-rank$r.log") clean summaries"
  done
  unset MESO_TEST_VARIANT
  pack
fi

if part 4; then
  timeout 150 "$MB" scale --mode weak --workload dpd-fluid --ranks 1,2 --per-rank 1048576 --backend cuda \
    --steps 300 --warmup 50 --repeats 3 --mpirun-args "--bind-to none" --out "$O/gpu-weak-dpd" > "$O/gpu-weak-dpd.log" 2>&1
  stamp "gpu weak dpd 1M/rank rc=$?"
  timeout 150 "$MB" scale --mode strong --workload dpd-fluid --ranks 1,2 --total 2097152 --backend cuda \
    --steps 300 --warmup 50 --repeats 3 --mpirun-args "--bind-to none" --out "$O/gpu-strong-dpd" > "$O/gpu-strong-dpd.log" 2>&1
  stamp "gpu strong dpd 2M rc=$?"
  pack
fi
stamp done
