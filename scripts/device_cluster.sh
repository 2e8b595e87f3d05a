#!/usr/bin/env bash
# Cluster-pair lists (nlist=cluster) on one GPU, in one call (results/cuda-dpd/cluster/):
#   tests     kernels_test's CudaClusterList.* and styles_gpu_test's CudaLj.* first, then every one-GPU test
#   sanitize  compute-sanitizer memcheck (step graphs) and racecheck (graphs=off) of 40
#             steps of dpd-fluid N = 8192 (mixed, Hilbert order every rebuild; double, TEA, Morton
#             every 5) and lj-liquid N = 4000 (mixed) on cluster rows (trajectory_digest)
#   bench     dpd-fluid N = 1M and lj-liquid N = 64000 in mixed and double (PRECISIONS): the
#             default, then each variant of DPD_VARIANTS / LJ_VARIANTS over it, alternated ROUNDS
#             times (the JSON holds each kernel's time)
# The binaries come built (BINS, default .carry/bins.tar.xz: mesobench, kernels_test,
# trajectory_digest), RE2 from .deps/. Outputs are packed into $OUT/cluster-<dir>.tgz.
# Usage: PARTS="tests sanitize bench" scripts/device_cluster.sh <output dir>
set -u
O=$1
PARTS=${PARTS:-tests sanitize bench}
. scripts/device_carried.sh
pack() { tar czf "$OUT/cluster-$(basename "$O").tgz" -C "$O" . 2>/dev/null || true; }
if part tests; then
  timeout 300 "$BIN/kernels_test" --gtest_color=no --gtest_filter='CudaClusterList.*' \
    > "$O/cluster-tests.log" 2>&1
  stamp "CudaClusterList.* rc=$? $(counts "$O/cluster-tests.log")"
  timeout ${KERNELS_TIMEOUT:-400} "$BIN/kernels_test" --gtest_color=no > "$O/kernels-test.log" 2>&1
  stamp "kernels_test rc=$? $(counts "$O/kernels-test.log")"
  pack
fi
if part sanitize; then
  san() {  # tool name graphs(1|0) workload N variant
    local v=$6; [ $3 = 0 ] && v=$v,graphs=off
    timeout 200 compute-sanitizer --tool $1 --error-exitcode 9 \
      "$BIN/trajectory_digest" $4 $5 cuda "$v" 40 10 > "$O/sanitizer-$1-$2.log" 2>&1
    stamp "sanitizer $1 $2 graphs=$3 rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$O/sanitizer-$1-$2.log" | tail -1)"
  }
  M=nlist=cluster,precision=mixed,reorder=hilbert,sort=0,pow=fast,fuse=on,noise=fp32
  D=nlist=cluster,precision=double,reorder=morton2,sort=0,rng=tea
  L=nlist=cluster,tpp=1,precision=mixed,reorder=hilbert,sort=0
  for t in "memcheck 1" "racecheck 0"; do
    set -- $t
    san $1 dpd-mixed $2 dpd-fluid 8192 $M; san $1 dpd-double $2 dpd-fluid 8192 $D; san $1 lj-mixed $2 lj-liquid 4000 $L
  done
  pack
fi
# one WORKLOAD FILTER N PRECISION NAME VARIANT
one() {
  local f="$O/$1-$4-$3-$5"
  "$MB" run --filter "$2" --param N=$3 --max-n 100000000 --backend cuda --variant "precision=$4${6:+,$6}" \
    --repeats ${REPEATS:-5} --min-time 0.3 --warmup-time 0.3 --json "$f.json" > "$f.log" 2>&1
  stamp "$1 N=$3 $4 $5 rc=$? $(grep -E "^$1" "$f.log" | tail -1 | cut -c1-150)"
}
if part bench; then
  for r in $(seq 1 ${ROUNDS:-2}); do
    for p in ${PRECISIONS:-mixed double}; do
      one dpd-fluid 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$' 1048576 $p default-r$r ""
      for v in ${DPD_VARIANTS:-nlist=cluster,sort=0 nlist=cluster,reorder=hilbert,sort=0}; do
        one dpd-fluid 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$' 1048576 $p "${v//[=,]/-}-r$r" $v
      done
      one lj-liquid 'lj-liquid/.*N=64000$' 64000 $p default-r$r ""
      for v in ${LJ_VARIANTS:-nlist=cluster,tpp=1,sort=0 nlist=cluster,tpp=1,reorder=hilbert,sort=0}; do
        one lj-liquid 'lj-liquid/.*N=64000$' 64000 $p "${v//[=,]/-}-r$r" $v
      done
      pack
    done
  done
fi
pack
