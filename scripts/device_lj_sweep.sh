#!/usr/bin/env bash
# lj-liquid (N = 64000, mixed) over the axes that move its TPS (nlist, cells,
# reorder, tpp), then ncu on the list build and force kernels of one variant.
# Usage: scripts/device_lj_sweep.sh <bin dir> <output dir> [ncu variant]
# VARIANTS (space-separated) replaces the default sweep.
set -u
B=${1:-build/default/bin}
O=${2:-out}
NCU_VARIANT=${3:-}
mkdir -p "$O/json"
nvidia-smi -L > "$O/gpus.txt"
R="--backend cuda --repeats 5 --min-time 0.3 --warmup-time 0.3"
if [ -z "${VARIANTS:-}" ]; then
  VARIANTS=""
  for nl in ballot atomic; do
    for ro in none morton2; do
      s=0; [ $ro = none ] || s=100
      for tpp in 1 4 8; do VARIANTS="$VARIANTS nlist=$nl,reorder=$ro,sort=$s,tpp=$tpp"; done
    done
  done
fi
for v in $VARIANTS; do
  tag=$(echo "$v" | tr ',=' '_-')
  "$B/mesobench" run $R --filter 'lj-liquid' --variant "precision=mixed,$v" --json "$O/json/$tag.json" \
    > "$O/json/$tag.txt" 2>&1 || echo "$tag rc=$?" >> "$O/status.txt"
done
python3 scripts/lj_summary.py "$O"/json/*.json > "$O/summary.txt" 2>&1
if [ -n "$NCU_VARIANT" ] && command -v ncu >/dev/null; then
  timeout 240 ncu --clock-control none -k 'regex:ballot_kernel|atomic_kernel|tiled_kernel|pair_force_kernel' -c 6 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis --section SchedulerStats \
    "$B/mesobench" run --backend cuda --repeats 1 --min-time 0.01 --warmup-time 0 \
    --filter lj-liquid --variant "$NCU_VARIANT" > "$O/ncu.txt" 2>&1
  echo "ncu rc=$?" >> "$O/status.txt"
fi
tar -C "$O" -czf "$O/json.tar.gz" json && rm -rf "$O/json"
