#!/usr/bin/env bash
# polymer-srd and polymer-hydrodynamics on one GPU, in one call
# (results/showcases/README.md):
#   bench  Fig. 9 of Howard et al.: every polymer-srd case (SRD and the Langevin baseline,
#          16-1024 chains) in mixed and in double (PRECISIONS), REPEATS timed repeats
#   gate   the long form of validation/polymer-hydrodynamics as SHARDS processes side by side
#          on the GPU (its repeats are launch-bound and small), then --merge (GATE_ARGS:
#          --param ..., --variant, --seed); MPS=1 shares the GPU's SMs between the shards under
#          MPS (without it they time-slice: seven at once ran under 800 MD steps a second)
# The binaries come built (.carry/bins.tar.xz: mesobench), RE2 from .deps/.
# Usage: PARTS="bench gate" scripts/device_polymer.sh <output dir>
set -u
O=$1
PARTS=${PARTS:-bench gate}
. scripts/device_carried.sh
if part bench; then
  for p in ${PRECISIONS:-mixed double}; do
    timeout ${BENCH_TIMEOUT:-300} "$MB" run --filter "polymer-srd/${BENCH_FILTER:-}" --backend cuda \
      --variant precision=$p --repeats ${REPEATS:-5} --json "$O/bench-$p.json" > "$O/bench-$p.log" 2>&1
    stamp "bench $p rc=$?"
  done
fi
if part gate; then
  S=${SHARDS:-3}
  [[ ${MPS:-0} == 1 ]] && mps_start
  pids=()
  for ((i = 0; i < S; i++)); do
    timeout ${GATE_TIMEOUT:-540} "$MB" validate --filter polymer-hydrodynamics --long --backend cuda \
      --shard $i/$S ${GATE_ARGS:-} --json "$O/gate-shard$i.json" > "$O/gate-shard$i.log" 2>&1 &
    pids+=($!)
  done
  for ((i = 0; i < S; i++)); do
    wait ${pids[$i]}
    stamp "gate shard $i/$S rc=$?"
  done
  shards=()
  for ((i = 0; i < S; i++)); do shards+=("$O/gate-shard$i.json"); done
  "$MB" validate --filter polymer-hydrodynamics --long --merge "${shards[@]}" \
    --json "$O/polymer-hydrodynamics-long.json" > "$O/polymer-hydrodynamics-long.log" 2>&1
  stamp "gate merge rc=$? $(grep polymer-hydrodynamics "$O/polymer-hydrodynamics-long.log" | tail -1)"
  mps_stop
fi
