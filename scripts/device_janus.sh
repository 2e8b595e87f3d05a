#!/usr/bin/env bash
# Soft Janus particles on one GPU, in one call (docs/orientation.md):
#   tests    kernels_test: CudaAniso* first, then every test
#   sanitize compute-sanitizer memcheck and racecheck (MESO_TEST_VARIANT=graphs=off) of SANITIZE_FILTER
#            (default CudaAniso.Janus*)
#   tpp      janus-triblock at L = 40 over TPP_VARIANTS (mixed), medians of 3
#   bench    GALAMOST Table 1: janus-triblock at L = 20, 40, 60, 80 in each of PRECISIONS
#            (default "mixed single double") with BENCH_VARIANT added (default: the tpp part's
#            fastest), REPEATS (5)
#   gate     the janus-assembly long form (GATE_ARGS: --param ..., --variant), its JSON
#   picture  janus-triblock at L = 20, seed 1, for PICTURE_STEPS (100000) with a trajectory, drawn
#            with the gate's series by scripts/plot_janus_assembly.py (the trajectory is not kept)
# The binaries come built (.carry/bins.tar.xz: mesobench, kernels_test), RE2 from .deps/.
# Usage: PARTS="tests sanitize tpp bench gate picture" scripts/device_janus.sh <output dir>
set -u
O=$1
PARTS=${PARTS:-tests sanitize tpp bench}
. scripts/device_carried.sh
KT=$BIN/kernels_test
SAN=${SANITIZE_FILTER:-CudaAniso.Janus*}
part tests && aniso_tests "$KT"
part sanitize && sanitize "$KT" "$SAN"
if part tpp; then
  for v in ${TPP_VARIANTS:-tpp=1 tpp=2 tpp=4 tpp=8 reorder=morton2,sort=100,tpp=4 nlist=atomic,tpp=4}; do
    timeout 200 "$MB" run --filter 'janus-triblock/.*L=40/' --backend cuda --variant precision=mixed,$v \
      --repeats 3 --json "$O/tpp-$v.json" > "$O/tpp-$v.log" 2>&1
    stamp "L=40 mixed $v rc=$? $(grep -A1 'janus-triblock L' "$O/tpp-$v.log" | tail -1)"
  done
fi
if part bench; then
  if [[ -z ${BENCH_VARIANT:-} && -n $(ls "$O"/tpp-*.json 2>/dev/null) ]]; then  # the tpp part's fastest
    BENCH_VARIANT=$(python3 -c '
import json, sys
best = max(sys.argv[1:], key=lambda f: json.load(open(f))["results"][0]["tps_median"])
print(best.split("tpp-", 1)[1][:-5])' "$O"/tpp-*.json)
    stamp "bench variant: $BENCH_VARIANT (the fastest at L = 40)"
  fi
  for p in ${PRECISIONS:-mixed single double}; do
    timeout 300 "$MB" run --filter janus-triblock --backend cuda --variant precision=$p${BENCH_VARIANT:+,$BENCH_VARIANT} \
      --repeats ${REPEATS:-5} --json "$O/bench-$p.json" > "$O/bench-$p.log" 2>&1
    stamp "bench $p rc=$?"
  done
fi
if part gate; then
  timeout ${GATE_TIMEOUT:-400} "$MB" validate --filter janus-assembly --long --backend cuda ${GATE_ARGS:-} \
    --json "$O/janus-assembly-long.json" > "$O/janus-assembly-long.log" 2>&1
  stamp "gate rc=$? $(grep -E '^janus-assembly' "$O/janus-assembly-long.log" | tail -1)"
fi
if part picture; then
  T=/tmp/janus-picture.h5
  rm -f $T
  timeout 300 "$MB" run --filter 'janus-triblock/.*L=20/' --backend cuda --param seed=1 \
    --steps ${PICTURE_STEPS:-100000} --every ${PICTURE_EVERY:-50000} --trajectory $T > "$O/picture-run.log" 2>&1
  stamp "picture run rc=$?"
  python3 scripts/plot_janus_assembly.py --gate "$O/janus-assembly-long.json" --trajectory $T \
    -o "$O/janus-assembly" > "$O/picture.log" 2>&1
  stamp "picture rc=$? $(grep '^phase' "$O/janus-assembly-peaks.txt")"
fi
tar czf "$OUT/janus.tgz" -C "$O" . 2>/dev/null || true
