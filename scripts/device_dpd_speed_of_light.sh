#!/usr/bin/env bash
# The DPD speed work's second part, with the per-kernel speed of light: the
# GPU runs behind results/cuda-dpd/issue13-part2/ (issue 13, second part:
# the masked traversal of the DPD force kernel, noise=fp32 by default
# in mixed, the list capacity shrunk after equilibration with the reorder
# scratch in the list's storage, the per-kernel speed of light, the step
# against N), in one device call, most important first, each part bounded by
# a timeout:
#  1. every GPU test (kernels_test), none skipped;
#  2. the dpd-fluid N = 1M benchmark: the default (no --variant) and
#     precision=double, then gather=split/masked with noise=fp64/fp32, and
#     lj-liquid with no --variant;
#  3. the default step against N (8192 .. 4M) in mixed and double, for the
#     step-versus-N plot;
#  4. Nsight Compute's speed of light for every kernel of 40 consecutive
#     launches (a few steps, rebuilds included) at N = 1M, mixed default,
#     and the detailed sections of the masked force kernel;
#  5. compute-sanitizer memcheck (graphs) and racecheck (graphs=off)
#     on 20-step runs with gather=masked (trajectory_digest, N = 8192);
#  6. the dpd-temperature and poiseuille-viscosity long forms and the
#     poiseuille-transient short form with noise=fp32 (concurrently);
#  7. the skin sweep of the default at N = 1M, mixed and double.
# After every part the outputs are packed into $TGZ, so a call stopped at its
# limit still returns what finished. PARTS (default "1 2 3 4 5") selects the
# parts; the committed results ran "1 2 3 5", "6" and "4 7" in three calls.
# Usage: [PARTS="..."] scripts/device_dpd_speed_of_light.sh <bin dir> <output dir> <tgz>
# where <bin dir> holds kernels_test, mesobench and trajectory_digest of a
# device build (cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
# -DCMAKE_CUDA_ARCHITECTURES=90; ninja -C build kernels_test mesobench
# trajectory_digest).
set -u
BIN=$1
O=$2
TGZ=$3
PARTS=" ${PARTS:-1 2 3 4 5} "
part() { [[ $PARTS == *" $1 "* ]]; }
mkdir -p "$O"
pack() { tar czf "$TGZ" -C "$O" . ; }
stamp() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$O/status.txt"; }
{ nvidia-smi; nvidia-smi -L; date -u; } > "$O/device.txt" 2>&1
export MESO_GIT_COMMIT=${MESO_GIT_COMMIT:-unknown}

# 1. GPU tests
if part 1; then
timeout 150 "$BIN/kernels_test" --gtest_color=no > "$O/gpu-tests.log" 2>&1
stamp "kernels_test rc=$? $(grep -c '\[       OK \]' "$O/gpu-tests.log") ok, $(grep -c '\[  SKIPPED \]' "$O/gpu-tests.log") skipped, $(grep -c '\[  FAILED  \]' "$O/gpu-tests.log") failed lines"
pack
fi

# 2. benchmarks, N = 1M, rho = 3, r_c = 1
if part 2; then
F='dpd-fluid/.*/rho=3/rc=1/.*N=1048576$'
bench() {  # bench <name> <filter> [mesobench run args...]
  local name=$1 filter=$2
  shift 2
  timeout 120 "$BIN/mesobench" run --backend cuda --filter "$filter" --repeats 5 --min-time 0.3 \
    --warmup-time 0.3 --json "$O/$name.json" "$@" > "$O/$name.txt" 2>&1
  stamp "bench $name rc=$?"
}
bench step-default-mixed "$F"
bench step-default-double "$F" --variant precision=double
S=precision=mixed,nlist=ballot,reorder=morton2,sort=100,pow=fast,fuse=on
D=precision=double,nlist=ballot,reorder=morton2,sort=100,pow=fast,fuse=on
for g in split masked; do
  bench "mixed-$g-fp64noise" "$F" --variant "$S,noise=fp64,gather=$g"
  bench "mixed-$g-fp32noise" "$F" --variant "$S,noise=fp32,gather=$g"
  bench "double-$g" "$F" --variant "$D,gather=$g"
done
bench lj-liquid-default 'lj-liquid/.*'
pack
fi

# 3. the default step against N (rho = 3, r_c = 1), mixed and double
if part 3; then
N='dpd-fluid/.*/rho=3/rc=1/.*N=(8192|32768|262144|1048576|4194304)$'
bench step-vs-n-mixed "$N"
bench step-vs-n-double "$N" --variant precision=double
pack
fi

# 4. Nsight Compute, N = 1M: the speed of light of every kernel of a few
if part 4; then
# steps (rebuilds and sorts included), mixed and double defaults. The
# host-driven path (graphs=off) launches the same kernels in the same
# order as the step graphs, whose conditional nodes ncu does not profile.
NCU=ncu; command -v $NCU > /dev/null || NCU=/usr/local/cuda/bin/ncu
$NCU --version > "$O/ncu-version.txt" 2>&1
for p in mixed double; do
  timeout 150 $NCU --clock-control none --section SpeedOfLight \
    --launch-skip 300 --launch-count 250 --export "$O/ncu-step-sol-$p" "$BIN/mesobench" run \
    --backend cuda --filter "$F" --repeats 1 --min-time 0.3 --warmup-time 0 --variant precision=$p,graphs=off \
    > "$O/ncu-step-sol-$p.log" 2>&1
  stamp "ncu step-sol $p rc=$?"
  $NCU --import "$O/ncu-step-sol-$p.ncu-rep" --page raw --csv \
    --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed \
    > "$O/ncu-step-sol-$p.csv" 2>&1
  rm -f "$O/ncu-step-sol-$p.ncu-rep"
done
prof() {  # prof <name> <kernel regex> <variant>
  timeout 60 $NCU --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
    -k "regex:$2" --launch-skip 3 --launch-count 1 --export "$O/ncu-$1" "$BIN/mesobench" run \
    --backend cuda --filter "$F" --repeats 1 --min-time 0.01 --warmup-time 0 --variant "$3" \
    > "$O/ncu-$1.log" 2>&1
  stamp "ncu $1 rc=$?"
  $NCU --import "$O/ncu-$1.ncu-rep" --print-details all > "$O/ncu-$1.txt" 2>&1
  rm -f "$O/ncu-$1.ncu-rep"
}
prof force-masked pair_force_kernel "$S,noise=fp32,gather=masked"
prof force-split pair_force_kernel "$S,noise=fp32,gather=split"
pack
fi

# 5. sanitizers
if part 5; then
CS=compute-sanitizer; command -v $CS > /dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
san() {  # san <tool> <name> <variant> [steps]; $G: ",graphs=off" for racecheck
  timeout 90 $CS --tool "$1" --error-exitcode 9 "$BIN/trajectory_digest" dpd-fluid 8192 cuda "$3$G" "${4:-20}" 10 \
    > "$O/sanitizer-$1-$2.log" 2>&1
  stamp "sanitizer $1 $2 graphs=$([ -n "$G" ] && echo off || echo on) rc=$? $(grep -c 'ERROR SUMMARY: 0 errors\|RACECHECK SUMMARY: 0 hazards' "$O/sanitizer-$1-$2.log")"
}
for tool in memcheck racecheck; do
  [[ $tool == racecheck ]] && G=,graphs=off || G=""
  san $tool masked-mixed "precision=mixed,reorder=morton2,sort=5,pow=fast,fuse=on,noise=fp32,gather=masked"
  san $tool masked-double-tea "precision=double,nlist=atomic,cells=sorted,rng=tea,gather=masked"
  # 400 steps in batches of 10: sorts with the scratch in the list, and the
  # capacity shrink after the random start (a window is 20 builds)
  san $tool scratch-in-list-shrink "precision=double,reorder=hilbert,sort=5,gather=split" 400
done
pack
fi

# 6. long forms with fp32 noise, concurrently (correctness only: no timings)
if part 6; then
C=precision=mixed,reorder=morton2,sort=100,pow=fast,fuse=on,noise=fp32
val() {  # val <case> <name> [validate args...]
  local c=$1 name=$2
  shift 2
  timeout 480 "$BIN/mesobench" validate --filter "$c" --backend cuda --variant $C "$@" \
    --json "$O/$name.json" > "$O/$name.txt" 2>&1
  stamp "$name rc=$?"
}
val poiseuille-viscosity poiseuille-viscosity-long-fp32noise --long &
val dpd-temperature dpd-temperature-long-fp32noise --long &
val poiseuille-transient poiseuille-transient-short-fp32noise &
wait
pack
fi

# 7. the skin of the default, N = 1M
if part 7; then
F='dpd-fluid/.*/rho=3/rc=1/.*N=1048576$'
mkdir -p "$O/skin"
for p in mixed double; do
  for skin in 0.15 0.2 0.25 0.3 0.4; do
    timeout 60 "$BIN/mesobench" run --backend cuda --filter "$F" --repeats 5 --min-time 0.3 \
      --warmup-time 0.3 --param skin=$skin --variant precision=$p --json "$O/skin/skin-$p-$skin.json" \
      > "$O/skin/skin-$p-$skin.txt" 2>&1
    stamp "skin $p $skin rc=$?"
  done
done
pack
fi
stamp done
