#!/usr/bin/env bash
# The bitwise check of a refactor that must change no result: the
# checkpoints of dpd-fluid, lj-liquid, srd-fluid, gb-liquid and
# janus-triblock after STEPS steps (1000 by default) on one backend, written
# by the mesobench of a build. Run it with the build before and the build
# after, then compare the two folders (`cmp` every file): a checkpoint holds
# the whole state (positions, velocities, forces, images, list state) and no
# provenance, so two runs of one build are byte-identical.
# Usage: scripts/refactor_checkpoints.sh <mesobench> <backend> <output dir> [steps]
set -euo pipefail
mb=$1 backend=$2 out=$3 steps=${4:-1000}
mkdir -p "$out"
# One case each, the smallest registered size (the cpu backend: lj-liquid and
# janus-triblock made smaller with --param, which the filter is matched
# before).
cases=(
  "dpd-fluid dpd-fluid/.*rho=3/rc=1/s=0.5/N=32768$"
  "lj-liquid lj-liquid/.*N=64000$"
  "srd-fluid srd-fluid/.*rule=srd/rho=10/L=10$"
  "gb-liquid gb-liquid/.*N=8000$"
  "janus-triblock janus-triblock/.*L=20/theta_m=65/N=24000$"
)
for c in "${cases[@]}"; do
  read -r name filter <<< "$c"
  args=()
  if [[ $backend == cpu ]]; then
    case $name in
      lj-liquid) args=(--param N=8000) ;;
      janus-triblock) args=(--param L=10) ;;
    esac
  fi
  rm -f "$out/$name.h5"
  "$mb" run -q --backend "$backend" --filter "$filter" "${args[@]}" --steps "$steps" \
    --checkpoint "$out/$name.h5" > "$out/$name.log" 2>&1 || { echo "$name: run failed"; tail -3 "$out/$name.log"; }
done
ls -l "$out"/*.h5
