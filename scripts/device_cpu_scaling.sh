#!/usr/bin/env bash
# MPI domain decomposition on CPU ranks: the runs behind results/scaling/
# (issue 14, first part) on a device machine, in one call, each part bounded
# by a timeout:
#  1. every GPU test (kernels_test): this change touched kernels/ (device
#     selection per rank) and the engine's step plan that the CUDA backend
#     compiles;
#  2. the mpi tests on the host's cores (decomposition on 1, 2, 4, 8 ranks);
#  3. CPU strong scaling on every core of the node (one OpenMP thread per
#     rank): dpd-fluid N = 262144 and lj-liquid N = 64000 over 1..16 ranks,
#     and the one-rank OpenMP run on 16 threads it competes with;
#  4. CPU weak scaling, dpd-fluid, 32768 particles per rank, 1..16 ranks;
#  5. the one-GPU point of the weak sweep (dpd-fluid 1M per rank, cuda), and
#     the refusal of two cuda ranks (the CUDA backend has no domain
#     operation yet).
# After every part the outputs are packed into $TGZ.
# CPU_VARIANT (parts 3 and 4, e.g. reorder=cell,sort=100): the CPU runs'
# --variant (default: the workload's cpu default, reorder=none).
# Usage: [PARTS="..."] [CPU_VARIANT=...] scripts/device_cpu_scaling.sh <bin dir> <output dir> <tgz>
set -u
BIN=$1
O=$2
TGZ=$3
PARTS=" ${PARTS:-1 2 3 4 5} "
part() { [[ $PARTS == *" $1 "* ]]; }
mkdir -p "$O"
pack() { tar czf "$TGZ" -C "$O" . ; }
stamp() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$O/status.txt"; }
{ nvidia-smi; nvidia-smi -L; lscpu; date -u; } > "$O/device.txt" 2>&1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MB=$BIN/mesobench
CORES=$(env -u OMP_NUM_THREADS nproc)
CV=()
[ -n "${CPU_VARIANT:-}" ] && CV=(--variant "$CPU_VARIANT")

if part 1; then
  timeout 300 "$BIN/kernels_test" --gtest_color=no > "$O/gpu-tests.log" 2>&1
  stamp "kernels_test rc=$? $(grep -c '\[       OK \]' "$O/gpu-tests.log") ok, $(grep -c '\[  SKIPPED \]' "$O/gpu-tests.log") skipped, $(grep -c '\[  FAILED  \]' "$O/gpu-tests.log") failed lines"
  pack
fi

if part 2 && [ -x "$BIN/decomposition_test" ]; then
  for r in 1 2 4 8; do
    OMP_NUM_THREADS=1 timeout 120 mpirun -np $r --bind-to none "$BIN/decomposition_test" --gtest_color=no \
      > "$O/mpi-decomposition-$r.log" 2>&1
    stamp "decomposition_test on $r ranks rc=$?"
  done
  pack
fi

if part 3; then
  ranks=1,2,4,8,$CORES
  OMP_NUM_THREADS=1 timeout 240 "$MB" scale --mode strong --workload dpd-fluid --ranks $ranks --total 262144 \
    --backend cpu "${CV[@]}" --steps 20 --warmup 5 --repeats 3 --mpirun-args "--bind-to core" --out "$O/cpu-strong-dpd" \
    > "$O/cpu-strong-dpd.log" 2>&1
  stamp "cpu strong dpd rc=$?"
  OMP_NUM_THREADS=1 timeout 150 "$MB" scale --mode strong --workload lj-liquid --ranks $ranks --total 64000 \
    --backend cpu "${CV[@]}" --steps 20 --warmup 5 --repeats 3 --mpirun-args "--bind-to core" --out "$O/cpu-strong-lj" \
    > "$O/cpu-strong-lj.log" 2>&1
  stamp "cpu strong lj rc=$?"
  # The competitor of 16 ranks: one process, OpenMP on every core.
  OMP_NUM_THREADS=$CORES timeout 60 "$MB" run --backend cpu "${CV[@]}" --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=262144$' \
    --repeats 3 --min-time 1 --warmup-time 0.3 --quiet --json "$O/cpu-openmp-dpd.json" > "$O/cpu-openmp.log" 2>&1
  stamp "cpu openmp dpd rc=$?"
  pack
fi

if part 4; then
  OMP_NUM_THREADS=1 timeout 150 "$MB" scale --mode weak --workload dpd-fluid --ranks 1,2,4,8,$CORES \
    --per-rank 32768 --backend cpu "${CV[@]}" --steps 20 --warmup 5 --repeats 3 --mpirun-args "--bind-to core" \
    --out "$O/cpu-weak-dpd" > "$O/cpu-weak-dpd.log" 2>&1
  stamp "cpu weak dpd rc=$?"
  pack
fi

if part 5; then
  timeout 120 "$MB" scale --mode weak --workload dpd-fluid --ranks 1 --per-rank 1048576 --backend cuda \
    --steps 500 --warmup 100 --repeats 5 --out "$O/gpu-weak-dpd" > "$O/gpu-weak-dpd.log" 2>&1
  stamp "gpu weak dpd (1 rank) rc=$?"
  timeout 60 "$MB" scale --mode weak --workload dpd-fluid --ranks 2 --per-rank 1048576 --backend cuda \
    --steps 50 --warmup 10 --repeats 1 --out "$O/gpu-weak-dpd-2" > "$O/gpu-two-ranks-refused.log" 2>&1
  stamp "gpu 2 ranks rc=$? (refused expected)"
  pack
fi
stamp done
pack
