# Shared pieces of the device checks of refactors that must not change
# behaviour (scripts/device_*_check.sh), sourced after the script sets O, its
# output folder. A check builds the tree before the change (a `git archive`
# tarball of the source folders) beside the working tree, runs both, and
# compares: checkpoints bitwise, TPS within the noise.
#   stamp MSG                     a line with the seconds since sourcing, into $O/log.txt
#   counts LOG                    "N ok, N failed, N skipped" of a GoogleTest log
#   build_before_after TGZ DIR T  builds TGZ unpacked in DIR (mesobench) and the
#                                 working tree in build/device (targets T...), for
#                                 sm_90, at once; sets B and A, their bin folders
#   gpu_tests R...                kernels_test, then decomposition_gpu_test on each rank
#                                 count R (ranks sharing the GPU, one OpenMP thread each)
#   bitwise TAG FILTER [ARGS]     `mesobench run --steps 1000` before and after with a
#                                 checkpoint, on $BITWISE_BACKEND (default cuda); a line
#                                 in $O/bitwise.txt
#   sanitizer                     sets CS, the compute-sanitizer command
# scripts/before_after_tps.py summarizes the timings of $O.
t0=$(date +%s)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Libraries carried in .deps/ (scripts/device_deps.sh: RE2, which the GPU machine lacks).
[[ -d .deps/re2 ]] && export PKG_CONFIG_PATH=$PWD/.deps/re2/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
nvidia-smi -L > "$O/gpus.txt" 2>&1

stamp() { echo "[$(( $(date +%s) - t0 ))s] $*" | tee -a "$O/log.txt"; }

counts() {
  echo "$(grep -c '^\[       OK \]' "$1") ok, $(grep -c '^\[  FAILED  \]' "$1") failed," \
    "$(grep -c '^\[  SKIPPED \]' "$1") skipped"
}

build_before_after() {
  local tgz=$1 before=$2
  shift 2
  mkdir -p "$before" && tar xzf "$tgz" -C "$before"
  local cfg=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMESO_ENABLE_CUDA=ON -DMESO_REQUIRE_CUDA=ON
             -DCMAKE_CUDA_ARCHITECTURES=90)
  cmake -S "$before" -B "$before/build" "${cfg[@]}" > "$O/build-before.log" 2>&1
  cmake -S . -B build/device "${cfg[@]}" > "$O/build-after.log" 2>&1
  cmake --build "$before/build" -j 6 --target mesobench >> "$O/build-before.log" 2>&1 &
  cmake --build build/device -j 10 --target "$@" >> "$O/build-after.log" 2>&1
  stamp "build after rc=$?"
  wait
  stamp "build before rc=$?"
  B=$before/build/bin
  A=build/device/bin
}

gpu_tests() {
  local r
  OMP_NUM_THREADS=1 timeout 300 "$A/kernels_test" --gtest_color=no > "$O/gpu-tests.log" 2>&1
  stamp "kernels_test rc=$? $(counts "$O/gpu-tests.log")"
  for r in "$@"; do
    timeout 200 mpirun -x OMP_NUM_THREADS=1 -np "$r" --oversubscribe --bind-to none "$A/decomposition_gpu_test" \
      --gtest_color=no > "$O/decomposition-gpu-$r.log" 2>&1
    stamp "decomposition_gpu_test on $r ranks rc=$? $(counts "$O/decomposition-gpu-$r.log")"
  done
}

bitwise() {
  local tag=$1 filter=$2
  shift 2
  local side bin
  for side in before after; do
    bin=$B
    [[ $side == after ]] && bin=$A
    "$bin/mesobench" run --backend "${BITWISE_BACKEND:-cuda}" --filter "$filter" --steps 1000 "$@" \
      --checkpoint "$O/ck-$tag-$side.ckpt" \
      --json "$O/ck-$tag-$side.json" > "$O/ck-$tag-$side.txt" 2>&1
  done
  local verdict=DIFFERENT
  cmp -s "$O/ck-$tag-before.ckpt" "$O/ck-$tag-after.ckpt" && verdict="IDENTICAL checkpoint"
  if [[ $verdict == DIFFERENT ]] && python3 - "$O/ck-$tag-before.json" "$O/ck-$tag-after.json" <<'PY'; then
import json, sys
a, b = (json.load(open(p))["results"][0] for p in sys.argv[1:3])
sys.exit(0 if a["final_thermo"] == b["final_thermo"] and a["N"] == b["N"] else 1)
PY
    verdict="IDENTICAL final thermo (checkpoint bytes differ)"
  fi
  echo "$verdict  $tag (${BITWISE_BACKEND:-cuda}): $filter $*" >> "$O/bitwise.txt"
  rm -f "$O/ck-$tag-before.ckpt" "$O/ck-$tag-after.ckpt"
}

CS=compute-sanitizer
command -v $CS > /dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
