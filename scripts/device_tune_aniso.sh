#!/usr/bin/env bash
# The autotuner's lanes a particle (tpp) over the orientational workloads: janus-triblock at
# L = 40 in mixed and double, gb-liquid at N = 1000 and 64000 and ssd-water at N = 512 and 64000
# in mixed, TUNE_TIME seconds a case (default 20), into $O/tune-gpu<G>.json. On two or more GPUs
# the two halves run side by side, one process a GPU; on one, one after the other. The binaries
# come built (.carry/bins.tar.xz: mesobench), RE2 from .deps/; $OUT/tune-aniso.tgz holds it all.
# Usage: scripts/device_tune_aniso.sh <output dir>
set -u
O=$1
PARTS=""
. scripts/device_carried.sh
T=${TUNE_TIME:-20}
tune() {  # gpu, name, tune arguments...
  local g=$1 name=$2
  shift 2
  CUDA_VISIBLE_DEVICES=$g "$MB" tune --backend cuda --max-n 100000000 --tune-time "$T" -q -o "$O/tune-gpu$g.json" \
    "$@" >> "$O/tune-gpu$g.log" 2>&1
  stamp "tune $name (GPU $g) rc=$?"
}
first() {
  tune "$1" janus-mixed --filter 'janus-triblock/.*L=40/'
  tune "$1" janus-double --filter 'janus-triblock/.*L=40/' --variant precision=double
  tune "$1" gb-64000 --filter 'gb-liquid/.*N=64000$'
}
second() {
  tune "$1" gb-1000 --filter 'gb-liquid/.*N=8000$' --param N=1000
  tune "$1" ssd-512 --filter 'ssd-water/.*N=64000$' --param N=512
  tune "$1" ssd-64000 --filter 'ssd-water/.*N=64000$'
}
if (($(nvidia-smi -L | wc -l) > 1)); then
  first 0 &
  second 1 &
  wait
else
  first 0
  second 0
fi
tar czf "$OUT/tune-aniso.tgz" -C "$O" .
