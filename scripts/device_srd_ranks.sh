#!/usr/bin/env bash
# The MPCD solvent on CPU ranks (issue 14, third part) on a device machine,
# in one call, each part bounded by a timeout:
#  1. every GPU test (kernels_test; kernels/mpcd/mpcd_op.cu refuses a
#     communicator of several ranks), and decomposition_gpu_test on 1 and 2
#     ranks (the refusal of srd-fluid on CUDA ranks);
#  2. decomposition_test (CPU) on 2, 4, 8 and 16 ranks: the MPCD solvent
#     bitwise the one-rank run, with the DPD and LJ tests;
#  3. srd-fluid on the host's cores, one rank per core: weak scaling at
#     1.25M particles per rank (Howard et al.'s per-GPU size), 1..16 ranks;
#  4. strong scaling of L = 100 (10M particles), 1..16 ranks, and the same
#     L = 100 in one process with OpenMP on every core.
# After every part the outputs are packed into $TGZ.
# Usage: [PARTS="..."] [OPENMP=0] scripts/device_srd_ranks.sh <bin dir> <output dir> <tgz>
set -u
BIN=$1
O=$2
TGZ=$3
PARTS=" ${PARTS:-1 2 3 4} "
part() { [[ $PARTS == *" $1 "* ]]; }
mkdir -p "$O"
pack() { tar czf "$TGZ" -C "$O" . ; }
stamp() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$O/status.txt"; }
{ nvidia-smi; nvidia-smi -L; lscpu; free -g; date -u; } > "$O/device.txt" 2>&1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
MB=$BIN/mesobench
CORES=$(getconf _NPROCESSORS_ONLN)  # not nproc: it honours OMP_NUM_THREADS
counts() { echo "$(grep -c '\[       OK \]' "$1") ok, $(grep -c '\[  SKIPPED \]' "$1") skipped, $(grep -c '\[  FAILED  \]' "$1") failed lines"; }

if part 1; then
  timeout 300 "$BIN/kernels_test" --gtest_color=no > "$O/gpu-tests.log" 2>&1
  stamp "kernels_test rc=$? $(counts "$O/gpu-tests.log")"
  for r in 1 2; do
    timeout 200 mpirun -np $r --oversubscribe --bind-to none "$BIN/decomposition_gpu_test" --gtest_color=no \
      > "$O/mpi-decomposition-gpu-$r.log" 2>&1
    stamp "decomposition_gpu_test on $r ranks rc=$? $(counts "$O/mpi-decomposition-gpu-$r.log")"
  done
  pack
fi

if part 2; then
  for r in 2 4 8 16; do
    timeout 200 mpirun -np $r --oversubscribe --bind-to none "$BIN/decomposition_test" --gtest_color=no \
      > "$O/mpi-decomposition-cpu-$r.log" 2>&1
    stamp "decomposition_test (cpu) on $r ranks rc=$? $(counts "$O/mpi-decomposition-cpu-$r.log")"
  done
  pack
fi

R=1,2,4,8
[ "$CORES" -ge 16 ] && R=$R,16
if part 3; then
  timeout 300 "$MB" scale --mode weak --workload srd-fluid --ranks $R --per-rank 1250000 --backend cpu \
    --steps 10 --warmup 3 --repeats 3 --mpirun-args "--bind-to core" --out "$O/cpu-weak-srd" > "$O/cpu-weak-srd.log" 2>&1
  stamp "cpu weak srd 1.25M/rank rc=$?"
  pack
fi

if part 4; then
  timeout 420 "$MB" scale --mode strong --workload srd-fluid --ranks $R --param L=100 --total 10000000 --backend cpu \
    --steps 5 --warmup 2 --repeats 3 --mpirun-args "--bind-to core" --out "$O/cpu-strong-srd" > "$O/cpu-strong-srd.log" 2>&1
  stamp "cpu strong srd L=100 rc=$?"
  pack
  if [ "${OPENMP:-1}" = 1 ]; then
    OMP_NUM_THREADS=$CORES timeout 120 "$MB" run --backend cpu --filter 'srd-fluid.*L=100$' --max-n 20000000 \
      --repeats 3 --min-time 1 --json "$O/cpu-openmp-srd.json" > "$O/cpu-openmp-srd.log" 2>&1
    stamp "one process, $CORES OpenMP threads, srd L=100 rc=$?"
    pack
  fi
fi
stamp done
