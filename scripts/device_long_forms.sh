#!/usr/bin/env bash
# Long forms of the validation cases on a multi-GPU host, as shards of their
# independent repeats (`mesobench validate --shard I/N`, joined later with
# `--merge`): one or more processes per GPU, every process under a deadline so
# that the whole command ends inside the device's 10-minute call limit.
#
#   scripts/device_long_forms.sh probe     <bin> <out>
#       TPS of the two long-form systems (poiseuille-transient's fluid at
#       N = 262144; nve-drift's LJ liquid at N = 5000) per variant.
#   scripts/device_long_forms.sh nve       <bin> <out> [modes] [precisions]
#       nve-drift long form: 8 shards (one repeat each) per mode and precision,
#       each stopping with --time-limit before the deadline (exit 3) when its
#       10^7 steps are not done. Run it again on the same <out> to go on: a
#       finished shard is kept, an incomplete one continues (--resume), a
#       missing one starts. The incomplete files (checkpoints, ~4 MB each) stay
#       on the machine, so repeat the call while the machine is still warm.
#       LONG_STEPS=N runs N NVE steps instead of 10^7 (e.g. 10^6, which one
#       H200 does for one precision's 16 shards in about 2 minutes).
#   scripts/device_long_forms.sh rigid     <bin> <out> [cases] [precisions]
#       nve-drift-rigid and nve-drift-rigid-ssd long forms (default precision mixed), 8 shards
#       each, as nve, with RIGID_VARIANT added (default nlist=tiled,tpp=32; 4 processes a GPU under MPS by
#       default).
#   scripts/device_long_forms.sh transient <bin> <out> <first> <last> <variant>
#       poiseuille-transient long form: shards first..last of 10 (one repeat
#       each), one per GPU.
# Environment: DEADLINE (seconds from start, default 570), PER_GPU (processes
# per GPU; default 12 with MPS, 2 without).
set -u
what=$1 B=$2 O=$3
shift 3
mkdir -p "$O"
start=$SECONDS
deadline=${DEADLINE:-570}
ngpu=$(nvidia-smi -L | wc -l)
nvidia-smi -L > "$O/gpus.txt"

# MPS lets the small nve-drift systems of several processes share a GPU's SMs
# at once (without it, processes time-slice). Fall back when it won't start.
mps=0
if [[ $what == nve || $what == rigid ]] && command -v nvidia-cuda-mps-control > /dev/null; then
  export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
  mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY
  if nvidia-cuda-mps-control -d && CUDA_VISIBLE_DEVICES=0 "$B/mesobench" run --backend cuda \
       --filter 'rho=3/rc=1/s=0.5/N=8192$' --repeats 1 --min-time 0.05 --warmup-time 0 > "$O/mps-check.txt" 2>&1; then
    mps=1
  else
    echo quit | nvidia-cuda-mps-control 2> /dev/null
    unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
  fi
fi
echo "gpus=$ngpu mps=$mps ($what, $(date -u +%FT%TZ))" | tee -a "$O/status.txt"

# unit <gpu> <name> <command...>: runs under the time left, logs its exit code.
# A "@LIMIT@" argument becomes the seconds left minus 20 (for --time-limit).
unit() {
  local gpu=$1 name=$2; shift 2
  local left=$((deadline - (SECONDS - start)))
  if ((left < 30)); then echo "$name skipped (no time left)" >> "$O/status.txt"; return; fi
  local args=("${@//@LIMIT@/$((left - 20))}")
  CUDA_VISIBLE_DEVICES=$gpu timeout "$left" "${args[@]}" > "$O/$name.txt" 2>&1
  echo "$name rc=$? $((SECONDS - start))s" >> "$O/status.txt"
}

# shards <per_gpu>: runs the 8-way shards in ${jobs[@]} ("<name> <filter> <precision> <shard>"),
# <per_gpu> processes a GPU, each under --time-limit; a finished shard file is kept, an
# incomplete one continues (--resume), a missing one starts.
shards() {
  local per_gpu=$1 i=0 j name filter p s f files=()
  for j in "${jobs[@]}"; do
    read -r name filter p s <<< "$j"
    f="$O/$name-$p-$s.json"
    files+=("$f")
    if [[ -f $f ]] && ! grep -q '"incomplete": true' "$f"; then continue; fi  # finished
    while (($(jobs -rp | wc -l) >= ngpu * per_gpu)); do wait -n; done
    if [[ -f $f ]]; then
      what_to_do=(validate --resume "$f")
    else
      what_to_do=(validate --backend cuda --long --filter "$filter" --variant "precision=$p$VARIANT_EXTRA" --shard "$s/8")
      [[ -n ${LONG_STEPS:-} ]] && what_to_do+=(--param "long_steps=$LONG_STEPS")
    fi
    unit $((i % ngpu)) "$name-$p-$s" "$B/mesobench" "${what_to_do[@]}" --time-limit @LIMIT@ --json "$f" &
    i=$((i + 1))
  done
  wait
  echo "finished shards: $(grep -L '"incomplete": true' "${files[@]}" 2> /dev/null | wc -l) of ${#jobs[@]}" \
    >> "$O/status.txt"
}

case $what in
probe)
  R="--backend cuda --repeats 3 --min-time 0.5 --warmup-time 0.3"
  fluid=(--filter 'dpd-fluid/step/.*/rho=3/rc=1/s=0.5/N=262144$' --param rho=5 --param a=15 --param gamma=4.5
         --param s=1 --param kT=1 --param dt=0.01 --param skin=0.3 --param integrator=vv)
  i=0
  for v in "" "reorder=morton2,sort=100" "reorder=morton2,sort=100,pow=fast,fuse=on"; do
    unit $((i % ngpu)) "probe-transient-$i" "$B/mesobench" run $R "${fluid[@]}" --variant "$v" &
    i=$((i + 1))
  done
  unit $((3 % ngpu)) probe-nve "$B/mesobench" run $R --filter lj-liquid --param N=5000 --param rho=0.4 \
    --param rc=2.5 --param kT=1 --param integrator=nve --param skin=0.4 --variant precision=mixed &
  wait
  ;;
nve)
  modes=${1:-"shift xplor"} precs=${2:-"double mixed single"}
  VARIANT_EXTRA=
  jobs=()
  for mode in $modes; do for p in $precs; do for s in 0 1 2 3 4 5 6 7; do
    jobs+=("nve-$mode nve-drift-$mode $p $s")
  done; done; done
  shards ${PER_GPU:-$((mps ? 12 : 2))}
  ;;
rigid)
  cases=${1:-"nve-drift-rigid nve-drift-rigid-ssd"} precs=${2:-mixed}
  # 32 lanes a particle: at these small N the step is latency-bound; 16 shards side by side ran
  # 4,160-4,344 steps a second each against 1,539 with the workloads' tpp=8 (one H200).
  # The tiled lists: one process at N = 1000 (512 for water) ran 20,077 (20,736) steps a second
  # with nlist=tiled,tpp=32 against 14,717 (15,355) with the ballot lists the committed long forms
  # ran (results/orientation/tune-tpp-h200); the same pairs.
  VARIANT_EXTRA=,${RIGID_VARIANT:-nlist=tiled,tpp=32}
  jobs=()
  for c in $cases; do for p in $precs; do for s in 0 1 2 3 4 5 6 7; do
    jobs+=("$c ^$c\$ $p $s")
  done; done; done
  shards ${PER_GPU:-$((mps ? 4 : 2))}
  ;;
transient)
  first=$1 last=$2 variant=$3
  for s in $(seq "$first" "$last"); do
    unit $(((s - first) % ngpu)) "transient-$s" "$B/mesobench" validate --backend cuda --long \
      --filter poiseuille-transient --variant "$variant" --shard "$s/10" --json "$O/transient-$s.json" &
  done
  wait
  ;;
esac
((mps)) && echo quit | nvidia-cuda-mps-control
echo "done $((SECONDS - start))s" >> "$O/status.txt"
