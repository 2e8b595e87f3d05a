#!/usr/bin/env bash
# The device check of the ghost transports split from the domain storage
# (issue 29: MpiCommunicator holds the plan, HostGhostTransport and
# PeerGhostTransport move the records, PeerGhostOp is the device storage's
# side of CUDA IPC), on one GPU shared by the ranks (the peer path runs
# between ranks of one node, a shared GPU included), in one device call:
#  1. builds the tree before (a `git archive` tarball) and the working tree;
#  2. kernels_test; decomposition_gpu_test on 1, 2 and 4 ranks (bitwise the
#     one-rank run, and every exchange after the first and every update GPU
#     to GPU), and on 2 ranks with MESO_PEER_UPDATES=0 (every ghost through
#     the host); decomposition_test (CPU ranks) on 2 ranks;
#  3. compute-sanitizer memcheck on 2 ranks, racecheck on each rank of 2
#     (host-driven path, MESO_CUDA_GRAPHS=0), on the variant and line tests;
#  4. two-rank sweeps before and after, interleaved: dpd-fluid strong 1M and
#     srd-fluid strong 1.25M (`mesobench scale`, ranks sharing the GPU).
# Usage: scripts/device_transport_check.sh <before source tarball> <output dir>
# (the output dir is packed into <output dir>.tgz at the end)
set -u
TGZ=$1
O=$2
mkdir -p "$O"
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*" | tee -a "$O/log.txt"; }
counts() { echo "$(grep -c '^\[       OK \]' "$1") ok, $(grep -c '^\[  FAILED  \]' "$1") failed, $(grep -c '^\[  SKIPPED \]' "$1") skipped"; }
nvidia-smi -L > "$O/gpus.txt" 2>&1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
BEFORE=/tmp/before-src
mkdir -p "$BEFORE" && tar xzf "$TGZ" -C "$BEFORE"
cfg=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMESO_ENABLE_CUDA=ON -DMESO_REQUIRE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90)
cmake -S "$BEFORE" -B "$BEFORE/build" "${cfg[@]}" > "$O/build-before.log" 2>&1
cmake -S . -B build/device "${cfg[@]}" > "$O/build-after.log" 2>&1
cmake --build "$BEFORE/build" -j 8 --target mesobench >> "$O/build-before.log" 2>&1 &
cmake --build build/device -j 10 --target mesobench kernels_test decomposition_gpu_test decomposition_test \
  >> "$O/build-after.log" 2>&1
stamp "build after rc=$?"
wait
stamp "build before rc=$?"
B=$BEFORE/build/bin
A=build/device/bin

timeout 300 "$A/kernels_test" --gtest_color=no > "$O/gpu-tests.log" 2>&1
stamp "kernels_test rc=$? $(counts "$O/gpu-tests.log")"
for r in 1 2 4; do
  timeout 200 mpirun -np $r --oversubscribe --bind-to none "$A/decomposition_gpu_test" --gtest_color=no \
    > "$O/decomposition-gpu-$r.log" 2>&1
  stamp "decomposition_gpu_test on $r ranks rc=$? $(counts "$O/decomposition-gpu-$r.log")"
done
MESO_PEER_UPDATES=0 timeout 200 mpirun -x MESO_PEER_UPDATES -np 2 --oversubscribe --bind-to none \
  "$A/decomposition_gpu_test" --gtest_color=no > "$O/decomposition-gpu-2-host.log" 2>&1
stamp "decomposition_gpu_test on 2 ranks, MESO_PEER_UPDATES=0, rc=$? $(counts "$O/decomposition-gpu-2-host.log")"
timeout 200 mpirun -np 2 --oversubscribe --bind-to none "$A/decomposition_test" --gtest_color=no \
  > "$O/decomposition-cpu-2.log" 2>&1
stamp "decomposition_test (cpu) on 2 ranks rc=$? $(counts "$O/decomposition-cpu-2.log")"

CS=compute-sanitizer; command -v $CS > /dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
F='*CudaVariants*:*LineOfRanks*'
timeout 280 mpirun -np 2 --oversubscribe --bind-to none $CS --tool memcheck --error-exitcode 9 \
  "$A/decomposition_gpu_test" --gtest_color=no --gtest_filter="$F" > "$O/sanitizer-memcheck.log" 2>&1
stamp "memcheck on 2 ranks rc=$? $(grep -c 'ERROR SUMMARY: 0 errors' "$O/sanitizer-memcheck.log") clean summaries"
export MESO_CUDA_GRAPHS=0
for r in 0 1; do
  san=($CS --tool racecheck --racecheck-report all --error-exitcode 9)
  if [ $r = 0 ]; then first=("${san[@]}"); second=(); else first=(); second=("${san[@]}"); fi
  timeout 280 mpirun -x MESO_CUDA_GRAPHS --bind-to none -np 1 "${first[@]}" "$A/decomposition_gpu_test" \
    --gtest_color=no --gtest_filter="$F" : -np 1 "${second[@]}" "$A/decomposition_gpu_test" --gtest_color=no \
    --gtest_filter="$F" > "$O/sanitizer-racecheck-rank$r.log" 2>&1
  stamp "racecheck on rank $r of 2 rc=$? $(grep -c 'RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)' "$O/sanitizer-racecheck-rank$r.log") clean summaries"
done
unset MESO_CUDA_GRAPHS

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
python3 - "$O" <<'PY' | tee "$O/scale-summary.txt"
import glob, json, os, statistics, sys
o = sys.argv[1]
rows = {}
for d in sorted(glob.glob(os.path.join(o, "scale-*-*-*"))):
    if not os.path.isdir(d):
        continue
    case, side, _ = os.path.basename(d)[6:].rsplit("-", 2)
    try:
        p = [q for q in json.load(open(os.path.join(d, "summary.json")))["points"] if q["ranks"] == 2][0]
    except Exception as e:
        print(f"{d}: unreadable ({e})")
        continue
    rows.setdefault(case, {}).setdefault(side, []).append(p["tps_median"])
print(f"{'case':5} {'before TPS':>11} {'after TPS':>11} {'after/before':>13}  (two ranks on one GPU; per round)")
for case, d in rows.items():
    b, a = statistics.median(d.get("before", [float("nan")])), statistics.median(d.get("after", [float("nan")]))
    print(f"{case:5} {b:11.1f} {a:11.1f} {a / b:13.4f}  before {d.get('before')} after {d.get('after')}")
PY
stamp done
tar czf "$O.tgz" -C "$(dirname "$O")" "$(basename "$O")" && rm -rf "$O"
