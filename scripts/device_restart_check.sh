#!/usr/bin/env bash
# The device check of a merge that touched the run loop, the checkpoint
# reader and the outputs, in one device call:
#   1. builds the tree before (a `git archive` tarball) and the working tree;
#   2. kernels_test; decomposition_gpu_test on 1, 2 and 4 ranks sharing the GPU;
#   3. bitwise, before against after, 1000 steps with a checkpoint: every
#      workload's default on the CPU reference (small N) and on CUDA;
#   4. `run --restart` on CUDA through the checkpoint reader and its range
#      checks: a run stopped at step 50 and continued to 120 ends in the
#      checkpoint bytes of the uninterrupted run (dpd-fluid, lj-liquid,
#      srd-fluid, cell-sorted dpd-fluid).
# Usage: scripts/device_restart_check.sh <before tarball> <output dir>
# (the output dir is packed into <output dir>.tgz at the end)
set -u
TGZ=$1
O=$2
mkdir -p "$O"
. "$(dirname "$0")/device_check_lib.sh"
build_before_after "$TGZ" build/before-src mesobench kernels_test decomposition_gpu_test
gpu_tests 1 2 4

: > "$O/bitwise.txt"
export OMP_NUM_THREADS=8
BITWISE_BACKEND=cpu bitwise cpu-dpd 'dpd-fluid/.*/rho=3/rc=1/.*N=8192$'
BITWISE_BACKEND=cpu bitwise cpu-lj 'lj-liquid' --param N=4000
BITWISE_BACKEND=cpu bitwise cpu-srd 'srd-fluid.*L=10$'
BITWISE_BACKEND=cpu bitwise cpu-dppc 'mdscf-dppc.*lipids=528/'
unset OMP_NUM_THREADS
bitwise dpd 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$'
bitwise lj 'lj-liquid'
bitwise srd 'srd-fluid.*L=50$'
bitwise dppc 'mdscf-dppc.*lipids=528/'
cat "$O/bitwise.txt"

declare -A select=(
  [dpd]="--filter dpd-fluid/.*/rho=3/rc=1/.*N=32768\$"
  [lj]="--filter lj-liquid --param N=4000"
  [srd]="--filter srd-fluid.*L=10\$ --param L=20"
  [dpdsort]="--filter dpd-fluid/.*/rho=3/rc=1/.*N=32768\$ --variant reorder=cell,sort=15"
)
: > "$O/restart.txt"
for w in dpd lj srd dpdsort; do
  set -f
  args=(run --backend cuda ${select[$w]})
  set +f
  "$A/mesobench" "${args[@]}" --steps 120 --checkpoint "$O/$w-whole.ckpt" > "$O/restart-$w.log" 2>&1
  "$A/mesobench" "${args[@]}" --steps 50 --checkpoint "$O/$w-part.ckpt" >> "$O/restart-$w.log" 2>&1
  "$A/mesobench" "${args[@]}" --steps 120 --restart "$O/$w-part.ckpt" --checkpoint "$O/$w-resumed.ckpt" \
    >> "$O/restart-$w.log" 2>&1
  rc=$?
  verdict=DIFFERENT
  cmp -s "$O/$w-whole.ckpt" "$O/$w-resumed.ckpt" && verdict=IDENTICAL
  echo "$verdict  $w: restart rc=$rc, 50 + 70 steps against 120" >> "$O/restart.txt"
  rm -f "$O/$w-"*.ckpt
done
cat "$O/restart.txt"
stamp done
tar czf "$O.tgz" -C "$(dirname "$O")" "$(basename "$O")" && rm -rf "$O"
