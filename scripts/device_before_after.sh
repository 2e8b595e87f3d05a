#!/usr/bin/env bash
# The speed of a kernel change, before and after, in one device call: each case's default run
# with the binary before and the binary after, interleaved ROUNDS times (default 3) so that both
# see the same machine state, alone on the GPU. Writes tps-<case>-<before|after>-<round>.json
# under the output folder and prints scripts/before_after_tps.py's table (before_after.txt).
# Usage: scripts/device_before_after.sh <before mesobench> <after mesobench> <output dir>
#   [ROUNDS=n] [CASES="name:filter:param ..."] (param: one --param key=value, or empty)
set -u
BEF=$1 AFT=$2 O=$3
mkdir -p "$O"
# The defaults: dpd-fluid's and srd-fluid's cuda defaults at their benchmark sizes.
CASES=${CASES:-"dpd1M:^dpd-fluid/.*/rho=3/rc=1/:N=1048576 srd50:^srd-fluid/:L=50"}
for r in $(seq 1 "${ROUNDS:-3}"); do
  for c in $CASES; do
    IFS=: read -r name filter param <<< "$c"
    for side in before after; do
      bin=$BEF; [[ $side == after ]] && bin=$AFT
      timeout 60 "$bin" run --filter "$filter" ${param:+--param "$param"} --backend cuda -q \
        --repeats 3 --min-time 0.3 --warmup-time 0.2 --max-n 100000000 \
        --json "$O/tps-$name-$side-$r.json" > "$O/tps-$name-$side-$r.log" 2>&1 ||
        echo "$name $side round $r: rc=$?" >> "$O/failures.txt"
    done
  done
done
python3 "$(dirname "$0")/before_after_tps.py" "$O" | tee "$O/before_after.txt"
