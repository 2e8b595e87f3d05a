#!/usr/bin/env bash
# Why three gates' short forms failed in their workloads' GPU defaults (2026-11-29,
# results/validation/gates-h200-2026-11-29e/): nve-drift-shift's momentum slope in lj-liquid's
# mixed default, against the same default with one axis changed (ballot or atomic lists, no
# reordering) and the double default, seeds 1 and 2; nve-drift-xplor's on seeds 2 and 3;
# dppc-density's profiles in mdscf-dppc's double default and in mixed with density=gather.
# Each alone in a process under MPS, a JSON and a log a run in $OUT; about a minute.
# PART=nve instead: the short forms of nve-drift-shift and -xplor on seeds 4, 5 and 6 in
# lj-liquid's mixed and double defaults, after the short form's momentum gate changed (its
# README); the JSONs packed to $OUT/nve.tgz.
# Usage: OUT=dir [PART=nve] scripts/device_default_diagnostics.sh (mesobench for sm_90 in
# .carry/bins.tar.xz)
set -u
mkdir -p /tmp/b && tar xJf .carry/bins.tar.xz -C /tmp/b; MB=/tmp/b/mesobench
export LD_LIBRARY_PATH=$PWD/.deps/re2/lib OMP_NUM_THREADS=1 CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY; nvidia-cuda-mps-control -d
d() { local n=$1; shift; (timeout 200 $MB validate --backend cuda -q "$@" --json $OUT/$n.json > $OUT/$n.log 2>&1; echo "$n rc=$? $(grep -E '(PASS|FAIL)[[:space:]]*$' $OUT/$n.log | tr -s ' ')") & }
if [[ ${PART:-} == nve ]]; then
  for s in 4 5 6; do for m in shift xplor; do for p in mixed double; do
    d nve-$m-$p-s$s --filter "^nve-drift-$m\$" --seed $s --variant precision=$p
  done; done; done
  wait; echo quit | nvidia-cuda-mps-control; tar czf $OUT/nve.tgz -C $OUT --remove-files $(cd $OUT && ls nve-*)
  exit 0
fi
for s in 1 2; do
d nve-shift-mixed-ballot-s$s --filter '^nve-drift-shift$' --seed $s --variant precision=mixed,nlist=ballot
d nve-shift-mixed-atomic-s$s --filter '^nve-drift-shift$' --seed $s --variant precision=mixed,nlist=atomic
d nve-shift-mixed-noreorder-s$s --filter '^nve-drift-shift$' --seed $s --variant precision=mixed,reorder=none
d nve-shift-double-s$s --filter '^nve-drift-shift$' --seed $s --variant precision=double
d dppc-double-s$s --filter '^dppc-density$' --seed $s --variant precision=double
d dppc-mixed-gather-s$s --filter '^dppc-density$' --seed $s --variant precision=mixed,density=gather
done
d nve-xplor-mixed-s2 --filter '^nve-drift-xplor$' --seed 2
d nve-xplor-mixed-s3 --filter '^nve-drift-xplor$' --seed 3
wait; echo quit | nvidia-cuda-mps-control; nvidia-smi -L; date -u
