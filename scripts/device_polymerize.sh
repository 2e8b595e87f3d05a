#!/usr/bin/env bash
# Chain-growth polymerization on one GPU, in one call (docs/polymerization.md):
#   tests    kernels_test: CudaPolymerize* and CudaBonded* first, then every test
#   sanitize compute-sanitizer memcheck of SANITIZE_FILTER (default CudaPolymerize*), racecheck with
#            MESO_TEST_VARIANT=graphs=off
#            (the same kernels from the host: racecheck crashes on the one-rank step graph)
#   bench    living-polymerization on the cuda backend (mixed, double) and the CPU reference
#   gate     the living-polymerization gate's short form on the cuda backend
#   long     its long form on the cuda backend: double at seed 1 (the CPU's committed seed), mixed
#            (the default) at the disjoint seeds of LONG_SEEDS (a form's runs take seeds S..S+3),
#            and once with 16 runs (64,000 chains) at seed 101
#   sip      surface-polymerization (GALAMOST Table 2): at R = 15 the variants of SIP_VARIANTS,
#            then every R in mixed and double with SIP_MIXED and SIP_DOUBLE, and the CPU at R = 5
#   brush    surface-polymerization at each R of BRUSH_R (default 5 10) for BRUSH_STEPS (1M) steps,
#            six frames of trajectory, pictures by scripts/plot_brush.py (the trajectory stays there)
#   cost     living-polymerization on cuda (mixed) with no attempt in the timed steps
#            (period=100000): the MD alone, against the bench part's figure
# The binaries come built (.carry/bins.tar.xz: mesobench, kernels_test), RE2 from .deps/.
# Usage: PARTS="tests sanitize bench gate long sip cost" scripts/device_polymerize.sh <output dir>
set -u
O=$1
PARTS=${PARTS:-tests sanitize bench gate}
. scripts/device_carried.sh
KT=$BIN/kernels_test
if part tests; then
  timeout 300 "$KT" --gtest_color=no --gtest_filter='CudaPolymerize*:CudaBonded*' > "$O/polymerize-tests.log" 2>&1
  stamp "CudaPolymerize*:CudaBonded* rc=$? $(counts "$O/polymerize-tests.log")"
  timeout 400 "$KT" --gtest_color=no > "$O/kernels-test.log" 2>&1
  stamp "kernels_test rc=$? $(counts "$O/kernels-test.log")"
fi
SAN=${SANITIZE_FILTER:-CudaPolymerize*}
if part sanitize; then
  timeout 300 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 1 "$KT" --gtest_color=no \
    --gtest_filter="$SAN" > "$O/memcheck.log" 2>&1
  stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$O/memcheck.log" | tail -1)"
  MESO_TEST_VARIANT=graphs=off timeout 300 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 1 \
    "$KT" --gtest_color=no --gtest_filter="$SAN" > "$O/racecheck.log" 2>&1
  stamp "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/racecheck.log" | tail -1)"
fi
if part bench; then
  for v in precision=mixed precision=double; do
    timeout 300 "$MB" run --filter living-polymerization --backend cuda --variant $v --repeats ${REPEATS:-5} \
      --json "$O/bench-cuda-${v#precision=}.json" > "$O/bench-cuda-${v#precision=}.log" 2>&1
    stamp "bench cuda $v rc=$?"
  done
  timeout 300 "$MB" run --filter living-polymerization --backend cpu --repeats 3 \
    --json "$O/bench-cpu.json" > "$O/bench-cpu.log" 2>&1
  stamp "bench cpu rc=$?"
fi
if part gate; then
  # The runs name their precision (validate ran Variant{}, double, unless told before issue 57).
  timeout 400 "$MB" validate --filter living-polymerization --backend cuda --variant precision=mixed \
    --json "$O/living-polymerization-cuda.json" > "$O/gate.log" 2>&1
  stamp "gate rc=$? $(grep living-polymerization "$O/gate.log" | tail -1)"
fi
if part long; then
  timeout 300 "$MB" validate --filter living-polymerization --long --backend cuda --variant precision=double \
    --seed 1 --json "$O/long-double-seed1.json" > "$O/long-double-seed1.log" 2>&1
  stamp "long double seed 1 rc=$? $(grep 'living-polymerization' "$O/long-double-seed1.log" | tail -1)"
  for seed in ${LONG_SEEDS:-1 5 9 13 17 21}; do
    timeout 300 "$MB" validate --filter living-polymerization --long --backend cuda --seed $seed \
      --variant precision=mixed --json "$O/long-mixed-seed$seed.json" > "$O/long-mixed-seed$seed.log" 2>&1
    stamp "long mixed seed $seed rc=$? $(grep 'living-polymerization' "$O/long-mixed-seed$seed.log" | tail -1)"
  done
  timeout 400 "$MB" validate --filter living-polymerization --long --backend cuda --seed 101 --param runs=16 \
    --variant precision=mixed --json "$O/long-mixed-runs16.json" > "$O/long-mixed-runs16.log" 2>&1
  stamp "long mixed 16 runs seed 101 rc=$? $(grep 'living-polymerization' "$O/long-mixed-runs16.log" | tail -1)"
fi
if part sip; then
  for v in ${SIP_VARIANTS:-precision=mixed precision=mixed,reorder=morton2,sort=100 \
      precision=mixed,nlist=tiled,reorder=morton2,sort=100,tpp=4 precision=mixed,nlist=atomic,reorder=morton2,sort=100}; do
    timeout 200 "$MB" run --filter 'surface-polymerization/.*R=15/' --backend cuda --variant $v --repeats 3 \
      --json "$O/sip-r15-$v.json" > "$O/sip-r15-$v.log" 2>&1
    stamp "sip R=15 $v rc=$? $(grep -A1 'surface-polymerization R' "$O/sip-r15-$v.log" | tail -1)"
  done
  for v in ${SIP_MIXED:-precision=mixed,reorder=morton2,sort=100} ${SIP_DOUBLE:-precision=double,reorder=morton2,sort=100}; do
    timeout 300 "$MB" run --filter surface-polymerization --backend cuda --variant $v --repeats 5 \
      --json "$O/sip-all-$v.json" > "$O/sip-all-$v.log" 2>&1
    stamp "sip every R $v rc=$?"
  done
  timeout 200 "$MB" run --filter 'surface-polymerization/.*R=5/' --backend cpu --repeats 3 \
    --json "$O/sip-cpu-r5.json" > "$O/sip-cpu-r5.log" 2>&1
  stamp "sip cpu R=5 rc=$?"
fi
if part brush; then
  for r in ${BRUSH_R:-5 10}; do
    n=${BRUSH_STEPS:-1000000}
    timeout 400 "$MB" run --filter "surface-polymerization/.*R=$r/" --backend cuda --steps $n --every $((n / 5)) \
      --trajectory /tmp/brush-r$r.h5 --json "$O/brush-r$r.json" > "$O/brush-r$r.log" 2>&1
    stamp "brush R=$r, $n steps rc=$? $(grep -A1 'surface-polymerization R' "$O/brush-r$r.log" | tail -1)"
    python3 scripts/plot_brush.py /tmp/brush-r$r.h5 -o "$O/brush-r$r" --title "R = $r, $n steps" \
      > "$O/brush-r$r-plot.log" 2>&1
    stamp "pictures R=$r rc=$?"
  done
fi
if part cost; then
  timeout 300 "$MB" run --filter living-polymerization --backend cuda --param period=100000 \
    --repeats ${REPEATS:-5} --json "$O/bench-cuda-mixed-no-attempts.json" > "$O/bench-cuda-no-attempts.log" 2>&1
  stamp "bench cuda mixed, no attempts rc=$?"
fi
tar czf "$OUT/polymerize.tgz" -C "$O" . 2>/dev/null || true
