#!/usr/bin/env bash
# dpd-vesicle on one GPU, in one call (results/showcases/README.md):
#   bench  dpd-vesicle and dpd-fluid at rho = 5 and s = 1 at the same N (BENCH_N, default
#          "262144 1048576"): the cost of three bead types and the bonds
#   pilot  one run of the vesicle-formation model (PILOT_N beads, PILOT_STEPS
#          steps, a frame every PILOT_EVERY) with its trajectory kept on the
#          device, then `mesobench morphology` of it: the table, the JSON and
#          the last frame's hydrophobic beads for the pictures
#   variants dpd-vesicle at VARIANT_N (default 262144 1048576) with its default and the
#          alternatives of the axes its physics allows (VARIANTS: "name=axes ...")
#   gate   the long form of validation/vesicle-formation (GATE_ARGS: --param ..., --variant)
# The binaries come built (.carry/bins.tar.xz: mesobench), RE2 from .deps/.
# Usage: PARTS="bench pilot" scripts/device_vesicle.sh <output dir>
set -u
O=$1
PARTS=${PARTS:-bench pilot}
. scripts/device_carried.sh
if part bench; then
  for n in ${BENCH_N:-262144 1048576}; do
    "$MB" run --filter 'dpd-vesicle/.*N=262144' --param N=$n --backend cuda --repeats 5 --json "$O/vesicle-$n.json" \
      > "$O/vesicle-$n.log" 2>&1
    stamp "dpd-vesicle N=$n rc=$? $(grep -E '^dpd-vesicle' "$O/vesicle-$n.log" | tail -1)"
    "$MB" run --filter 'dpd-fluid/.*rho=3/rc=1/s=0.5/N=262144' --param rho=5 --param s=1 --param N=$n \
      --backend cuda \
      --repeats 5 --json "$O/fluid-rho5-$n.json" > "$O/fluid-rho5-$n.log" 2>&1
    stamp "dpd-fluid rho=5 N=$n rc=$? $(grep -E '^dpd-fluid' "$O/fluid-rho5-$n.log" | tail -1)"
  done
fi
if part pilot; then
  T=/tmp/vesicle-pilot.h5
  rm -f $T $T.tmp
  timeout ${PILOT_TIMEOUT:-400} "$MB" run --filter 'dpd-vesicle/.*N=262144' --param N=${PILOT_N:-262144} --param seed=1 \
    --backend cuda --steps ${PILOT_STEPS:-1000000} --every ${PILOT_EVERY:-50000} --trajectory $T \
    > "$O/pilot.log" 2>&1
  stamp "pilot rc=$?"
  [ -f $T ] || T=$T.tmp
  "$MB" morphology $T --json "$O/pilot-morphology.json" --beads-csv "$O/pilot-last-beads.csv" \
    > "$O/pilot-morphology.txt" 2>&1
  stamp "morphology rc=$? $(tail -1 "$O/pilot-morphology.txt")"
fi
if part variants; then
  V0=precision=mixed,reorder=morton2,sort=100,noise=fp32
  for n in ${VARIANT_N:-262144 1048576}; do
    for nv in ${VARIANTS:-default=$V0 tiled=$V0,nlist=tiled atomic=$V0,nlist=atomic masked=$V0,gather=masked \
                record=$V0,gather=record noise64=precision=mixed,reorder=morton2,sort=100 \
                sort50=precision=mixed,reorder=morton2,sort=50,noise=fp32}; do
      "$MB" run --filter 'dpd-vesicle/.*N=262144' --param N=$n --backend cuda --variant "${nv#*=}" --repeats 5 \
        --json "$O/variant-${nv%%=*}-$n.json" > "$O/variant-${nv%%=*}-$n.log" 2>&1
      stamp "variant ${nv%%=*} N=$n rc=$? $(grep -E '^dpd-vesicle' "$O/variant-${nv%%=*}-$n.log" | tail -1 | awk '{print $4, $5}')"
    done
  done
fi
if part gate; then
  timeout ${GATE_TIMEOUT:-500} "$MB" validate --filter vesicle-formation --long --backend cuda ${GATE_ARGS:-} \
    --json "$O/vesicle-formation-long.json" > "$O/vesicle-formation-long.log" 2>&1
  stamp "gate rc=$? $(grep vesicle-formation "$O/vesicle-formation-long.log" | tail -1)"
fi
