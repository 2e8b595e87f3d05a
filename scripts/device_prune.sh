#!/usr/bin/env bash
# Dynamic pruning (RunParams::inner_skin) on one GPU, in one call (results/cuda-dpd/prune/):
#   tests     kernels_test's CudaPrunedList.* first, then every one-GPU test (GTEST_FILTER narrows)
#   sanitize  compute-sanitizer memcheck (step graphs) and racecheck (graphs=off) of 40
#             steps of dpd-fluid N = 8192 pruned (skin 0.6, inner_skin 0.1) in mixed on half rows
#             and in double on ballot rows (trajectory_digest), and memcheck of the overflow test
#   bench     dpd-fluid rho = 3, N = 1M (SIZES), in mixed and double (PRECISIONS): the default
#             (skin 0.3, no pruning) and each "skin:inner_skin" of DPD_SKINS, alternated ROUNDS
#             times; lj-liquid N = 64000 the same with LJ_SKINS (the JSON's backend section holds
#             each kernel's time)
#   isolate   memcheck runs that isolate a fault (see the part)
# The binaries come built (BINS, default .carry/bins.tar.xz: mesobench, kernels_test,
# trajectory_digest), RE2 from .deps/. Outputs are packed into $OUT/prune.tgz after every part.
# Usage: PARTS="tests sanitize bench" scripts/device_prune.sh <output dir>
set -u
O=$1
PARTS=${PARTS:-tests sanitize bench}
. scripts/device_carried.sh
pack() { tar czf "$OUT/prune-$(basename "$O").tgz" -C "$O" . 2>/dev/null || true; }
if part tests; then
  timeout 300 "$BIN/kernels_test" --gtest_color=no --gtest_filter='CudaPrunedList.*' > "$O/prune-tests.log" 2>&1
  stamp "CudaPrunedList.* rc=$? $(counts "$O/prune-tests.log")"
  timeout ${KERNELS_TIMEOUT:-400} "$BIN/kernels_test" --gtest_color=no --gtest_filter="${GTEST_FILTER:-*}" \
    > "$O/kernels-test.log" 2>&1
  stamp "kernels_test rc=$? $(counts "$O/kernels-test.log")"
  pack
fi
if part sanitize; then
  san() {  # tool name graphs(1|0) variant
    local v=$4; [ $3 = 0 ] && v=$v,graphs=off
    timeout 200 compute-sanitizer --tool $1 --error-exitcode 9 \
      "$BIN/trajectory_digest" dpd-fluid 8192 cuda "$v" 40 10 0.6 0.1 > "$O/sanitizer-$1-$2.log" 2>&1
    stamp "sanitizer $1 $2 graphs=$3 rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/sanitizer-$1-$2.log" | tail -1)"
  }
  M=nlist=half,precision=mixed,reorder=morton2,sort=5,pow=fast,fuse=on,noise=fp32
  D=nlist=ballot,precision=double,rng=tea
  san memcheck mixed 1 $M; san memcheck double 1 $D; san racecheck mixed 0 $M; san racecheck double 0 $D
  timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 "$BIN/kernels_test" --gtest_color=no \
    --gtest_filter='CudaPrunedList.Overflow*:CudaPrunedList.FullRows*' > "$O/memcheck-tests.log" 2>&1
  stamp "memcheck tests rc=$? $(grep -E 'ERROR SUMMARY' "$O/memcheck-tests.log" | tail -1) $(counts "$O/memcheck-tests.log")"
  pack
fi
if part isolate; then
  # memcheck of trajectory_digest dpd-fluid N = 8192, 40 steps, for each name:graphs:variant:skin/inner
  # of ISOLATE (skin/inner empty: the workload's skin, no pruning)
  iso() {  # name graphs(1|0) tool|- variant skins...
    local f="$O/isolate-$1.log" pre="" v=$4
    [[ $3 == - ]] || pre="compute-sanitizer --tool $3 --error-exitcode 9"
    [ $2 = 0 ] && v=$v,graphs=off
    timeout 200 $pre "$BIN/trajectory_digest" dpd-fluid 8192 cuda "$v" 40 10 "${@:5}" > "$f" 2>&1
    stamp "isolate $1 rc=$? $(grep -E 'ERROR SUMMARY' "$f" | tail -1) $(grep 'step     40' "$f")"
  }
  for c in ${ISOLATE:-ballot-0.3:1:nlist=ballot,precision=double,rng=tea:}; do
    IFS=: read -r name graphs variant skins <<< "$c"
    iso $name $graphs memcheck $variant ${skins/\// }
  done
  pack
fi
# one WORKLOAD FILTER N PRECISION NAME SKIN INNER
one() {
  local f="$O/$1-$4-$3-$5"
  local params="--param N=$3"
  [[ $6 == - ]] || params="$params --param skin=$6 --param inner_skin=$7"
  "$MB" run --filter "$2" $params --max-n 100000000 --backend cuda --variant "precision=$4" \
    --repeats ${REPEATS:-5} --min-time 0.3 --warmup-time 0.3 --json "$f.json" > "$f.log" 2>&1
  stamp "$1 N=$3 $4 $5 rc=$? $(grep -E "^$1" "$f.log" | tail -1 | cut -c1-150)"
}
if part bench; then
  for r in $(seq 1 ${ROUNDS:-2}); do
    for p in ${PRECISIONS:-mixed double}; do
      for n in ${SIZES:-1048576}; do
        one dpd-fluid 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$' $n $p default-r$r - -
        for s in ${DPD_SKINS:-0.5:0.1 0.6:0.15 0.8:0.2}; do
          one dpd-fluid 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$' $n $p prune-${s/:/-}-r$r ${s%:*} ${s#*:}
        done
      done
      one lj-liquid 'lj-liquid/.*N=64000$' 64000 $p default-r$r - -
      for s in ${LJ_SKINS:-0.6:0.1 0.8:0.2 1.0:0.3}; do
        one lj-liquid 'lj-liquid/.*N=64000$' 64000 $p prune-${s/:/-}-r$r ${s%:*} ${s#*:}
      done
      pack
    done
  done
fi
pack
