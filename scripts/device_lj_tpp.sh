#!/usr/bin/env bash
# The GPU runs behind the LJ threads-per-particle change (variant axis tpp):
# every GPU test (label gpu), then lj-liquid at N = 64000 and 1M over tpp for
# mixed and double precision (lj-liquid is NVT, so fuse=on does not apply).
# Usage: scripts/device_lj_tpp.sh <build dir with bin/> <output dir>
set -u
B=${1:-build/default}
O=${2:-results/cuda-lj-tpp}
mkdir -p "$O"
nvidia-smi -L > "$O/gpus.txt"
(cd "$B" && ctest -L gpu --output-on-failure) > "$O/gpu-tests.log" 2>&1
echo "ctest -L gpu rc=$? ($(grep -c 'Skipped\|Not Run' "$O/gpu-tests.log") skipped)" | tee -a "$O/status.txt"
R="--backend cuda --repeats 5 --min-time 0.3 --warmup-time 0.3"
for prec in mixed double; do
  for tpp in 1 2 4 8 16 32; do
    "$B/bin/mesobench" run $R --filter 'lj-liquid' --variant precision=$prec,tpp=$tpp \
      --json "$O/lj-liquid-$prec-tpp$tpp.json" > "$O/lj-liquid-$prec-tpp$tpp.txt" 2>&1
    echo "lj-liquid $prec tpp=$tpp rc=$?" >> "$O/status.txt"
  done
done
for tpp in 1 4 8; do
  "$B/bin/mesobench" run $R --filter 'lj-liquid' --param N=1000000 --variant precision=mixed,tpp=$tpp \
    --json "$O/lj-liquid-1M-mixed-tpp$tpp.json" > "$O/lj-liquid-1M-mixed-tpp$tpp.txt" 2>&1
done
grep -h "TPS\|lj-liquid" "$O"/lj-liquid-*.txt | head -40 > "$O/summary.txt"
tar -C "$(dirname "$O")" -czf "$O.tar.gz" "$(basename "$O")"
