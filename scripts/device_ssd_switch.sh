#!/usr/bin/env bash
# Why SSD/RF water heats in NVE (validation/nve-drift-rigid/README.md, "Why water heats"), on
# one GPU in one call: the nve-drift-rigid-ssd long form's protocol with the switches narrowed
# (switch_scale, SCALE) to amplify whatever their edges do, cubic (as published) against
# quintic, and the cubic at dt/2 over the same time. CONFIGS lists "<name> <knobs...>"; each
# config runs SHARDS repeats of LONG_STEPS steps (the dt/2 config twice as many), one process
# a repeat, all side by side under MPS with 32 lanes a molecule, until DEADLINE; each config's
# shards are merged. First, kernels_test's CudaAniso* (the shared SSD evaluator on the GPU).
# The binaries come built (.carry/bins.tar.xz: mesobench, kernels_test), RE2 from .deps/.
# Everything is packed into $OUT/ssd-switch.tar.xz.
# Usage: scripts/device_ssd_switch.sh <output dir>
set -u
O=$1
PARTS=" "
. scripts/device_carried.sh
END=$(( $(date +%s) + ${DEADLINE:-540} ))
S=${SHARDS:-4} L=${LONG_STEPS:-1000000} SCALE=${SCALE:-0.2}
timeout 120 "$BIN/kernels_test" --gtest_color=no --gtest_filter='CudaAniso*' > "$O/aniso-tests.log" 2>&1
stamp "CudaAniso* rc=$? $(counts "$O/aniso-tests.log")"
mps_start
CONFIGS=${CONFIGS:-"cubic switch_order=3 switch_scale=$SCALE long_steps=$L
quintic switch_order=5 switch_scale=$SCALE long_steps=$L
cubic-half-dt switch_order=3 switch_scale=$SCALE dt_factor=0.5 long_steps=$((2 * L))"}
names=()
while read -r name knobs; do
  [[ -z $name ]] && continue
  names+=("$name")
  params=(--param "runs=$S")
  for k in $knobs; do params+=(--param "$k"); done
  for ((i = 0; i < S; i++)); do
    ( timeout $(( END - $(date +%s) )) "$MB" validate --filter '^nve-drift-rigid-ssd$' --long --backend cuda \
        --variant precision=mixed,tpp=32 "${params[@]}" --shard "$i/$S" -q --json "$O/$name-$i.json" \
        > "$O/$name-$i.log" 2>&1
      stamp "$name shard $i/$S rc=$?" ) &
  done
done <<< "$CONFIGS"
wait
for name in "${names[@]}"; do
  "$MB" validate --filter '^nve-drift-rigid-ssd$' --long --merge "$O/$name"-[0-9]*.json --json "$O/$name.json" \
    > "$O/$name.log" 2>&1
  stamp "$name merge rc=$? $(grep -E '^nve-drift-rigid-ssd' "$O/$name.log" | tail -1)"
done
mps_stop
tar cf - -C "$O" . | xz -6 -T16 > "$OUT/ssd-switch.tar.xz"
