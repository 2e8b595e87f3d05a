#!/usr/bin/env bash
# DPD on half rows (nlist=half) on one GPU, in one call (results/cuda-dpd/half-list/README.md):
#   tests     kernels_test (every one-GPU test; GTEST_FILTER narrows it)
#   sanitize  compute-sanitizer memcheck (step graphs) and racecheck (graphs=off) of 20
#             steps of dpd-fluid N = 8192 on half rows, mixed and double (trajectory_digest), and
#             memcheck of CudaDpdHalfList's refusal and energy tests
#   bench     dpd-fluid rho = 3 at N = 65536, 262144, 1M and 4M (SIZES), in mixed and double
#             (PRECISIONS): nlist=ballot, tiled and half over the workload's default, one after
#             the other, REPEATS timed repeats each (median, min..max in the JSON)
#   gates     with GATE_VARIANT (nlist=half over the mixed default): the long forms of
#             poiseuille-viscosity and dpd-temperature and the short form of poiseuille-transient
# The binaries come built (.carry/bins.tar.xz: mesobench, kernels_test, trajectory_digest),
# RE2 from .deps/. Outputs are packed into $OUT/half-list.tgz after every part.
# Usage: PARTS="tests sanitize bench" scripts/device_half_list.sh <output dir>
set -u
O=$1
PARTS=${PARTS:-tests sanitize bench}
. scripts/device_carried.sh
pack() { tar czf "$OUT/half-list.tgz" -C "$O" . 2>/dev/null || true; }
if part tests; then
  timeout ${KERNELS_TIMEOUT:-300} "$BIN/kernels_test" --gtest_color=no --gtest_filter="${GTEST_FILTER:-*}" \
    > "$O/kernels-test.log" 2>&1
  stamp "kernels_test rc=$? $(counts "$O/kernels-test.log")"
  pack
fi
if part sanitize; then
  # memcheck with the step graphs, racecheck host-driven (graphs=off), on 20-step runs
  # of dpd-fluid N = 8192 (trajectory_digest), and memcheck of the refusal and energy tests
  san() {  # tool name graphs(1|0) variant
    local v=$4; [ $3 = 0 ] && v=$v,graphs=off
    timeout ${SANITIZE_TIMEOUT:-200} compute-sanitizer --tool $1 --error-exitcode 9 \
      "$BIN/trajectory_digest" dpd-fluid 8192 cuda "$v" 20 10 > "$O/sanitizer-$1-$2.log" 2>&1
    stamp "sanitizer $1 $2 graphs=$3 rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/sanitizer-$1-$2.log" | tail -1)"
  }
  M=nlist=half,precision=mixed,reorder=morton2,sort=5,pow=fast,fuse=on,noise=fp32
  D=nlist=half,precision=double,rng=tea
  san memcheck mixed 1 $M; san memcheck double 1 $D; san racecheck mixed 0 $M; san racecheck double 0 $D
  timeout ${SANITIZE_TIMEOUT:-200} compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/kernels_test" \
    --gtest_color=no --gtest_filter='CudaDpdHalfList.Refuses*:CudaDpdHalfList.Energy*' > "$O/memcheck-tests.log" 2>&1
  stamp "memcheck tests rc=$? $(grep -E 'ERROR SUMMARY' "$O/memcheck-tests.log" | tail -1) $(counts "$O/memcheck-tests.log")"
  pack
fi
if part bench; then
  for p in ${PRECISIONS:-mixed double}; do
    for n in ${SIZES:-65536 262144 1048576 4194304}; do
      for nv in ballot=precision=$p,nlist=ballot tiled=precision=$p,nlist=tiled half=precision=$p,nlist=half; do
        k=${nv%%=*}
        "$MB" run --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$' --param N=$n --max-n 100000000 --backend cuda \
          --variant "${nv#*=}" --repeats ${REPEATS:-5} --min-time 0.3 --warmup-time 0.3 \
          --json "$O/dpd-$p-$n-$k.json" > "$O/dpd-$p-$n-$k.log" 2>&1
        stamp "dpd-fluid N=$n $p $k rc=$? $(grep -A1 '^dpd-fluid\|^case' "$O/dpd-$p-$n-$k.log" | tail -1)"
      done
    done
    pack
  done
fi
if part gates; then
  v=${GATE_VARIANT:-precision=mixed,nlist=half}
  for g in poiseuille-viscosity dpd-temperature; do
    timeout ${GATE_TIMEOUT:-240} "$MB" validate --filter "$g" --long --backend cuda --variant "$v" \
      --json "$O/$g-long.json" > "$O/$g-long.log" 2>&1
    stamp "$g long $v rc=$? $(grep -E "^$g" "$O/$g-long.log" | tail -1)"
  done
  timeout ${GATE_TIMEOUT:-240} "$MB" validate --filter poiseuille-transient --backend cuda --variant "$v" \
    --json "$O/poiseuille-transient-short.json" > "$O/poiseuille-transient-short.log" 2>&1
  stamp "poiseuille-transient short $v rc=$? $(grep -E '^poiseuille-transient' "$O/poiseuille-transient-short.log" | tail -1)"
  pack
fi
pack
