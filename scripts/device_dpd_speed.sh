#!/usr/bin/env bash
# The DPD speed work's GPU runs behind results/cuda-dpd/issue13/ (issue 13:
# DPD speed, per-workload default variants, the error model of the fp32
# comparisons), in one device call, most important first, each part bounded
# by a timeout:
#  1. every GPU test (kernels_test), none skipped;
#  2. CudaDpdBackend.EveryVariantMatchesReference for >= 200 fresh seeds
#     (16 processes x 13 repeats, OMP_NUM_THREADS=1 each);
#  3. the dpd-fluid N = 1M benchmark with no --variant (the new mixed default)
#     and with --variant precision=double, then the variant sweep that
#     attributes the gains, and the code before (BASE) with its default and
#     fast mixed variants and double;
#  4. Nsight Compute on the force kernel (split and record) and the ballot
#     build at N = 1M, mixed;
#  5. the dpd-temperature and poiseuille-viscosity short forms on the GPU
#     with the candidate default (noise=fp32,gather=record), lj-liquid with
#     no --variant;
#  6. compute-sanitizer memcheck (graphs) and racecheck (graphs=off)
#     on 20-step runs of the new kernels (trajectory_digest, N = 8192).
# After every part the outputs are packed into $TGZ, so a call stopped at its
# limit still returns what finished.
# Usage: scripts/device_dpd_speed.sh <new bin dir> <base bin dir> <output dir> <tgz>
set -u
NEW=$1
BASE=$2
O=$3
TGZ=$4
mkdir -p "$O"
pack() { tar czf "$TGZ" -C "$O" . ; }
stamp() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$O/status.txt"; }
{ nvidia-smi; nvidia-smi -L; date -u; } > "$O/device.txt" 2>&1
export MESO_GIT_COMMIT=${MESO_GIT_COMMIT:-unknown}

# 1. GPU tests
timeout 120 "$NEW/kernels_test" --gtest_color=no > "$O/gpu-tests.log" 2>&1
stamp "kernels_test rc=$? $(grep -c '\[       OK \]' "$O/gpu-tests.log") ok, $(grep -c '\[  SKIPPED \]' "$O/gpu-tests.log") skipped, $(grep -c '\[  FAILED  \]' "$O/gpu-tests.log") failed lines"
pack

# 2. the formerly flaky test, 16 x 13 = 208 fresh seeds, 16 processes under
# MPS (its GPU work is many small launches; the processes' own time is CPU)
nvidia-cuda-mps-control -d > "$O/mps.txt" 2>&1 && MPS=1 || MPS=0
for k in $(seq 0 15); do
  OMP_NUM_THREADS=1 timeout 120 "$NEW/kernels_test" --gtest_color=no \
    --gtest_filter=CudaDpdBackend.EveryVariantMatchesReference --gtest_repeat=13 \
    > "$O/flaky-$k.log" 2>&1 &
done
wait
[[ $MPS == 1 ]] && echo quit | nvidia-cuda-mps-control
cat "$O"/flaky-*.log > "$O/every-variant-208-seeds.log"
rm -f "$O"/flaky-*.log
stamp "every-variant seeds: $(grep -c '\[       OK \] CudaDpdBackend.EveryVariantMatchesReference' "$O/every-variant-208-seeds.log") passed, $(grep -c '\[  FAILED  \] CudaDpdBackend.EveryVariantMatchesReference (' "$O/every-variant-208-seeds.log") failed; worst ratio $(grep -o 'tolerance [0-9.]*' "$O/every-variant-208-seeds.log" | sort -k2 -g | tail -1)"
pack

# 3. benchmarks, N = 1M, rho = 3, r_c = 1
F='dpd-fluid/.*/rho=3/rc=1/.*N=1048576$'
bench() {  # bench <name> <bin> [mesobench run args...]
  local name=$1 bin=$2
  shift 2
  timeout 60 "$bin/mesobench" run --backend cuda --filter "$F" --repeats 5 --min-time 0.3 \
    --warmup-time 0.3 --json "$O/$name.json" "$@" > "$O/$name.txt" 2>&1
  stamp "bench $name rc=$? $(grep -o '[0-9.]* ([0-9.]*\.\.[0-9.]*)' "$O/$name.txt" | head -1)"
}
bench step-default-mixed "$NEW"
bench step-default-double "$NEW" --variant precision=double
pack
S=precision=mixed,nlist=ballot,reorder=morton2,sort=100,pow=fast,fuse=on
bench sweep-mixed-old-axes "$NEW" --variant precision=mixed,reorder=none,sort=0,pow=libm,fuse=off,noise=fp64,gather=split
bench sweep-mixed-fast-split "$NEW" --variant $S,noise=fp64,gather=split
bench sweep-mixed-fast-fp32noise "$NEW" --variant $S,noise=fp32,gather=split
bench sweep-mixed-fast-record "$NEW" --variant $S,noise=fp64,gather=record
bench sweep-mixed-fast-record-fp32noise "$NEW" --variant $S,noise=fp32,gather=record
bench sweep-mixed-fast-record-fp32noise-tpp4 "$NEW" --variant $S,noise=fp32,gather=record,tpp=4
pack
D=precision=double,reorder=morton2,sort=100,pow=fast,fuse=on
bench sweep-double-old-axes "$NEW" --variant precision=double,reorder=none,sort=0,pow=libm,fuse=off,gather=split
bench sweep-double-fast-record "$NEW" --variant $D,gather=record
bench base-default-mixed "$BASE" --variant precision=mixed
bench base-fast-mixed "$BASE" --variant precision=mixed,reorder=morton2,sort=100,pow=fast,rng=tea,fuse=on
bench base-default-double "$BASE" --variant precision=double
pack

# 4. Nsight Compute, N = 1M mixed: the force kernel (split, record) and the build
NCU=ncu; command -v $NCU > /dev/null || NCU=/usr/local/cuda/bin/ncu
$NCU --version > "$O/ncu-version.txt" 2>&1
prof() {  # prof <name> <kernel regex> <variant>
  local name=$1 k=$2 v=$3
  timeout 60 $NCU --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
    --section ComputeWorkloadAnalysis -k "regex:$k" --launch-skip 3 --launch-count 1 \
    --export "$O/ncu-$name" "$NEW/mesobench" run --backend cuda --filter "$F" --repeats 1 \
    --min-time 0.01 --warmup-time 0 --variant "$v" > "$O/ncu-$name.log" 2>&1
  stamp "ncu $name rc=$?"
  $NCU --import "$O/ncu-$name.ncu-rep" --print-details all > "$O/ncu-$name.txt" 2>&1
}
prof force-split pair_force_kernel "$S,noise=fp64,gather=split"
prof force-record pair_force_kernel "$S,noise=fp32,gather=record"
prof nlist-ballot ballot_kernel "$S,noise=fp32,gather=record"
pack

# 5. gates on the GPU with the candidate default; lj-liquid default
C=precision=mixed,reorder=morton2,sort=100,pow=fast,fuse=on,noise=fp32,gather=record
timeout 60 "$NEW/mesobench" validate --filter dpd-temperature --backend cuda --variant "$C" \
  --json "$O/dpd-temperature-short-cuda.json" > "$O/dpd-temperature-short-cuda.txt" 2>&1
stamp "dpd-temperature short cuda rc=$?"
timeout 60 "$NEW/mesobench" validate --filter poiseuille-viscosity --backend cuda --variant "$C" \
  --json "$O/poiseuille-viscosity-short-cuda.json" > "$O/poiseuille-viscosity-short-cuda.txt" 2>&1
stamp "poiseuille-viscosity short cuda rc=$?"
timeout 60 "$NEW/mesobench" run --backend cuda --filter lj-liquid --repeats 5 --min-time 0.3 \
  --warmup-time 0.3 --json "$O/lj-liquid-default.json" > "$O/lj-liquid-default.txt" 2>&1
stamp "lj-liquid default rc=$? $(grep -o '[0-9.]* ([0-9.]*\.\.[0-9.]*)' "$O/lj-liquid-default.txt" | head -1)"
pack

# 6. sanitizers
CS=compute-sanitizer; command -v $CS > /dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
san() {  # san <tool> <name> <variant>; $G: ",graphs=off" for racecheck
  timeout 40 $CS --tool "$1" --error-exitcode 9 "$NEW/trajectory_digest" dpd-fluid 8192 cuda "$3$G" 20 10 \
    > "$O/sanitizer-$1-$2.log" 2>&1
  stamp "sanitizer $1 $2 graphs=$([ -n "$G" ] && echo off || echo on) rc=$? $(grep -c 'ERROR SUMMARY: 0 errors\|RACECHECK SUMMARY: 0 hazards' "$O/sanitizer-$1-$2.log")"
}
for tool in memcheck racecheck; do
  [[ $tool == racecheck ]] && G=,graphs=off || G=""
  san $tool record-fp32noise "precision=mixed,reorder=morton2,sort=5,pow=fast,fuse=on,noise=fp32,gather=record"
  san $tool record-tpp4-tea "precision=mixed,nlist=tiled,reorder=morton2,sort=5,rng=tea,noise=fp32,gather=record,tpp=4"
  san $tool split-ballot "precision=mixed,nlist=ballot,cells=sorted,reorder=morton2,sort=5"
done
pack
stamp done
