#!/usr/bin/env bash
# The several-GPU checks and sweeps of docs/scaling.md on a machine of 2, 4
# or 8 GPUs, in one call, each part bounded by a timeout, one rank per GPU
# (scale-point maps ranks to GPUs by local rank). The binaries come built:
# .carry/bins.tar.xz (mesobench, decomposition_gpu_test[, kernels_test])
# built on the dev machine with CMAKE_CUDA_ARCHITECTURES=90; RE2 from .deps/
# (scripts/device_deps.sh) and NCCL from the machine's nvidia-nccl-cu13
# wheel are put on LD_LIBRARY_PATH. NCCL_NVLS_ENABLE=0 reaches every rank.
# Parts (PARTS="..."):
#   tests   decomposition_gpu_test on each of DECOMP_RANKS (default "2 4"),
#           GTEST_FILTER (default all)
#   kernels kernels_test (every one-GPU test)
#   srd     srd-fluid weak 1.25M per GPU and strong L = 100 on RANKS, for
#           each transport of TRANSPORTS (default "ipc nccl")
#   socket  srd-fluid weak with NCCL's socket transport (NCCL_P2P_DISABLE=1
#           NCCL_SHM_DISABLE=1: the network stand-in) and with every record
#           through the host (--transport host)
#   dpd     dpd-fluid weak 1M per GPU and strong 2M (DPD_TRANSPORTS), strong 8M (DPD_LARGE=1)
#   dpdfull dpd-fluid weak 1M per GPU through ipc with full rows (nlist=ballot) at every point: the
#           rows several ranks ran before half rows ran there
#   lj      lj-liquid strong 1M (Nose-Hoover) for each of LJ_TRANSPORTS
#   grid    dpd-fluid weak and srd-fluid weak (nccl) on 4 GPUs with --grid 2x2x1 and 4x1x1
#   grid2   dpd-fluid weak on 4 GPUs, 4x1x1 and 2x2x1 alternated twice; srd-fluid (nccl) on both
#   phases  srd-fluid on PHASE_RANKS GPUs (default "2 4"; nccl) with MESO_SOLVENT_PHASES=1
#   srdbase srd-fluid weak (and strong L = 100 with SRD_BASE_STRONG=1) through nccl, this tree's
#           mesobench against .carry's mesobench-base (an earlier commit's), alternated BASE_ROUNDS
#           times (default 2); BASE_SOCKET=1 adds both through NCCL's socket transport
#   dpdsocket dpd-fluid weak through NCCL's socket transport and through the host
#   srdgraph srd-fluid weak (and strong L = 100 with SRD_BASE_STRONG=1) through nccl with the
#           decomposed collision as CUDA graphs (--variant solvent_graphs=on) and without, alternated
#           BASE_ROUNDS times (default 2)
#   overlap dpd-fluid weak and strong 2M, and lj-liquid strong 1M, with the interior forces beside
#           the vote and the ghost update (--variant overlap=on) and without (off, the default),
#           alternated twice
#   votes   dpd-fluid weak (twice) and lj-liquid strong 1M through ipc (a vote every step), nccl
#           (VoteSchedule) and nccl with --variant vote=every, alternated
#   setup   lj-liquid weak 1M per GPU (each rank builds its own lattice sites)
#   nsys    srd-fluid weak on 2 GPUs (nccl) under Nsight Systems: kernel and CUDA API sums per rank
#   kernels_bg kernels_test on the last GPU in the background (beside sanitize)
#   sanitize compute-sanitizer memcheck (MEMCHECK_FILTER) and racecheck (RACECHECK_FILTER) on 2 ranks
#           (racecheck with MESO_TEST_VARIANT=graphs=off; RACECHECK_X adds mpirun arguments)
# After every part the outputs are packed into $OUT/gpus.tgz.
# Usage: PARTS="tests srd" scripts/device_gpus.sh <output dir>
set -u
O=$1
mkdir -p "$O"
BIN=/tmp/meso-bin
mkdir -p "$BIN" && tar xJf .carry/bins.tar.xz -C "$BIN"
NCCL_LIB=$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null)/lib
export LD_LIBRARY_PATH="$PWD/.deps/re2/lib:$NCCL_LIB:${LD_LIBRARY_PATH:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 NCCL_NVLS_ENABLE=0
PARTS=" ${PARTS:-tests} "
RANKS=${RANKS:-1,2,4}
part() { [[ $PARTS == *" $1 "* ]]; }
pack() { tar czf "$OUT/gpus.tgz" -C "$O" . 2>/dev/null || true; }
stamp() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$O/status.txt"; }
counts() { echo "$(grep -c '\[       OK \]' "$1") ok, $(grep -c '\[  SKIPPED \]' "$1") skipped, $(grep -c '\[  FAILED  \]' "$1") failed"; }
{ nvidia-smi -L; nvidia-smi topo -m; date -u; ls "$NCCL_LIB"; python3 -m pip show nvidia-nccl-cu13 | head -2; } > "$O/device.txt" 2>&1
ldd "$BIN/mesobench" | grep -E "nccl|re2|not found" >> "$O/device.txt"
MB=$BIN/mesobench
X="--bind-to none -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH"
sweep() {  # name, timeout, scale arguments...
  local name=$1 t=$2; shift 2
  timeout "$t" "$MB" scale --backend cuda --mpirun-args "$X" --out "$O/$name" "$@" > "$O/$name.log" 2>&1
  stamp "$name rc=$? $(grep -A8 '^ ranks' "$O/$name.log" | awk 'NR>1{printf "%s:%s/%s ", $1, $4, $6}')"
}

if part tests; then
  for r in ${DECOMP_RANKS:-2 4}; do
    timeout ${DECOMP_TIMEOUT:-200} mpirun -np $r $X "$BIN/decomposition_gpu_test" --gtest_color=no \
      --gtest_filter="${GTEST_FILTER:-*}" > "$O/decomposition-gpu-$r.log" 2>&1
    stamp "decomposition_gpu_test on $r ranks rc=$? $(counts "$O/decomposition-gpu-$r.log")"
  done
  pack
fi
if part kernels; then
  timeout 300 "$BIN/kernels_test" --gtest_color=no > "$O/kernels-test.log" 2>&1
  stamp "kernels_test rc=$? $(counts "$O/kernels-test.log")"
  pack
fi
if part srd; then
  for t in ${TRANSPORTS:-ipc nccl}; do
    sweep srd-weak-$t ${SWEEP_TIMEOUT:-150} --mode weak --workload srd-fluid --ranks "$RANKS" --per-rank 1250000 \
      --steps ${SRD_STEPS:-500} --warmup 50 --repeats ${REPEATS:-3} --transport $t
    pack
  done
  for t in ${TRANSPORTS:-ipc nccl}; do
    sweep srd-strong-$t ${SWEEP_TIMEOUT:-150} --mode strong --workload srd-fluid --param L=100 --ranks "$RANKS" \
      --total 10000000 --steps ${SRD_STRONG_STEPS:-200} --warmup 20 --repeats ${REPEATS:-3} --transport $t
    pack
  done
fi
if part socket; then
  X="$X -x NCCL_P2P_DISABLE=1 -x NCCL_SHM_DISABLE=1"
  sweep srd-weak-nccl-socket ${SWEEP_TIMEOUT:-150} --mode weak --workload srd-fluid --ranks "$RANKS" \
    --per-rank 1250000 --steps ${SRD_STEPS:-500} --warmup 50 --repeats ${REPEATS:-3} --transport nccl
  X="--bind-to none -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH"
  sweep srd-weak-host ${SWEEP_TIMEOUT:-150} --mode weak --workload srd-fluid --ranks "$RANKS" \
    --per-rank 1250000 --steps ${SRD_STEPS:-500} --warmup 50 --repeats ${REPEATS:-3} --transport host
  pack
fi
if part dpd; then
  for t in ${DPD_TRANSPORTS:-ipc}; do
    sweep dpd-weak-$t ${SWEEP_TIMEOUT:-150} --mode weak --workload dpd-fluid --ranks "$RANKS" --per-rank 1048576 \
      --steps 500 --warmup 100 --repeats ${REPEATS:-3} --transport $t
    sweep dpd-strong-2M-$t ${SWEEP_TIMEOUT:-150} --mode strong --workload dpd-fluid --ranks "$RANKS" \
      --total 2097152 --steps 500 --warmup 100 --repeats ${REPEATS:-3} --transport $t
    pack
  done
  if [ "${DPD_LARGE:-1}" = 1 ]; then
    sweep dpd-strong-8M ${SWEEP_TIMEOUT:-150} --mode strong --workload dpd-fluid --ranks "$RANKS" --total 8388608 \
      --steps 200 --warmup 50 --repeats ${REPEATS:-3}
  fi
  pack
fi
if part dpdfull; then
  sweep dpd-weak-ballot ${SWEEP_TIMEOUT:-150} --mode weak --workload dpd-fluid --ranks "$RANKS" --per-rank 1048576 \
    --steps 500 --warmup 100 --repeats ${REPEATS:-3} --transport ipc --variant nlist=ballot
  pack
fi
if part lj; then  # lj-liquid's default is Nose-Hoover (nvt): its kinetic energy summed over the ranks
  for t in ${LJ_TRANSPORTS:-ipc nccl}; do
    sweep lj-strong-1M-$t ${SWEEP_TIMEOUT:-150} --mode strong --workload lj-liquid --ranks "$RANKS" \
      --total 1048576 --steps 500 --warmup 100 --repeats ${REPEATS:-3} --transport $t
  done
  pack
fi
if part grid; then
  sweep srd-weak-nccl-4x1x1 ${SWEEP_TIMEOUT:-100} --mode weak --workload srd-fluid --ranks 4 --per-rank 1250000 \
    --steps 500 --warmup 50 --repeats ${REPEATS:-3} --grid 4x1x1 --transport nccl
  sweep dpd-weak-2x2x1 ${SWEEP_TIMEOUT:-100} --mode weak --workload dpd-fluid --ranks 4 --per-rank 1048576 \
    --steps 500 --warmup 100 --repeats ${REPEATS:-3} --grid 2x2x1
  sweep srd-weak-nccl-2x2x1 ${SWEEP_TIMEOUT:-100} --mode weak --workload srd-fluid --ranks 4 --per-rank 1250000 \
    --steps 500 --warmup 50 --repeats ${REPEATS:-3} --grid 2x2x1 --transport nccl
  pack
fi
if part grid2; then  # the two grids of 4 GPUs alternated twice on one machine, dpd-fluid weak
  for k in 1 2; do
    for g in 4x1x1 2x2x1; do
      sweep dpd-weak-$g-$k ${SWEEP_TIMEOUT:-100} --mode weak --workload dpd-fluid --ranks 4 --per-rank 1048576 \
        --steps 500 --warmup 100 --repeats ${REPEATS:-5} --grid $g
    done
  done
  for g in 4x1x1 2x2x1; do
    sweep srd-weak-$g ${SWEEP_TIMEOUT:-100} --mode weak --workload srd-fluid --ranks 4 --per-rank 1250000 \
      --steps 500 --warmup 50 --repeats ${REPEATS:-5} --grid $g --transport nccl
  done
  pack
fi
if part phases; then  # where an SRD collision period's GPU time goes (MESO_SOLVENT_PHASES=1)
  for r in ${PHASE_RANKS:-2 4}; do
    timeout 60 mpirun -np $r $X -x MESO_SOLVENT_PHASES=1 "$MB" scale-point --workload srd-fluid \
      --n $((1250000 * r)) --steps 300 --warmup 50 --repeats 1 --backend cuda --transport nccl \
      > "$O/srd-phases-$r.log" 2>&1
    stamp "srd phases on $r GPUs rc=$?"
  done
  pack
fi
if part srdbase; then
  MB0=$MB
  for k in $(seq 1 ${BASE_ROUNDS:-2}); do
    for b in base new; do
      MB=$MB0
      [ $b = base ] && MB=$BIN/mesobench-base
      sweep srd-weak-nccl-$b-$k ${SWEEP_TIMEOUT:-150} --mode weak --workload srd-fluid --ranks "$RANKS" \
        --per-rank 1250000 --steps ${SRD_STEPS:-500} --warmup 50 --repeats ${REPEATS:-3} --transport nccl
      if [ "${BASE_SOCKET:-0}" = 1 ]; then
        X0=$X
        X="$X -x NCCL_P2P_DISABLE=1 -x NCCL_SHM_DISABLE=1"
        sweep srd-weak-socket-$b-$k ${SWEEP_TIMEOUT:-150} --mode weak --workload srd-fluid --ranks "$RANKS" \
          --per-rank 1250000 --steps ${SRD_STEPS:-500} --warmup 50 --repeats ${REPEATS:-3} --transport nccl
        X=$X0
      fi
      [ "${SRD_BASE_STRONG:-0}" = 1 ] && sweep srd-strong-nccl-$b-$k ${SWEEP_TIMEOUT:-150} --mode strong \
        --workload srd-fluid --param L=100 --ranks "$RANKS" --total 10000000 --steps ${SRD_STRONG_STEPS:-200} \
        --warmup 20 --repeats ${REPEATS:-3} --transport nccl
      pack
    done
  done
  MB=$MB0
fi
if part nsys; then  # where a decomposed solvent period's device and host time go
  NSYS=$(command -v nsys || ls /usr/local/cuda*/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
  echo "nsys: ${NSYS:-none}" > "$O/nsys.txt"
  if [ -n "$NSYS" ]; then
    timeout 150 mpirun -np 2 $X "$NSYS" profile -t cuda,nvtx -o /tmp/srd-nsys-%q{OMPI_COMM_WORLD_RANK} -f true \
      "$MB" scale-point --workload srd-fluid --n 2500000 --steps 300 --warmup 50 --repeats 1 --backend cuda \
      --transport nccl >> "$O/nsys.txt" 2>&1
    for r in 0 1; do
      "$NSYS" stats -q -r cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_mem_time_sum -f csv -o "$O/nsys-r$r" \
        /tmp/srd-nsys-$r.nsys-rep >> "$O/nsys.txt" 2>&1
    done
    stamp "nsys rc=$?"
  fi
  pack
fi
if part srdgraph; then
  for round in $(seq ${BASE_ROUNDS:-2}); do
    for g in 1 0; do
      V=solvent_graphs=$([ $g = 1 ] && echo on || echo off)
      sweep srd-weak-graphs$g-$round ${SWEEP_TIMEOUT:-150} --mode weak --workload srd-fluid --ranks "$RANKS" \
        --per-rank 1250000 --steps ${SRD_STEPS:-500} --warmup 50 --repeats ${REPEATS:-3} --transport nccl \
        --variant $V
      if [ "${SRD_BASE_STRONG:-0}" = 1 ]; then
        sweep srd-strong-graphs$g-$round ${SWEEP_TIMEOUT:-150} --mode strong --workload srd-fluid --param L=100 \
          --ranks "$RANKS" --total 10000000 --steps ${SRD_STRONG_STEPS:-200} --warmup 20 --repeats ${REPEATS:-3} \
          --transport nccl --variant $V
      fi
      pack
    done
  done
fi
if part dpdsocket; then
  X0=$X
  X="$X -x NCCL_P2P_DISABLE=1 -x NCCL_SHM_DISABLE=1"
  sweep dpd-weak-nccl-socket ${SWEEP_TIMEOUT:-150} --mode weak --workload dpd-fluid --ranks "$RANKS" \
    --per-rank 1048576 --steps 500 --warmup 100 --repeats ${REPEATS:-3} --transport nccl
  X=$X0
  sweep dpd-weak-host ${SWEEP_TIMEOUT:-150} --mode weak --workload dpd-fluid --ranks "$RANKS" \
    --per-rank 1048576 --steps 500 --warmup 100 --repeats ${REPEATS:-3} --transport host
  pack
fi
if part overlap; then
  for k in 1 2; do
    for o in 1 0; do
      V=overlap=$([ $o = 1 ] && echo on || echo off)
      sweep dpd-weak-overlap$o-$k ${SWEEP_TIMEOUT:-100} --mode weak --workload dpd-fluid --ranks "$RANKS" \
        --per-rank 1048576 --steps 500 --warmup 100 --repeats ${REPEATS:-3} --variant $V
      [ $k = 1 ] && sweep dpd-strong-2M-overlap$o ${SWEEP_TIMEOUT:-100} --mode strong --workload dpd-fluid \
        --ranks "$RANKS" --total 2097152 --steps 500 --warmup 100 --repeats ${REPEATS:-3} --variant $V
      [ $k = 1 ] && sweep lj-strong-1M-overlap$o ${SWEEP_TIMEOUT:-100} --mode strong --workload lj-liquid \
        --ranks "$RANKS" --total 1048576 --steps 500 --warmup 100 --repeats ${REPEATS:-3} --variant $V
      pack
    done
  done
fi
if part votes; then
  for k in 1 2; do
    for v in ipc nccl nccl-every; do
      V=vote=$([ $v = nccl-every ] && echo every || echo schedule)
      sweep dpd-weak-vote-$v-$k ${SWEEP_TIMEOUT:-100} --mode weak --workload dpd-fluid --ranks "$RANKS" \
        --per-rank 1048576 --steps 500 --warmup 100 --repeats ${REPEATS:-3} --transport ${v%-every} --variant $V
      [ $k = 1 ] && sweep lj-strong-1M-vote-$v ${SWEEP_TIMEOUT:-100} --mode strong --workload lj-liquid \
        --ranks "$RANKS" --total 1048576 --steps 500 --warmup 100 --repeats ${REPEATS:-3} --transport ${v%-every} \
        --variant $V
      pack
    done
  done
fi
if part setup; then
  sweep lj-weak-setup ${SWEEP_TIMEOUT:-100} --mode weak --workload lj-liquid --ranks "$RANKS" --per-rank 1048576 \
    --steps 200 --warmup 50 --repeats ${REPEATS:-3}
  pack
fi
if part kernels_bg; then  # kernels_test on the last GPU, beside the sanitizers
  CUDA_VISIBLE_DEVICES=$(( $(nvidia-smi -L | wc -l) - 1 )) timeout 300 "$BIN/kernels_test" --gtest_color=no \
    > "$O/kernels-test.log" 2>&1 &
  KPID=$!
fi
if part sanitize; then
  # NCCL's own kernels are left out (its shared-memory protocol reads as
  # races to racecheck) and so are the API errors of its initialisation
  # (it probes kernel images of other architectures); every CUDA call of
  # ours is checked by MESO_CUDA_CHECK.
  NCCL_OUT="--kernel-name-exclude kns=nccl"
  timeout ${MEMCHECK_TIMEOUT:-240} mpirun -np 2 $X compute-sanitizer --tool memcheck --report-api-errors no $NCCL_OUT \
    --error-exitcode 9 "$BIN/decomposition_gpu_test" \
    --gtest_color=no --gtest_filter="${MEMCHECK_FILTER:-*Nccl*}" > "$O/sanitizer-memcheck.log" 2>&1
  stamp "memcheck rc=$? $(grep -c 'ERROR SUMMARY: 0 errors' "$O/sanitizer-memcheck.log") ranks clean"
  # racecheck of compute-sanitizer 2025.3.1 (CUDA 13.0) crashes in its own
  # library (a segfault in libsanitizer-collection.so) on the one-rank MD
  # step graph, whose conditional nodes the tests' one-rank references run:
  # graphs=off runs the same kernels from the host (MESO_TEST_VARIANT lays
  # it over every variant the tests make). RACECHECK_X: more mpirun
  # arguments (-x MESO_TEST_VARIANT=graphs=off,overlap=always).
  timeout ${RACECHECK_TIMEOUT:-300} mpirun -np 2 $X -x MESO_TEST_VARIANT=graphs=off ${RACECHECK_X:-} \
    compute-sanitizer --tool racecheck \
    --racecheck-report all $NCCL_OUT \
    --error-exitcode 9 \
    "$BIN/decomposition_gpu_test" --gtest_color=no --gtest_filter="${RACECHECK_FILTER:-*SrdNccl*}" \
    > "$O/sanitizer-racecheck.log" 2>&1
  stamp "racecheck rc=$? $(grep -c 'RACECHECK SUMMARY: 0 hazards' "$O/sanitizer-racecheck.log") ranks clean"
  pack
fi
if [ -n "${KPID:-}" ]; then
  wait $KPID
  stamp "kernels_test rc=$? $(counts "$O/kernels-test.log")"
  pack
fi
stamp done
