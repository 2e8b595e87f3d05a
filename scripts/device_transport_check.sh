#!/usr/bin/env bash
# The device check of the ghost transports split from the domain storage
# (issue 29: MpiCommunicator holds the plan, HostGhostTransport and
# PeerGhostTransport move the records, PeerGhostOp is the device storage's
# side of CUDA IPC), on one GPU shared by the ranks (the peer path runs
# between ranks of one node, a shared GPU included), in one device call:
#  1. builds the tree before (a `git archive` tarball) and the working tree;
#  2. kernels_test; decomposition_gpu_test on 1, 2 and 4 ranks (bitwise the
#     one-rank run, and every exchange after the first and every update GPU
#     to GPU; every ghost through the host with --transport host: its
#     HostTransport test); decomposition_test (CPU ranks) on 2 ranks;
#  3. compute-sanitizer memcheck on 2 ranks, racecheck on each rank of 2
#     (host-driven path, MESO_TEST_VARIANT=graphs=off), on the variant and line tests;
#  4. two-rank sweeps before and after, interleaved: dpd-fluid strong 1M and
#     srd-fluid strong 1.25M (`mesobench scale`, ranks sharing the GPU).
# Usage: scripts/device_transport_check.sh <before source tarball> <output dir>
# (the output dir is packed into <output dir>.tgz at the end)
set -u
TGZ=$1
O=$2
mkdir -p "$O"
. "$(dirname "$0")/device_check_lib.sh"
export OMP_NUM_THREADS=1
build_before_after "$TGZ" /tmp/before-src mesobench kernels_test decomposition_gpu_test decomposition_test

gpu_tests 1 2 4
timeout 200 mpirun -np 2 --oversubscribe --bind-to none "$A/decomposition_test" --gtest_color=no \
  > "$O/decomposition-cpu-2.log" 2>&1
stamp "decomposition_test (cpu) on 2 ranks rc=$? $(counts "$O/decomposition-cpu-2.log")"

F='*CudaVariants*:*LineOfRanks*'
timeout 280 mpirun -np 2 --oversubscribe --bind-to none $CS --tool memcheck --error-exitcode 9 \
  "$A/decomposition_gpu_test" --gtest_color=no --gtest_filter="$F" > "$O/sanitizer-memcheck.log" 2>&1
stamp "memcheck on 2 ranks rc=$? $(grep -c 'ERROR SUMMARY: 0 errors' "$O/sanitizer-memcheck.log") clean summaries"
export MESO_TEST_VARIANT=graphs=off
for r in 0 1; do
  san=($CS --tool racecheck --racecheck-report all --error-exitcode 9)
  if [ $r = 0 ]; then first=("${san[@]}"); second=(); else first=(); second=("${san[@]}"); fi
  timeout 280 mpirun -x MESO_TEST_VARIANT --bind-to none -np 1 "${first[@]}" "$A/decomposition_gpu_test" \
    --gtest_color=no --gtest_filter="$F" : -np 1 "${second[@]}" "$A/decomposition_gpu_test" --gtest_color=no \
    --gtest_filter="$F" > "$O/sanitizer-racecheck-rank$r.log" 2>&1
  stamp "racecheck on rank $r of 2 rc=$? $(grep -c 'RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)' "$O/sanitizer-racecheck-rank$r.log") clean summaries"
done
unset MESO_TEST_VARIANT

S=(--backend cuda --ranks 2 --steps 300 --warmup 100 --repeats 3 --mpirun-args "--oversubscribe --bind-to none")
for round in 1 2; do
  for side in before after; do
    bin=$B
    [[ $side == after ]] && bin=$A
    "$bin/mesobench" scale --mode strong --workload dpd-fluid --total 1048576 "${S[@]}" \
      --out "$O/scale-dpd-$side-$round" > "$O/scale-dpd-$side-$round.txt" 2>&1
    "$bin/mesobench" scale --mode strong --workload srd-fluid --total 1250000 "${S[@]}" \
      --out "$O/scale-srd-$side-$round" > "$O/scale-srd-$side-$round.txt" 2>&1
  done
  stamp "sweeps round $round"
done
python3 "$(dirname "$0")/before_after_tps.py" "$O" | tee "$O/scale-summary.txt"
stamp done
tar czf "$O.tgz" -C "$(dirname "$O")" "$(basename "$O")" && rm -rf "$O"
