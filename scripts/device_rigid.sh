#!/usr/bin/env bash
# GALAMOST's disk and rod particles and the nve-drift-rigid long forms on one GPU, in one call
# (docs/orientation.md):
#   tests    kernels_test: CudaAniso* first, then every test
#   sanitize compute-sanitizer memcheck and racecheck (MESO_TEST_VARIANT=graphs=off) of SANITIZE_FILTER
#            (default CudaAniso.DiskAndRod*)
#   bench    janus-triblock at L = 20 and 40 with shape=triblock, disk and rod (the default
#            variant, mixed), REPEATS (5)
#   tpp      gb-liquid (N = 1000) and ssd-water (N = 512) NVE, mixed, one process, over
#            TPP_VARIANTS (tpp=8 tpp=16 tpp=32), medians of 3
#   defaults ssd-water (N = 64000, 1M; double at 64000 too) and gb-liquid (N = 8000), mixed,
#            or DEFAULT_CASES_TEXT ("workload:N:precision ..."), the workload's default against
#            DEFAULT_CANDIDATES (nlist=tiled,tpp=16 nlist=tiled,tpp=8), alternated ROUNDS (2) times,
#            REPEATS (5) each; then the short forms of GATES (ssd-water nve-drift-rigid-ssd
#            rotational-equipartition) with GATE_VARIANT (precision=mixed,nlist=tiled,tpp=16)
#   probe    the nve-drift-rigid and nve-drift-rigid-ssd long forms with LONG_STEPS (100000)
#            NVE steps, PER_GPU processes under MPS, RIGID_VARIANT (scripts/device_long_forms.sh rigid):
#            the steps a second they make side by side, and the machinery on a GPU
# The binaries come built (.carry/bins.tar.xz: mesobench, kernels_test), RE2 from .deps/.
# Usage: PARTS="tests sanitize bench probe" scripts/device_rigid.sh <output dir>
set -u
O=$1
PARTS=${PARTS:-tests sanitize bench probe}
. scripts/device_carried.sh
KT=$BIN/kernels_test
SAN=${SANITIZE_FILTER:-CudaAniso.DiskAndRod*}
part tests && aniso_tests "$KT"
part sanitize && sanitize "$KT" "$SAN"
if part bench; then
  for shape in triblock disk rod; do
    extra=()
    [[ $shape != triblock ]] && extra=(--param mu=1)
    timeout 200 "$MB" run --filter 'janus-triblock/.*L=(20|40)/' --backend cuda --param shape=$shape "${extra[@]}" \
      --repeats ${REPEATS:-5} --json "$O/bench-$shape.json" > "$O/bench-$shape.log" 2>&1
    stamp "bench $shape rc=$?"
  done
fi
if part tpp; then  # one process at the long forms' sizes, NVE, mixed
  for v in ${TPP_VARIANTS:-tpp=8 tpp=16 tpp=32}; do
    for w in "gb-liquid.*N=8000\$ 1000" "ssd-water.*N=64000\$ 512"; do
      read -r f n <<< "$w"
      timeout 100 "$MB" run --backend cuda --filter "$f" --param N=$n --param integrator=nve \
        --variant precision=mixed,$v --repeats 3 --json "$O/tpp-${f%%.*}-$v.json" > "$O/tpp-${f%%.*}-$v.log" 2>&1
      stamp "${f%%.*} N=$n $v rc=$? $(grep -A1 -E '^(gb-liquid|ssd-water)' "$O/tpp-${f%%.*}-$v.log" | tail -1)"
    done
  done
fi
if part defaults; then  # the default against the candidates, alternated in one call
  read -r -a DEFAULT_CASES <<< "${DEFAULT_CASES_TEXT:-}"
  if ((${#DEFAULT_CASES[@]} == 0)); then
    DEFAULT_CASES=("ssd-water 64000 mixed" "ssd-water 1048576 mixed" "ssd-water 64000 double" "gb-liquid 8000 mixed")
  else  # DEFAULT_CASES_TEXT: "workload:N:precision ..."
    DEFAULT_CASES=("${DEFAULT_CASES[@]//:/ }")
  fi
  for r in $(seq ${ROUNDS:-2}); do
    for c in "${DEFAULT_CASES[@]}"; do
      read -r w n p <<< "$c"
      f="$w.*N=$([[ $w == gb-liquid ]] && echo 8000 || echo 64000)\$"
      for v in default ${DEFAULT_CANDIDATES:-nlist=tiled,tpp=16 nlist=tiled,tpp=8}; do
        vv=precision=$p
        [[ $v != default ]] && vv=$vv,$v
        name=def-${f%%.*}-$n-$p-${v//[=,]/_}-$r
        timeout 120 "$MB" run --backend cuda --filter "$f" --param N=$n --max-n 100000000 --variant "$vv" \
          --repeats ${REPEATS:-5} --json "$O/$name.json" > "$O/$name.log" 2>&1
        stamp "$name rc=$? $(grep -E ' cuda +[0-9]' "$O/$name.log" | tail -1 | tr -s ' ' | cut -c1-60)"
      done
    done
  done
  for g in ${GATES:-ssd-water nve-drift-rigid-ssd rotational-equipartition}; do
    timeout 200 "$MB" validate --backend cuda --filter "^$g\$" --variant "${GATE_VARIANT:-precision=mixed,nlist=tiled,tpp=16}" \
      --json "$O/gate-$g.json" > "$O/gate-$g.log" 2>&1
    stamp "gate $g rc=$? $(grep -E "^$g " "$O/gate-$g.log" | tail -1 | tr -s ' ')"
  done
fi
if part probe; then
  LONG_STEPS=${LONG_STEPS:-100000} DEADLINE=${PROBE_DEADLINE:-240} \
    bash scripts/device_long_forms.sh rigid "$BIN" "$O/probe" > "$O/probe.log" 2>&1
  stamp "probe rc=$? $(tail -2 "$O/probe/status.txt" | tr '\n' ' ')"
fi
tar czf "$OUT/rigid.tgz" -C "$O" . 2>/dev/null || true
