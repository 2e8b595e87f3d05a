#!/usr/bin/env bash
# Small-N throughput on one GPU, for planning the nve-drift long form (N = 5000
# LJ, 48 runs of 10^7 steps): one process alone, then K processes sharing the
# GPU under MPS; plus stop/--resume of nve-drift on the cuda backend.
# Usage: scripts/device_small_n_probe.sh <bin> <out> [K]
set -u
B=$1 O=$2 K=${3:-12}
mkdir -p "$O"
lj=(run --backend cuda --filter lj-liquid --param N=5000 --param rho=0.4 --param rc=2.5 --param kT=1
    --param integrator=nve --param skin=0.4 --variant precision=mixed --repeats 3)
v=(validate --filter nve-drift-xplor --backend cuda --variant precision=mixed)
{
  "$B/mesobench" "${v[@]}" --time-limit 0 --json /tmp/p1.json; echo "stop rc=$?"
  "$B/mesobench" validate --resume /tmp/p1.json --json /tmp/done.json; echo "resume rc=$?"
  "$B/mesobench" "${v[@]}" --json /tmp/whole.json; echo "whole rc=$?"
  python3 - <<'PY'
import json
a = json.load(open("/tmp/whole.json"))["cases"][0]["data"]["gates"]
b = json.load(open("/tmp/done.json"))["cases"][0]["data"]["gates"]
for x, y in zip(a, b):
    print(f"{x['quantity'][:24]:24s} whole {x['measured']:.6e} resumed {y['measured']:.6e} equal={x['measured'] == y['measured']}")
PY
} > "$O/resume.txt" 2>&1
"$B/mesobench" "${lj[@]}" --min-time 1 > "$O/alone.txt" 2>&1
export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY
nvidia-cuda-mps-control -d
for i in $(seq 1 "$K"); do "$B/mesobench" "${lj[@]}" --min-time 3 > "$O/mps-$i.txt" 2>&1 & done
wait
echo quit | nvidia-cuda-mps-control
grep -h "^lj-liquid" "$O/alone.txt" | awk '{print "alone TPS", $4}' > "$O/summary.txt"
grep -h "^lj-liquid" "$O"/mps-*.txt | awk -v k="$K" '{s += $4; n++} END {print "MPS", k, "processes:", n, "reported, sum of TPS", s}' >> "$O/summary.txt"
cat "$O/summary.txt" "$O/resume.txt"
