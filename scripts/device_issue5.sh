#!/usr/bin/env bash
# The GPU runs behind results/cuda-lj/ (issue 5, GPU half): LJ GPU tests,
# the lj-liquid benchmark per precision and neighbor list, N = 1M, and the
# nve-drift short form on the GPU per precision.
# Usage: scripts/device_issue5.sh <build dir with bin/> <output dir>
set -u
B=${1:-build/default}/bin
O=${2:-results/cuda-lj}
mkdir -p "$O"
"$B/kernels_test" --gtest_filter='CudaLj.*' --gtest_color=no > "$O/gpu-tests-lj.log" 2>&1; echo "CudaLj tests rc=$?" | tee -a "$O/status.txt"
R="--backend cuda --repeats 5 --min-time 0.3 --warmup-time 0.3"
for prec in double mixed single; do
  for nl in ballot atomic; do
    "$B/mesobench" run $R --filter 'lj-liquid' --variant precision=$prec,nlist=$nl --json "$O/lj-liquid-$prec-$nl.json" > "$O/lj-liquid-$prec-$nl.txt" 2>&1
  done
  "$B/mesobench" run $R --filter 'lj-liquid' --param N=1000000 --variant precision=$prec --json "$O/lj-liquid-1M-$prec.json" > "$O/lj-liquid-1M-$prec.txt" 2>&1
  "$B/mesobench" validate --backend cuda --filter nve-drift --variant precision=$prec --json "$O/nve-drift-short-cuda-$prec.json" > "$O/nve-drift-short-cuda-$prec.txt" 2>&1
  echo "nve-drift $prec rc=$?" | tee -a "$O/status.txt"
done
tar -C "$(dirname "$O")" -czf "$O.tar.gz" "$(basename "$O")"
