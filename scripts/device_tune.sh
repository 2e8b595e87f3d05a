#!/usr/bin/env bash
# The autotuner on one GPU, in one call (results/cuda-dpd/tune/README.md): `mesobench tune`
# over dpd-fluid at N = 262144 and 1M in mixed and at 1M in double, and lj-liquid at 64000 in
# mixed, into $O/tune.json; then dpd-fluid at 262144 and 1M in mixed by default and with
# --tuned, one after the other, REPEATS timed repeats each. The binaries come built
# (.carry/bins.tar.xz: mesobench), RE2 from .deps/.
# Usage: scripts/device_tune.sh <output dir>
set -u
O=$1
PARTS=""
. scripts/device_carried.sh
D='dpd-fluid/.*/rho=3/rc=1/.*N=1048576$'
T=${TUNE_TIME:-30}
for args in "--param N=262144" "" "--variant precision=double"; do
  "$MB" tune --backend cuda --filter "$D" --max-n 100000000 $args --tune-time $T -q -o "$O/tune.json" \
    >> "$O/tune.log" 2>&1
  stamp "tune dpd-fluid $args rc=$?"
done
"$MB" tune --backend cuda --filter 'lj-liquid/.*N=64000$' --tune-time $T -q -o "$O/tune.json" >> "$O/tune.log" 2>&1
stamp "tune lj-liquid rc=$?"
for n in 262144 1048576; do
  for how in default tuned; do
    extra=(); [ $how = tuned ] && extra=(--tuned "$O/tune.json")
    "$MB" run --backend cuda --filter "$D" --param N=$n --max-n 100000000 "${extra[@]}" --repeats ${REPEATS:-5} \
      --min-time 0.3 --warmup-time 0.3 -q --json "$O/dpd-mixed-$n-$how.json" > "$O/dpd-mixed-$n-$how.log" 2>&1
    stamp "dpd-fluid N=$n mixed $how rc=$? $(grep -E ' cuda +[0-9]+ ' "$O/dpd-mixed-$n-$how.log" | tail -1)"
  done
done
tar czf "$OUT/tune.tgz" -C "$O" .
