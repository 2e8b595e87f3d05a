#!/usr/bin/env bash
# The device check of a session's merged tree on one H200, in ONE call (the build and every
# part; about 7 minutes; each part has its own timeout and is skipped once the call's time
# is nearly spent, so that what ran comes back). The tree is built for sm_90 under
# /tmp/merge-build (kept for a later call on the same machine), then, in this order:
#   gpu       kernels_test's nlist=cells tests, styles_gpu_test, the rest of kernels_test
#   sanitize  memcheck (graphs) and racecheck (graphs=off) of nlist=cells on 20 steps of
#             dpd-fluid, memcheck of the cells' dense-clump test (several rounds), memcheck and
#             racecheck of WALL_FILTER's GPU tests (default: the SRD walls')
#   sweep     dpd-fluid mixed at N = 262144, 1M, 4M, rho 3 and 8, nlist=half and nlist=cells,
#             every other list kind at 1M, and rho 8 at L = 64 (SWEEP=0 leaves it out)
#   extra     EXTRA_CMD, when given (EXTRA_SECS: its timeout)
#   decomp    decomposition_gpu_test on 2 ranks sharing the GPU
#   digests   sha256 of the checkpoints of dpd-fluid, lj-liquid, srd-fluid, gb-liquid and
#             janus-triblock after 1000 steps (scripts/refactor_checkpoints.sh), to compare
#             with an earlier call's (results/merge-2026-11-29/checkpoint-digests.txt)
# Everything under $OUT/merge.tar.gz, one file (status.txt: a line a part; the transfer back
# takes few files). Usage: OUT=dir [LIMIT=s] [SWEEP=0] [EXTRA_CMD=...] [BG_CMD=...] [SKIP=regex of parts]
#   [REST_FILTER=gtest filter of kernels-rest] [DECOMP_FILTER=...] [DECOMP_SECS=s]
#   scripts/device_merge_check.sh
set -u
R=${OUT:?set OUT}
O=/tmp/merge-out; rm -rf "$O"; mkdir -p "$O"
trap 'tar -C "$O" -czf "$R/merge.tar.gz" .' EXIT
T0=$(date +%s) LIMIT=${LIMIT:-450}
left() { echo $(( LIMIT - ($(date +%s) - T0) )); }
stamp() { echo "$(date -u +%H:%M:%S) +$(( $(date +%s) - T0 ))s $*" | tee -a "$O/status.txt"; }
counts() { echo "$(grep -c '\[       OK \]' "$1") ok, $(grep -c '\[  SKIPPED \]' "$1") skipped, $(grep -c '\[  FAILED  \]' "$1") failed"; }
# run NAME SECONDS CMD...: runs CMD when SECONDS are still left, under that timeout.
run() {
  local name=$1 secs=$2; shift 2
  if [[ -n ${SKIP:-} && $name =~ $SKIP ]]; then stamp "$name skipped (SKIP)"; return; fi
  if (( $(left) < secs / 2 )); then stamp "$name skipped (the call's time is spent)"; return; fi
  (( secs > $(left) )) && secs=$(left)
  timeout "$secs" "$@" > "$O/$name.log" 2>&1
  local rc=$?
  stamp "$name rc=$rc $(counts "$O/$name.log") $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/$name.log" | tail -1)"
}
[[ -d .deps/re2 ]] && export PKG_CONFIG_PATH=$PWD/.deps/re2/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export LD_LIBRARY_PATH="$PWD/.deps/re2/lib:${LD_LIBRARY_PATH:-}"
{ nvidia-smi -L; date -u; cat .carry/tree-hash 2>/dev/null; } > "$O/device.txt" 2>&1
B=/tmp/merge-build
# Binaries built on the workstation for sm_90 (.carry/bins.tar.xz: mesobench, kernels_test,
# styles_gpu_test, trajectory_digest, decomposition_gpu_test, whichever it holds) save the
# build; what it lacks is built here.
if [[ -f .carry/bins.tar.xz ]]; then
  mkdir -p $B/bin && tar -C $B/bin -xJf .carry/bins.tar.xz && stamp "carried: $(ls $B/bin | tr '\n' ' ')"
fi
# BG_CMD (a long run, e.g. a gate's long form) runs beside every part, from the start.
if [[ -n ${BG_CMD:-} ]]; then
  (timeout $(( LIMIT - 15 )) bash -c "$BG_CMD" > "$O/bg.log" 2>&1; stamp "bg rc=$?") &
fi
if [[ ! -x $B/bin/kernels_test || ! -x $B/bin/mesobench ]]; then
  cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DMESO_ENABLE_CUDA=ON -DMESO_REQUIRE_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 > "$O/build.log" 2>&1
  cmake --build $B -j 16 --target mesobench kernels_test styles_gpu_test trajectory_digest decomposition_gpu_test \
    >> "$O/build.log" 2>&1
  stamp "build rc=$?"
fi
CELLS='CudaCells.*'
run kernels-cells 90 "$B/bin/kernels_test" --gtest_color=no --gtest_filter="$CELLS"
run styles-gpu 60 "$B/bin/styles_gpu_test" --gtest_color=no
run kernels-rest 180 "$B/bin/kernels_test" --gtest_color=no --gtest_filter="${REST_FILTER:--$CELLS}"
# The cells kernel under the sanitizers: 20 steps of dpd-fluid (graphs; racecheck without),
# and the dense clump, whose particles find their partners over several rounds.
V=nlist=cells,precision=mixed,tpp=4
run cells-memcheck 45 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/bin/trajectory_digest" dpd-fluid 8192 \
  cuda $V 20 10
run cells-racecheck 60 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9 \
  "$B/bin/trajectory_digest" dpd-fluid 8192 cuda $V,graphs=off 20 10
run cells-clump-memcheck 60 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/bin/kernels_test" \
  --gtest_color=no --gtest_filter='CudaCells.DpdForcesEqualBruteForceInADenseClump'
W=${WALL_FILTER:-MpcdWallGpu.SlitCollisionAndStreamMatchReference}
run walls-memcheck 50 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/bin/kernels_test" --gtest_color=no \
  --gtest_filter="$W"
run walls-racecheck 60 env MESO_TEST_VARIANT=graphs=off compute-sanitizer --tool racecheck --racecheck-report all \
  --error-exitcode 9 "$B/bin/kernels_test" --gtest_color=no --gtest_filter="$W"
# TPS against N for each list kind and density (mixed; medians of 3): the cells figure's data;
# every other list kind at 1M; rho 8 at L = 64 (2.1M, Mirheo's published size).
if [[ ${SWEEP:-1} == 1 ]]; then
  sweep() {  # rho N kind [extra --param]
    run sweep-rho$1-$2-$3 40 "$B/bin/mesobench" run --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$' \
      --param rho=$1 ${4:---param N=$2} --max-n 100000000 --backend cuda -q --variant nlist=$3 --repeats 3 \
      --min-time 0.3 --warmup-time 0.2 --json "$O/sweep-rho$1-$2-$3.json"
  }
  for rho in 3 8; do
    for n in 262144 1048576 4194304; do for k in half cells; do sweep $rho $n $k; done; done
    for k in ballot atomic tiled cluster; do sweep $rho 1048576 $k; done
  done
  for k in half cells; do sweep 8 2097152 $k "--param L=64"; done
fi
[[ -n ${EXTRA_CMD:-} ]] && run extra ${EXTRA_SECS:-60} bash -c "$EXTRA_CMD"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 NCCL_NVLS_ENABLE=0
run decomp-2 ${DECOMP_SECS:-40} mpirun -np 2 --bind-to none -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH "$B/bin/decomposition_gpu_test" \
  --gtest_color=no --gtest_filter="${DECOMP_FILTER:-*}"
if (( $(left) > 40 )); then
  timeout $(left) scripts/refactor_checkpoints.sh "$B/bin/mesobench" cuda /tmp/ck-digests 1000 > "$O/digests.log" 2>&1
  (cd /tmp/ck-digests && sha256sum *.h5) > "$O/checkpoint-digests.txt" 2>&1
  stamp "digests $(wc -l < "$O/checkpoint-digests.txt") files"
  # Against the earlier call's (DIGESTS_BEFORE): the default runs of every workload there
  # must not have changed by a bit.
  before=${DIGESTS_BEFORE:-results/merge-2026-11-29/checkpoint-digests.txt}
  if [[ -f $before ]]; then
    diff <(sort -k2 "$before") <(sort -k2 "$O/checkpoint-digests.txt") > "$O/digests-diff.txt" 2>&1 &&
      stamp "digests equal to $before" || stamp "digests DIFFER from $before (digests-diff.txt)"
  fi
fi
wait
stamp "done"
