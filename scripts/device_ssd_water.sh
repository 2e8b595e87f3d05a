#!/usr/bin/env bash
# The ssd-water gate's long form on one GPU, in one call (validation/ssd-water/README.md):
#   gate   the long form twice at once, in mixed (seed 11) and in double (seed 12): seeds no run of
#          the gate has seen, stated in its README before the runs (docs/testing.md)
#   janus  janus-triblock at L = 20 and 40 in mixed (tpp = 2) with the leapfrog (berendsen) and
#          with langevin, alternated twice, medians of 5: the integrators' cost on one device
# The binaries come built (.carry/bins.tar.xz: mesobench), RE2 from .deps/; everything lands in
# $OUT/ssd-water.tgz.
# Usage: PARTS="gate janus" scripts/device_ssd_water.sh <output dir>
set -u
O=$1
PARTS=${PARTS:-gate janus}
. scripts/device_carried.sh
if part gate; then
  # The run names its precision (validate ran Variant{}, double, unless told before issue 57).
  timeout 300 "$MB" validate --filter ssd-water --long --backend cuda --variant precision=mixed --seed 11 \
    --json "$O/ssd-water-long-mixed.json" \
    > "$O/ssd-water-long-mixed.log" 2>&1 &
  timeout 300 "$MB" validate --filter ssd-water --long --backend cuda --variant precision=double --seed 12 \
    --json "$O/ssd-water-long-double.json" > "$O/ssd-water-long-double.log" 2>&1 &
  wait
  for p in mixed double; do stamp "gate $p $(grep -E '^ssd-water' "$O/ssd-water-long-$p.log" | tail -1)"; done
fi
if part janus; then
  for round in 1 2; do
    for integ in berendsen langevin; do
      timeout 120 "$MB" run --filter 'janus-triblock/.*L=(20|40)/' --backend cuda --variant precision=mixed,tpp=2 \
        --param integrator=$integ --repeats 5 --json "$O/janus-$integ-$round.json" > "$O/janus-$integ-$round.log" 2>&1
      stamp "janus $integ $round rc=$?"
    done
  done
fi
tar czf "$OUT/ssd-water.tgz" -C "$O" . 2>/dev/null || true
