#!/usr/bin/env bash
# The device check of a refactor that must change no result (issue 53: the
# pair-style registry, the transport factory, the run switches as variant
# axes): the source trees before and after (BEFORE, AFTER: folders) built
# there for sm_90 (mesobench; and kernels_test, styles_gpu_test,
# decomposition_gpu_test after), then
#   PARTS=tests      kernels_test and styles_gpu_test (every GPU test);
#   PARTS=sanitize   compute-sanitizer memcheck and racecheck (host-driven
#                    loop, MESO_TEST_VARIANT=graphs=off) of the new kernels (Yukawa);
#   PARTS=bitwise    the checkpoints of dpd-fluid, lj-liquid, srd-fluid,
#                    gb-liquid, janus-triblock after 1000 steps, before and
#                    after (scripts/refactor_checkpoints.sh), compared by cmp;
#   PARTS=speed      dpd-fluid 1M and lj-liquid 64k, before and after
#                    interleaved, three rounds (TPS medians);
#   PARTS=decomp     decomposition_gpu_test on 1, 2 and 4 CUDA ranks (mpirun,
#                    NCCL_NVLS_ENABLE=0 on every rank; as many GPUs);
#   PARTS=scale      dpd-fluid and srd-fluid weak sweeps on SCALE_RANKS GPUs (1,2,4),
#                    before and after alternated (the efficiency and TPS).
# Usage: BEFORE=dir AFTER=dir PARTS="..." scripts/device_pair_styles.sh <output dir>
# (the builds stay in /tmp/pair-before, /tmp/pair-after for the next call).
set -u
O=$1
mkdir -p "$O"
PARTS=" ${PARTS:-tests sanitize bitwise speed} "
part() { [[ $PARTS == *" $1 "* ]]; }
stamp() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$O/status.txt"; }
counts() { echo "$(grep -c '\[       OK \]' "$1") ok, $(grep -c '\[  SKIPPED \]' "$1") skipped, $(grep -c '\[  FAILED  \]' "$1") failed"; }
[[ -d .deps/re2 ]] && export PKG_CONFIG_PATH=$PWD/.deps/re2/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export LD_LIBRARY_PATH="$PWD/.deps/re2/lib:${LD_LIBRARY_PATH:-}"
BEF=/tmp/pair-before/bin AFT=/tmp/pair-after/bin
cfg=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMESO_ENABLE_CUDA=ON -DMESO_REQUIRE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90)
if [[ ! -x $AFT/styles_gpu_test || ! -x $BEF/mesobench ]]; then
  cmake -S "$BEFORE" -B /tmp/pair-before "${cfg[@]}" > "$O/build-before.log" 2>&1
  cmake -S "$AFTER" -B /tmp/pair-after "${cfg[@]}" > "$O/build-after.log" 2>&1
  cmake --build /tmp/pair-before -j 6 --target mesobench >> "$O/build-before.log" 2>&1 &
  cmake --build /tmp/pair-after -j 10 --target mesobench kernels_test styles_gpu_test decomposition_gpu_test \
    >> "$O/build-after.log" 2>&1
  stamp "build after rc=$?"
  wait
  stamp "build before rc=$?"
fi
{ nvidia-smi -L; date -u; } > "$O/device.txt" 2>&1
NCCL_LIB=$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null)/lib
export LD_LIBRARY_PATH="$NCCL_LIB:$LD_LIBRARY_PATH"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 NCCL_NVLS_ENABLE=0
X="--bind-to none -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH"
if part tests; then
  timeout 240 "$AFT/styles_gpu_test" --gtest_color=no > "$O/styles-gpu-test.log" 2>&1
  stamp "styles_gpu_test rc=$? $(counts "$O/styles-gpu-test.log")"
  timeout 420 "$AFT/kernels_test" --gtest_color=no > "$O/kernels-test.log" 2>&1
  stamp "kernels_test rc=$? $(counts "$O/kernels-test.log")"
fi
if part sanitize; then
  f='CudaYukawa.ForcesEnergyVirialMatchReference'
  timeout 300 compute-sanitizer --tool memcheck --error-exitcode 1 "$AFT/styles_gpu_test" --gtest_color=no \
    --gtest_filter="$f" > "$O/memcheck.log" 2>&1
  stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$O/memcheck.log" | tail -1)"
  MESO_TEST_VARIANT=graphs=off timeout 300 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 1 \
    "$AFT/styles_gpu_test" --gtest_color=no --gtest_filter="$f" > "$O/racecheck.log" 2>&1
  stamp "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/racecheck.log" | tail -1)"
fi
if part bitwise; then
  for side in before after; do
    "$(dirname "$0")/refactor_checkpoints.sh" "/tmp/pair-$side/bin/mesobench" cuda "/tmp/ck-$side" 1000 > "$O/ck-$side.txt" 2>&1
  done
  for f in /tmp/ck-before/*.h5; do
    n=$(basename "$f")
    if cmp -s "$f" "/tmp/ck-after/$n"; then stamp "IDENTICAL $n"; else stamp "DIFFERENT $n"; fi
  done
fi
if part speed; then
  R="--backend cuda --repeats 5 --min-time 0.3 --warmup-time 0.3"
  for round in 1 2 3; do
    for side in before after; do
      "/tmp/pair-$side/bin/mesobench" run $R --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$' \
        --json "$O/tps-dpd-$side-$round.json" > /dev/null 2>&1
      "/tmp/pair-$side/bin/mesobench" run $R --filter 'lj-liquid' --json "$O/tps-lj-$side-$round.json" > /dev/null 2>&1
    done
  done
  python3 - "$O" <<'PY' | tee "$O/tps-summary.txt"
import glob, json, os, statistics, sys
out = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(out, "tps-*-*-*.json"))):
    case, side, _ = os.path.basename(f)[4:-5].rsplit("-", 2)
    for r in json.load(open(f))["results"]:
        rows.setdefault((case, r["name"]), {}).setdefault(side, []).append(r["tps_median"])
for (case, name), d in rows.items():
    b, a = statistics.median(d.get("before", [0])), statistics.median(d.get("after", [0]))
    print(f"{case:4} before {b:9.1f} after {a:9.1f} after/before {a / b:.4f}  {d}  {name}")
PY
fi
if part decomp; then
  for r in ${DECOMP_RANKS:-1 2 4}; do
    timeout ${DECOMP_TIMEOUT:-200} mpirun -np $r $X "$AFT/decomposition_gpu_test" --gtest_color=no \
      > "$O/decomposition-gpu-$r.log" 2>&1
    stamp "decomposition_gpu_test on $r ranks rc=$? $(counts "$O/decomposition-gpu-$r.log")"
  done
fi
if part scale; then
  for round in 1 2; do
    for side in before after; do
      for w in dpd-fluid srd-fluid; do
        n=1048576; [[ $w == srd-fluid ]] && n=1250000
        timeout 150 "/tmp/pair-$side/bin/mesobench" scale --backend cuda --mpirun-args "$X" --mode weak --workload "$w" \
          --per-rank $n \
          --ranks ${SCALE_RANKS:-1,2,4} --out "/tmp/scale-$w-$side-$round" > "$O/scale-$w-$side-$round.log" 2>&1
        stamp "scale $w $side $round rc=$? $(grep -A5 '^ ranks' "$O/scale-$w-$side-$round.log" | awk 'NR>1{printf "%s:%s/%s ", $1, $4, $6}')"
      done
    done
  done
fi
