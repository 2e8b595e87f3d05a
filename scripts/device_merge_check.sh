#!/usr/bin/env bash
# The device check of a session's merged tree on one H200, in ONE call (the build and every
# part; about 7 minutes; each part has its own timeout and is skipped once the call's time
# is nearly spent, so that what ran comes back). The tree is built for sm_90 under
# /tmp/merge-build (kept for a later call on the same machine), then, in this order:
#   cells     kernels_test's nlist=cells tests and styles_gpu_test (LJ on cells, the
#             integrators), then scripts/device_cells.sh's bench and sanitize parts
#   gpu       the rest of kernels_test (every other GPU test: the pair kernels, Nose-Hoover,
#             the contexts' copy-out, fault words and launches a refactor touched)
#   walls     memcheck and racecheck (graphs=off) of the SRD walls' GPU test (MpcdWallGpu, in
#             kernels_test: its plain run is in gpu)
#   decomp    decomposition_gpu_test on 2 ranks sharing the GPU
#   digests   sha256 of the checkpoints of dpd-fluid, lj-liquid, srd-fluid, gb-liquid and
#             janus-triblock after 1000 steps (scripts/refactor_checkpoints.sh): the "before"
#             of the next refactor's bitwise check on a GPU
# Everything under $OUT (status.txt: a line a part). Usage: OUT=dir scripts/device_merge_check.sh
set -u
O=${OUT:?set OUT}
mkdir -p "$O"
T0=$(date +%s) LIMIT=${LIMIT:-450}
left() { echo $(( LIMIT - ($(date +%s) - T0) )); }
stamp() { echo "$(date -u +%H:%M:%S) +$(( $(date +%s) - T0 ))s $*" | tee -a "$O/status.txt"; }
counts() { echo "$(grep -c '\[       OK \]' "$1") ok, $(grep -c '\[  SKIPPED \]' "$1") skipped, $(grep -c '\[  FAILED  \]' "$1") failed"; }
# run NAME SECONDS CMD...: runs CMD when SECONDS are still left, under that timeout.
run() {
  local name=$1 secs=$2; shift 2
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
if [[ ! -x $B/bin/kernels_test ]]; then
  cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DMESO_ENABLE_CUDA=ON -DMESO_REQUIRE_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 > "$O/build.log" 2>&1
  cmake --build $B -j 16 --target mesobench kernels_test styles_gpu_test trajectory_digest decomposition_gpu_test \
    >> "$O/build.log" 2>&1
  stamp "build rc=$?"
fi
CELLS='CudaCells.*'
run kernels-cells 90 "$B/bin/kernels_test" --gtest_color=no --gtest_filter="$CELLS"
run styles-gpu 60 "$B/bin/styles_gpu_test" --gtest_color=no
run cells-bench 100 env OUT="$O/cells" BUILD=$B PARTS=bench REPEATS=${REPEATS:-2} SIZES="rho3-1M rho8-2M" \
  scripts/device_cells.sh
run cells-sanitize 90 env OUT="$O/cells" BUILD=$B PARTS=sanitize SANITIZE_TIMEOUT=40 LJ_MEMCHECK=0 scripts/device_cells.sh
run kernels-rest 150 "$B/bin/kernels_test" --gtest_color=no --gtest_filter="-$CELLS"
W=${WALL_FILTER:-MpcdWallGpu.SlitCollisionAndStreamMatchReference}
run walls-memcheck 50 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/bin/kernels_test" --gtest_color=no \
  --gtest_filter="$W"
run walls-racecheck 60 env MESO_TEST_VARIANT=graphs=off compute-sanitizer --tool racecheck --racecheck-report all \
  --error-exitcode 9 "$B/bin/kernels_test" --gtest_color=no --gtest_filter="$W"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 NCCL_NVLS_ENABLE=0
run decomp-2 40 mpirun -np 2 --bind-to none -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH "$B/bin/decomposition_gpu_test" \
  --gtest_color=no
if (( $(left) > 40 )); then
  timeout $(left) scripts/refactor_checkpoints.sh "$B/bin/mesobench" cuda /tmp/ck-digests 1000 > "$O/digests.log" 2>&1
  (cd /tmp/ck-digests && sha256sum *.h5) > "$O/checkpoint-digests.txt" 2>&1
  stamp "digests $(wc -l < "$O/checkpoint-digests.txt") files"
fi
stamp "done"
