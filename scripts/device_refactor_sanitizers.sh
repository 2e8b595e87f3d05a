#!/usr/bin/env bash
# A refactor's GPU checks, the runs behind results/refactor/ (issue 18,
# backends as composed operations), in one device call: every GPU test
# (kernels_test), the before/after check (scripts/device_refactor_check.sh:
# bitwise trajectories and TPS), and compute-sanitizer memcheck and
# racecheck of short runs of the default and fast variants of dpd-fluid and
# lj-liquid.
# Usage: scripts/device_refactor_sanitizers.sh <before bin dir> <after bin dir> <output dir>
set -u
BEF=$1
AFT=$2
O=$3
mkdir -p "$O"
"$AFT/kernels_test" --gtest_color=no > "$O/gpu-tests.log" 2>&1
echo "kernels_test rc=$? skipped=$(grep -c '\[  SKIPPED \]' "$O/gpu-tests.log")" | tee "$O/status.txt"
scripts/device_refactor_check.sh "$BEF" "$AFT" "$O" > "$O/refactor-check.log" 2>&1
echo "refactor check rc=$?" | tee -a "$O/status.txt"
CS=compute-sanitizer
command -v $CS > /dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
$CS --version > "$O/sanitizer-version.txt" 2>&1
sanitize() {  # sanitize <tool> <name> <workload> <N> <backend> <variant>; $G: graphs=off for racecheck
  local tool=$1 name=$2 v=$6
  [ -n "$G" ] && v=${v:+$v,}$G
  timeout 300 $CS --tool "$tool" --error-exitcode 9 "$AFT/trajectory_digest" "$3" "$4" "$5" "$v" 20 10 \
    > "$O/sanitizer-$tool-$name.log" 2>&1
  echo "sanitizer $tool $name graphs=$([ -n "$G" ] && echo off || echo on) rc=$? $(grep -c 'ERROR SUMMARY: 0 errors\|RACECHECK SUMMARY: 0 hazards' "$O/sanitizer-$tool-$name.log")" |
    tee -a "$O/status.txt"
}
# racecheck runs the host-driven step loop (graphs=off: the same
# kernels, launched one by one): with the conditional CUDA graph the
# application dies inside racecheck (the CUDA 13 compute-sanitizer on an H100;
# version in sanitizer-version.txt)
# before any kernel is checked, while memcheck runs the graphs.
for tool in memcheck racecheck; do
  [[ $tool == racecheck ]] && G=graphs=off || G=""
  sanitize $tool dpd-default dpd-fluid 8192 cuda ""
  sanitize $tool dpd-fast dpd-fluid 8192 cuda "precision=mixed,reorder=morton2,sort=5,pow=fast,rng=tea,fuse=on"
  sanitize $tool lj-default lj-liquid 8000 cuda ""
  sanitize $tool lj-fast lj-liquid 8000 cuda "precision=mixed,nlist=tiled,reorder=morton2,sort=5,tpp=4"
  sanitize $tool lj-atomic-sorted lj-liquid 8000 cuda "precision=single,nlist=atomic,cells=sorted,tpp=8"
  sanitize $tool dpd-ballot-hilbert dpd-fluid 8192 cuda "precision=double,nlist=ballot,reorder=hilbert,sort=5"
done
