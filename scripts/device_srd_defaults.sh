#!/usr/bin/env bash
# srd-fluid's default variants (L = 50, 1.25M particles) against the
# alternatives, on one device call: the cuda default (no --variant) against
# the old default (double, unsorted) and mixed unsorted; the cpu reference
# unsorted against reorder=cell,sort=25 on one thread and on every core.
# Usage: scripts/device_srd_defaults.sh <mesobench> <output dir>
set -u
MB=$1
O=$2
mkdir -p "$O"
{ nvidia-smi -L; lscpu | grep -E "Model name|^CPU\(s\)"; date -u; } > "$O/device.txt" 2>&1
F='srd-fluid.*L=50$'
run() {  # name, then mesobench run arguments
  local name=$1; shift
  timeout 120 "$MB" run --filter "$F" --max-n 2000000 --quiet --json "$O/$name.json" "$@" > "$O/$name.log" 2>&1
  echo "$name rc=$? $(grep -E 'srd-fluid' "$O/$name.log" | tail -1)"
}
run cuda-default --backend cuda --repeats 5 --min-time 0.3
run cuda-double-unsorted --backend cuda --repeats 5 --min-time 0.3 --variant precision=double,reorder=none,sort=0
run cuda-mixed-unsorted --backend cuda --repeats 5 --min-time 0.3 --variant precision=mixed,reorder=none,sort=0
CORES=$(getconf _NPROCESSORS_ONLN)
OMP_NUM_THREADS=1 run cpu-1t-unsorted --backend cpu --repeats 3 --min-time 1
OMP_NUM_THREADS=1 run cpu-1t-sort25 --backend cpu --repeats 3 --min-time 1 --variant reorder=cell,sort=25
OMP_NUM_THREADS=$CORES run cpu-${CORES}t-unsorted --backend cpu --repeats 3 --min-time 1
OMP_NUM_THREADS=$CORES run cpu-${CORES}t-sort25 --backend cpu --repeats 3 --min-time 1 --variant reorder=cell,sort=25
