#!/usr/bin/env bash
# The CUDA DPD measurements behind results/cuda-dpd/ (first CUDA backend,
# issue 4), in one call on the device machine: GPU tests, Tang &
# Karniadakis' Table 2 / Table 3 microbenchmarks, the dpd-fluid step sweep per
# precision and variant, and the CPU reference on the same host.
# Usage: scripts/device_cuda_dpd.sh <build dir with bin/> <output dir>
set -u
B=${1:-build/default}/bin
O=${2:-results/cuda-dpd}
mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > "$O/device.txt" 2>&1
"$B/kernels_test" --gtest_color=no > "$O/gpu-tests.log" 2>&1; echo "kernels_test rc=$?" | tee -a "$O/status.txt"
"$B/physics_test" --gtest_filter='*Fast*' --gtest_color=no > "$O/fast-math-host-tests.log" 2>&1; echo "physics_test(fast) rc=$?" | tee -a "$O/status.txt"
"$B/bench_fast_math" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out="$O/table3-fast-math.json" --benchmark_out_format=json > "$O/table3-fast-math.txt" 2>&1
"$B/mesobench_cuda_micro" --benchmark_out="$O/table2-nlist.json" --benchmark_out_format=json \
  > "$O/table2-nlist.txt" 2>&1
R="--backend cuda --repeats 5 --min-time 0.3 --warmup-time 0.3"
F='dpd-fluid/.*/rho=3/rc=1/s=0.5/N='
for prec in double mixed single; do
  "$B/mesobench" run $R --filter "$F" --variant precision=$prec --json "$O/step-$prec.json" > "$O/step-$prec.txt" 2>&1
  "$B/mesobench" run $R --filter "${F}1048576" --variant precision=$prec,pow=fast --json "$O/step-$prec-fast.json" > "$O/step-$prec-fast.txt" 2>&1
done
for v in "reorder=morton2,sort=10" "reorder=morton2,sort=100" "reorder=morton2,sort=1000" \
         "reorder=hilbert,sort=100" "cells=sorted,reorder=morton2,sort=100" "nlist=atomic" \
         "rng=tea" "fuse=on" "pow=fast,rng=tea,fuse=on,reorder=morton2,sort=100"; do
  tag=$(echo "$v" | tr ',=' '_-')
  "$B/mesobench" run $R --filter "${F}1048576" --variant "precision=mixed,$v" --json "$O/variant-mixed-$tag.json" > "$O/variant-mixed-$tag.txt" 2>&1
done
"$B/mesobench" run $R --filter 'dpd-fluid/.*/(rho=(6|50)/rc=1/|rc=1.5/)' --variant precision=mixed --json "$O/step-mixed-rho-rc.json" > "$O/step-mixed-rho-rc.txt" 2>&1
# The CPU reference on the same host, all cores (reorder=cell is its fastest order).
"$B/mesobench" run --backend cpu --repeats 3 --min-time 1 --filter "${F}(32768|262144)$" --variant reorder=cell --json "$O/cpu-same-host.json" > "$O/cpu-same-host.txt" 2>&1
tail -n 3 "$O"/step-*.txt "$O"/variant-*.txt | grep -E "dpd-fluid|==>" | cut -c1-20,100-
tar -C "$(dirname "$O")" -czf "$O.tar.gz" "$(basename "$O")"
