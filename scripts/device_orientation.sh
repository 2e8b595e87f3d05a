#!/usr/bin/env bash
# Orientational particles on one GPU, in one call (results/orientation/README.md):
#   tests     kernels_test (every one-GPU test; CudaAniso.* are the orientational ones) and
#             decomposition_gpu_test on 2 ranks sharing the GPU (the MD paths the context and
#             the reorder share with them)
#   sanitize  compute-sanitizer memcheck and racecheck of CudaAniso.* (racecheck with
#             MESO_TEST_VARIANT=graphs=off, as device_gpus.sh)
#   gates     the short forms of nve-drift-rigid and rotational-equipartition on the GPU, in
#             the workload's mixed default and in double
#   bench     gb-liquid (8000, 64000) beside lj-liquid at the same N, ssd-water (64000, 1M),
#             each in mixed and double, REPEATS timed repeats
#   variants  gb-liquid and ssd-water at each size with each variant of VARIANTS ("name=axes ...",
#             axes over the workload's default), then the gates' short forms with each of
#             GATE_VARIANTS
# The binaries come built (.carry/bins.tar.xz: mesobench, kernels_test,
# decomposition_gpu_test), RE2 from .deps/. Outputs are packed into $OUT/orientation.tgz
# after every part.
# Usage: PARTS="tests sanitize gates bench" scripts/device_orientation.sh <output dir>
set -u
O=$1
PARTS=${PARTS:-tests sanitize gates bench}
. scripts/device_carried.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=8
pack() { tar czf "$OUT/orientation.tgz" -C "$O" . 2>/dev/null || true; }
if part tests; then
  timeout ${KERNELS_TIMEOUT:-300} "$BIN/kernels_test" --gtest_color=no --gtest_filter="${GTEST_FILTER:-*}" \
    > "$O/kernels-test.log" 2>&1
  stamp "kernels_test rc=$? $(counts "$O/kernels-test.log")"
  timeout ${DECOMP_TIMEOUT:-150} mpirun -np 2 --bind-to none -x LD_LIBRARY_PATH -x OMP_NUM_THREADS \
    "$BIN/decomposition_gpu_test" --gtest_color=no > "$O/decomposition-gpu-2.log" 2>&1
  stamp "decomposition_gpu_test on 2 ranks rc=$? $(counts "$O/decomposition-gpu-2.log")"
  pack
fi
if part sanitize; then
  F=${SANITIZE_FILTER:-CudaAniso.*}
  timeout ${SANITIZE_TIMEOUT:-200} compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$BIN/kernels_test" --gtest_color=no --gtest_filter="$F" > "$O/memcheck.log" 2>&1
  stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$O/memcheck.log" | tail -1) $(counts "$O/memcheck.log")"
  MESO_TEST_VARIANT=graphs=off timeout ${SANITIZE_TIMEOUT:-200} compute-sanitizer --tool racecheck --error-exitcode 9 \
    "$BIN/kernels_test" --gtest_color=no --gtest_filter="$F" > "$O/racecheck.log" 2>&1
  stamp "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' "$O/racecheck.log" | tail -1) $(counts "$O/racecheck.log")"
  pack
fi
if part gates; then
  for v in ${GATE_VARIANTS:-precision=mixed precision=double}; do
    for g in nve-drift-rigid rotational-equipartition; do
      timeout ${GATE_TIMEOUT:-120} "$MB" validate --filter $g --backend cuda --variant $v \
        --json "$O/$g-${v#*=}.json" > "$O/$g-${v#*=}.log" 2>&1
      stamp "$g $v rc=$? $(grep -E "^$g" "$O/$g-${v#*=}.log" | tail -1)"
    done
  done
  pack
fi
if part variants; then
  for nv in ${VARIANTS:-default=precision=mixed}; do
    for w in gb-liquid:8000 gb-liquid:64000 ssd-water:64000 ssd-water:1000000; do
      f="${w%%:*}/.*N=64000\$"; [ "${w%%:*}" = gb-liquid ] && f="gb-liquid/.*N=8000\$"
      "$MB" run --filter "$f" --param N=${w#*:} --max-n 100000000 --backend cuda --variant "${nv#*=}" \
        --repeats ${REPEATS:-5} --json "$O/var-${nv%%=*}-${w%%:*}-${w#*:}.json" > "$O/var-${nv%%=*}-${w%%:*}-${w#*:}.log" 2>&1
      stamp "${nv%%=*} ${w} rc=$? $(grep -A1 "^${w%%:*}" "$O/var-${nv%%=*}-${w%%:*}-${w#*:}.log" | tail -1 | awk '{print $4, $5}')"
    done
  done
  pack
fi
if part bench; then
  for p in ${PRECISIONS:-mixed double}; do
    for n in 8000 64000; do
      "$MB" run --filter 'gb-liquid/.*N=8000$' --param N=$n --max-n 100000000 --backend cuda --variant precision=$p --repeats ${REPEATS:-5} \
        --json "$O/gb-$n-$p.json" > "$O/gb-$n-$p.log" 2>&1
      stamp "gb-liquid N=$n $p rc=$? $(grep -A1 '^gb-liquid' "$O/gb-$n-$p.log" | tail -1)"
      "$MB" run --filter 'lj-liquid' --param N=$n --backend cuda --variant precision=$p --repeats ${REPEATS:-5} \
        --json "$O/lj-$n-$p.json" > "$O/lj-$n-$p.log" 2>&1
      stamp "lj-liquid N=$n $p rc=$? $(grep -A1 '^lj-liquid' "$O/lj-$n-$p.log" | tail -1)"
    done
    for n in 64000 1000000; do
      "$MB" run --filter 'ssd-water' --param N=$n --max-n 100000000 --backend cuda --variant precision=$p --repeats ${REPEATS:-5} \
        --json "$O/ssd-$n-$p.json" > "$O/ssd-$n-$p.log" 2>&1
      stamp "ssd-water N=$n $p rc=$? $(grep -A1 '^ssd-water' "$O/ssd-$n-$p.log" | tail -1)"
    done
    pack
  done
fi
pack
