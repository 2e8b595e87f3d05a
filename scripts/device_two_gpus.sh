#!/usr/bin/env bash
# Issue 14's GPU figures on a machine of two GPUs (nvidia-h100-x2 or
# nvidia-h200-x2), in one call, each part bounded by a timeout; one rank per
# GPU (scale-point maps ranks to GPUs by local rank):
#  0. (SRC set) configure and build SRC into BIN with every core;
#  1. every GPU test (kernels_test);
#  2. decomposition_gpu_test on 1 and 2 ranks (a GPU each) and on 4 (two a
#     GPU): DPD/LJ forces and thermo against one rank, and the MPCD solvent
#     bitwise one rank's;
#  4. dpd-fluid: weak scaling at 1M particles per GPU and strong scaling of
#     2M, 1 -> 2 GPUs, with the time split;
#  5. srd-fluid: weak scaling at 1.25M solvent particles per GPU, and strong
#     scaling of L = 100 (10M), 1 -> 2 GPUs;
#  6. parts 4 and 5's two-GPU points again with OpenMPI's single-copy
#     transport for shared memory (--mca btl_vader_single_copy_mechanism
#     cma; Ubuntu's OpenMPI defaults to none: copy in, copy out);
#  7. the dpd-fluid points on two GPUs with the ghost updates through the
#     host (--transport host) instead of peer reads;
#  8. decomposition_gpu_test's --transport host test on 2 ranks (every ghost
#     through the host);
#  9. (OLD set: the bin dir of an earlier build) parts 4's two-GPU points
#     with that build, on the same machine, for a before/after;
# 10. the phase diagnostic (MESO_STEP_PHASES=1: every phase of every step
#     waited for and timed, per rank) of dpd-fluid at 1M per GPU on one GPU
#     (host-driven, --variant graphs=off) and on two;
#  3. (last) compute-sanitizer memcheck (2 ranks) and racecheck (one rank at
#     a time, the other plain; host-driven path: racecheck's collector
#     crashes on graphs; RACECHECK=0 skips it) of the decomposition tests in
#     SANITIZE_FILTER.
# After every part the outputs are packed into $TGZ.
# Usage: [SRC=dir] [PARTS="..."] scripts/device_two_gpus.sh <bin dir> <output dir> <tgz>
set -u
BIN=$1
O=$2
TGZ=$3
PARTS=" ${PARTS:-1 2 4} "
part() { [[ $PARTS == *" $1 "* ]]; }
mkdir -p "$O"
pack() { tar czf "$TGZ" -C "$O" . ; }
stamp() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$O/status.txt"; }
{ nvidia-smi; nvidia-smi -L; nvidia-smi topo -m; lscpu; free -g; date -u; ompi_info --parsable --all | grep -i "cuda_support"; } > "$O/device.txt" 2>&1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
export NCCL_NVLS_ENABLE=0
# dpd-fluid's two-GPU points, weak (1M per GPU) and strong (2M), with
# mesobench binary $1, mpirun arguments $2, into gpu-{weak,strong}-dpd$3.
dpd_two_gpu_points() {  # mesobench, mpirun arguments, name suffix, scale arguments...
  timeout 120 "$1" scale --mode weak --workload dpd-fluid --ranks 2 --per-rank 1048576 --backend cuda \
    --steps 500 --warmup 100 --repeats 5 --mpirun-args "$2" --out "$O/gpu-weak-dpd$3" "${@:4}" \
    > "$O/gpu-weak-dpd$3.log" 2>&1
  stamp "gpu weak dpd 2 GPUs ($3) rc=$?"
  timeout 120 "$1" scale --mode strong --workload dpd-fluid --ranks 2 --total 2097152 --backend cuda \
    --steps 500 --warmup 100 --repeats 5 --mpirun-args "$2" --out "$O/gpu-strong-dpd$3" "${@:4}" \
    > "$O/gpu-strong-dpd$3.log" 2>&1
  stamp "gpu strong dpd 2 GPUs ($3) rc=$?"
}
counts() { echo "$(grep -c '\[       OK \]' "$1") ok, $(grep -c '\[  SKIPPED \]' "$1") skipped, $(grep -c '\[  FAILED  \]' "$1") failed lines"; }

if [ -n "${SRC:-}" ]; then
  B=$(dirname "$BIN")
  timeout 420 bash -c "cmake -S '$SRC' -B '$B' -G Ninja -DCMAKE_BUILD_TYPE=Release -DMESO_ENABLE_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 > '$O/build.log' 2>&1 && cmake --build '$B' -j \$(nproc) >> '$O/build.log' 2>&1"
  stamp "build rc=$?"
  tail -3 "$O/build.log"
fi
MB=$BIN/mesobench

if part 1; then
  timeout 300 "$BIN/kernels_test" --gtest_color=no > "$O/gpu-tests.log" 2>&1
  stamp "kernels_test rc=$? $(counts "$O/gpu-tests.log")"
  pack
fi

if part 2; then
  for r in ${DECOMP_RANKS:-1 2 4}; do
    timeout ${DECOMP_TIMEOUT:-240} mpirun -np $r --oversubscribe --bind-to none "$BIN/decomposition_gpu_test" --gtest_color=no \
      > "$O/mpi-decomposition-gpu-$r.log" 2>&1
    stamp "decomposition_gpu_test on $r ranks rc=$? $(counts "$O/mpi-decomposition-gpu-$r.log")"
  done
  pack
fi

if part 4; then
  timeout ${SWEEP_TIMEOUT:-200} "$MB" scale --mode weak --workload dpd-fluid --ranks 1,2 --per-rank 1048576 --backend cuda \
    --steps 500 --warmup 100 --repeats 5 --mpirun-args "--bind-to none" --out "$O/gpu-weak-dpd" > "$O/gpu-weak-dpd.log" 2>&1
  stamp "gpu weak dpd 1M per GPU rc=$?"
  timeout ${SWEEP_TIMEOUT:-200} "$MB" scale --mode strong --workload dpd-fluid --ranks 1,2 --total 2097152 --backend cuda \
    --steps 500 --warmup 100 --repeats 5 --mpirun-args "--bind-to none" --out "$O/gpu-strong-dpd" > "$O/gpu-strong-dpd.log" 2>&1
  stamp "gpu strong dpd 2M rc=$?"
  pack
fi

if part 5; then
  timeout ${SWEEP_TIMEOUT:-200} "$MB" scale --mode weak --workload srd-fluid --ranks 1,2 --per-rank 1250000 --backend cuda \
    --steps 500 --warmup 50 --repeats 5 --mpirun-args "--bind-to none" --out "$O/gpu-weak-srd" > "$O/gpu-weak-srd.log" 2>&1
  stamp "gpu weak srd 1.25M per GPU rc=$?"
  timeout ${SWEEP_TIMEOUT:-200} "$MB" scale --mode strong --workload srd-fluid --param L=100 --ranks 1,2 --total 10000000 --backend cuda \
    --steps 200 --warmup 20 --repeats 5 --mpirun-args "--bind-to none" --out "$O/gpu-strong-srd" > "$O/gpu-strong-srd.log" 2>&1
  stamp "gpu strong srd L=100 rc=$?"
  pack
fi
if part 6; then
  CMA="--bind-to none --mca btl_vader_single_copy_mechanism cma"
  timeout 120 "$MB" scale --mode weak --workload dpd-fluid --ranks 2 --per-rank 1048576 --backend cuda \
    --steps 500 --warmup 100 --repeats 5 --mpirun-args "$CMA" --out "$O/gpu-weak-dpd-cma" > "$O/gpu-weak-dpd-cma.log" 2>&1
  stamp "gpu weak dpd 2 GPUs, cma rc=$?"
  timeout 120 "$MB" scale --mode weak --workload srd-fluid --ranks 2 --per-rank 1250000 --backend cuda \
    --steps 500 --warmup 50 --repeats 5 --mpirun-args "$CMA" --out "$O/gpu-weak-srd-cma" > "$O/gpu-weak-srd-cma.log" 2>&1
  stamp "gpu weak srd 2 GPUs, cma rc=$?"
  pack
fi

if part 7; then
  dpd_two_gpu_points "$MB" "--bind-to none" -host --transport host
  pack
fi

if part 8; then
  timeout ${DECOMP_TIMEOUT:-240} mpirun -np 2 --bind-to none "$BIN/decomposition_gpu_test" \
    --gtest_color=no --gtest_filter='*HostTransport*' > "$O/mpi-decomposition-gpu-2-host.log" 2>&1
  stamp "decomposition_gpu_test on 2 ranks, ghosts through the host rc=$? $(counts "$O/mpi-decomposition-gpu-2-host.log")"
  pack
fi

if part 9 && [ -n "${OLD:-}" ]; then
  dpd_two_gpu_points "$OLD/mesobench" "--bind-to none" -old
  pack
fi

if part 10; then
  export MESO_STEP_PHASES=1
  timeout 120 "$MB" scale --mode weak --workload dpd-fluid --ranks 1 --per-rank 1048576 --backend cuda \
    --steps 500 --warmup 100 --repeats 5 --mpirun-args "--bind-to none -x MESO_STEP_PHASES" --variant graphs=off \
    --out "$O/gpu-weak-dpd-phases-1" > "$O/gpu-weak-dpd-phases-1.log" 2>&1
  stamp "gpu dpd phases on one GPU rc=$?"
  timeout 120 "$MB" scale --mode weak --workload dpd-fluid --ranks 2 --per-rank 1048576 --backend cuda \
    --steps 500 --warmup 100 --repeats 5 --mpirun-args "--bind-to none -x MESO_STEP_PHASES" \
    --out "$O/gpu-weak-dpd-phases-2" > "$O/gpu-weak-dpd-phases-2.log" 2>&1
  stamp "gpu dpd phases on two GPUs rc=$?"
  unset MESO_STEP_PHASES
  pack
fi

if part 3; then
  F=${SANITIZE_FILTER:-*Srd*:*CudaVariants*:*LineOfRanks*}
  timeout 150 mpirun -np 2 --bind-to none compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$BIN/decomposition_gpu_test" --gtest_color=no --gtest_filter="$F" > "$O/sanitizer-memcheck.log" 2>&1
  stamp "memcheck on 2 ranks ($F) rc=$? $(grep -c 'ERROR SUMMARY: 0 errors' "$O/sanitizer-memcheck.log") clean summaries"
  export MESO_TEST_VARIANT=graphs=off
  for r in $([ "${RACECHECK:-1}" = 1 ] && echo 0 1); do
    RC="compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9"
    A="" ; Bc=""
    if [ $r = 0 ]; then A=$RC; else Bc=$RC; fi
    timeout 150 mpirun -x MESO_TEST_VARIANT --bind-to none -np 1 $A "$BIN/decomposition_gpu_test" --gtest_color=no \
      --gtest_filter="$F" : -np 1 $Bc "$BIN/decomposition_gpu_test" --gtest_color=no --gtest_filter="$F" \
      > "$O/sanitizer-racecheck-rank$r.log" 2>&1
    stamp "racecheck on rank $r of 2 ($F) rc=$? $(grep -c 'RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)' "$O/sanitizer-racecheck-rank$r.log") clean summaries"
  done
  unset MESO_TEST_VARIANT
  pack
fi

stamp done
pack
