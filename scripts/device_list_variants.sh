#!/usr/bin/env bash
# Dynamic pruning and cluster-pair lists against N and under Nsight Compute, on one GPU, in one
# call (results/cuda-dpd/prune/ and cluster/ hold the N = 1M figures and the tests):
#   sweep  dpd-fluid rho = 3 at each N of SIZES (default 65536 262144 4194304), in mixed and
#          double: the default, pruning (skin 0.6, inner_skin 0.15) and nlist=cluster (Hilbert
#          order at every rebuild), one after the other
#   ncu    Nsight Compute (SpeedOfLight, Occupancy, WarpStateStats, MemoryWorkloadAnalysis) of
#          one launch at N = 1M, mixed: the prune kernel, the cluster search (the build) and the
#          cluster force kernel, host-driven (graphs=off: ncu does not profile
#          kernels inside conditional nodes)
# The binaries come built (.carry/bins.tar.xz: mesobench), RE2 from .deps/. Outputs are packed
# into $OUT/lists-<dir>.tgz.
# Usage: PARTS="sweep ncu" scripts/device_list_variants.sh <output dir>
set -u
O=$1
PARTS=${PARTS:-sweep ncu}
. scripts/device_carried.sh
pack() { tar czf "$OUT/lists-$(basename "$O").tgz" -C "$O" . 2>/dev/null || true; }
F='dpd-fluid/.*/rho=3/rc=1/.*N=1048576$'
CLUSTER=nlist=cluster,reorder=hilbert,sort=0
PRUNE="--param skin=0.6 --param inner_skin=0.15"
if part sweep; then
  for n in ${SIZES:-65536 262144 4194304}; do
    for p in mixed double; do
      for c in "default||" "prune||$PRUNE" "cluster|,$CLUSTER|"; do
        IFS='|' read -r name v extra <<< "$c"
        f="$O/dpd-fluid-$p-$n-$name"
        timeout 60 "$MB" run --filter "$F" --param N=$n $extra --max-n 100000000 --backend cuda \
          --variant "precision=$p$v" --repeats 5 --min-time 0.3 --warmup-time 0.3 --json "$f.json" > "$f.log" 2>&1
        stamp "dpd-fluid N=$n $p $name rc=$?"
      done
    done
    pack
  done
fi
if part ncu; then
  NCU=ncu; command -v $NCU > /dev/null || NCU=/usr/local/cuda/bin/ncu
  $NCU --version > "$O/ncu-version.txt" 2>&1
  prof() {  # prof <name> <kernel regex> <variant> [mesobench arguments]
    timeout 90 $NCU --clock-control none --section SpeedOfLight --section Occupancy \
      --section MemoryWorkloadAnalysis --section WarpStateStats -k "regex:$2" --launch-skip 3 --launch-count 1 \
      --export "$O/ncu-$1" "$MB" run --backend cuda --filter "$F" --repeats 1 --min-time 0.01 --warmup-time 0 \
      --variant "$3,graphs=off" "${@:4}" > "$O/ncu-$1.log" 2>&1
    stamp "ncu $1 rc=$?"
    $NCU --import "$O/ncu-$1.ncu-rep" --print-details all > "$O/ncu-$1.txt" 2>&1
    rm -f "$O/ncu-$1.ncu-rep"
  }
  prof prune prune_kernel precision=mixed $PRUNE
  prof cluster-search cluster_search_kernel precision=mixed,$CLUSTER
  prof cluster-force cluster_pair_force_kernel precision=mixed,$CLUSTER
  pack
fi
pack
