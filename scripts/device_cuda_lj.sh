#!/usr/bin/env bash
# The CUDA Lennard-Jones measurements behind results/cuda-lj/ (issue 5, GPU
# half): every GPU test (kernels_test: label gpu), lj-liquid at N = 64000 per
# precision and neighbor-list builder (with and without reordering and lanes
# per particle), N = 1M, and the nve-drift short form on the GPU per
# precision.
# Usage: scripts/device_cuda_lj.sh <dir with kernels_test and mesobench> <output dir>
set -u
B=${1:-build/default/bin}
O=${2:-results/cuda-lj}
mkdir -p "$O"
nvidia-smi -L > "$O/gpus.txt"
"$B/kernels_test" --gtest_color=no > "$O/gpu-tests.log" 2>&1
echo "kernels_test rc=$? skipped=$(grep -c '\[  SKIPPED \]' "$O/gpu-tests.log")" | tee "$O/status.txt"
R="--backend cuda --repeats 5 --min-time 0.3 --warmup-time 0.3"
FAST="reorder=morton2,sort=100,tpp=4"
run() {  # run <name> <variant> [extra args]
  local name=$1 v=$2; shift 2
  "$B/mesobench" run $R --filter 'lj-liquid' --variant "$v" "$@" --json "$O/$name.json" > "$O/$name.txt" 2>&1
  echo "$name rc=$?" >> "$O/status.txt"
}
for prec in mixed single double; do
  run "lj-liquid-$prec-ballot-plain" "precision=$prec,nlist=ballot"
  for nl in ballot atomic tiled; do run "lj-liquid-$prec-$nl" "precision=$prec,nlist=$nl,$FAST"; done
  run "lj-liquid-1M-$prec-tiled" "precision=$prec,nlist=tiled,$FAST" --param N=1000000
  "$B/mesobench" validate --backend cuda --filter nve-drift --variant "precision=$prec,nlist=tiled,$FAST" \
    --json "$O/nve-drift-short-cuda-$prec.json" > "$O/nve-drift-short-cuda-$prec.txt" 2>&1
  echo "nve-drift $prec rc=$?" >> "$O/status.txt"
done
python3 scripts/lj_summary.py "$O"/lj-liquid-*.json > "$O/summary.txt" 2>&1
