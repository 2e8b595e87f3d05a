#!/usr/bin/env bash
# The walls' device call on one H200 (issue 59), with a mesobench built on the workstation for
# sm_90 and carried in .carry/bins.tar.xz (no build on the device). PARTS picks, in order:
#   cost   dpd-channel against dpd-fluid at the same N (262,144 and about 1M), srd-channel
#          against srd-fluid at the same L (50 and 100): the default variants, and dpd-channel
#          with dpd-fluid's mixed default axes (fuse=off: the wall force follows the pair
#          kernel); medians of 3, one process at a time, nothing else on the GPU
#   long   the long forms of dpd-slit-poiseuille and srd-slit-poiseuille on the GPU, seed 1 (the
#          harness's seed, stated in their READMEs): double and mixed, and dpd-slit-poiseuille
#          with dpd-fluid's mixed default axes; side by side, after the cost runs
# Everything under $OUT/walls.tar.gz (status.txt: a line a part).
# Usage: OUT=dir [LIMIT=s] [PARTS="cost long"] [LONGS="gate:double|mixed|fast ..."]
#   scripts/device_walls.sh
set -u
R=${OUT:?set OUT}
O=/tmp/walls-out; rm -rf "$O"; mkdir -p "$O"
trap 'tar -C "$O" -czf "$R/walls.tar.gz" .' EXIT
T0=$(date +%s) LIMIT=${LIMIT:-540} PARTS=${PARTS:-cost long}
stamp() { echo "$(date -u +%H:%M:%S) +$(( $(date +%s) - T0 ))s $*" | tee -a "$O/status.txt"; }
export LD_LIBRARY_PATH="$PWD/.deps/re2/lib:${LD_LIBRARY_PATH:-}"
B=/tmp/walls-bin; mkdir -p $B; tar -C $B -xJf .carry/bins.tar.xz
M=$B/mesobench
{ nvidia-smi -L; date -u; $M --version; cat .carry/tree-hash 2>/dev/null; } > "$O/device.txt" 2>&1
FAST=precision=mixed,nlist=half,reorder=morton2,sort=100,pow=fast,fuse=off,noise=fp32
bench() {  # name filter params...
  local name=$1 filter=$2; shift 2
  timeout 120 $M run --filter "$filter" --backend cuda -q --repeats 3 --min-time 0.3 \
    --warmup-time 0.2 --max-n 100000000 "$@" --json "$O/cost-$name.json" > "$O/cost-$name.log" 2>&1
  stamp "cost $name rc=$?"
}
if [[ " $PARTS " == *" cost "* ]]; then
  F='^dpd-fluid/.*/rho=3/rc=1/'
  for n in 262144:44.3751 1048576:70.4; do
    bench dpd-fluid-${n%%:*} "$F" --param N=${n%%:*}
    bench dpd-channel-${n%%:*} '^dpd-channel/' --param L=${n##*:}
    bench dpd-channel-${n%%:*}-fast '^dpd-channel/' --param L=${n##*:} --variant $FAST
  done
  for L in 50 100; do
    bench srd-fluid-L$L '^srd-fluid/' --param L=$L
    bench srd-channel-L$L '^srd-channel/' --param L=$L
  done
fi
long() {  # gate tag variant
  timeout $(( LIMIT - ($(date +%s) - T0) - 20 )) $M validate --filter "^$1\$" --long --backend cuda \
    --variant $3 --seed 1 -q --json "$O/$1-long-$2.json" > "$O/$1-long-$2.log" 2>&1
  stamp "long $1 $2 rc=$?"
}
if [[ " $PARTS " == *" long "* ]]; then
  for run in ${LONGS:-dpd-slit-poiseuille:double srd-slit-poiseuille:double dpd-slit-poiseuille:mixed \
                    srd-slit-poiseuille:mixed dpd-slit-poiseuille:fast}; do
    tag=${run##*:}; var=precision=$tag; [[ $tag == fast ]] && var=$FAST
    long ${run%%:*} $tag $var &
  done
  wait
fi
stamp "done"
