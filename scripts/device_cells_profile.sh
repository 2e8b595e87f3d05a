#!/usr/bin/env bash
# Where a dpd-fluid step's time goes on one H200, by kernel (Nsight Compute's
# gpu__time_duration of every launch of a short run, summed per kernel), for the
# list kinds named in KINDS, and the TPS of nlist=cells over tpp. Builds the tree
# for sm_90 under /tmp/prof-build once (kept while the machine stays warm).
#   OUT=dir [KINDS="half cells"] [SIZES="rho3 rho8"] [TPPS="1 4 8"] scripts/device_cells_profile.sh
# Everything under $OUT/prof.tar.gz (one file: the transfer back is limited in count).
set -u
O=${OUT:?set OUT}; W=/tmp/prof-out; rm -rf $W; mkdir -p $W
stamp() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$W/status.txt"; }
trap 'tar -C $W -czf "$O/prof.tar.gz" .' EXIT
[[ -d .deps/re2 ]] && export PKG_CONFIG_PATH=$PWD/.deps/re2/lib/pkgconfig
export LD_LIBRARY_PATH="$PWD/.deps/re2/lib:${LD_LIBRARY_PATH:-}"
B=${BUILD:-/tmp/prof-build}
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
{ nvidia-smi -L; date -u; cat .carry/tree-hash 2>/dev/null; echo "ncu=$NCU"; } > "$W/device.txt" 2>&1
if [[ ! -x $B/bin/mesobench ]]; then
  cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DMESO_ENABLE_CUDA=ON -DMESO_REQUIRE_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 > "$W/build.log" 2>&1
  cmake --build $B -j 16 --target ${TARGETS:-mesobench kernels_test styles_gpu_test trajectory_digest} \
    >> "$W/build.log" 2>&1
  stamp "build rc=$?"
fi
[[ -n ${PRE:-} ]] && { eval "$PRE"; }
size_args() { case $1 in rho3) echo "--param N=1048576";; rho8) echo "--param N=1048576 --param rho=8";;
  rho8-4M) echo "--param N=4194304 --param rho=8";; rho3-4M) echo "--param N=4194304";;
  rho8-2M) echo "--param L=64 --param rho=8";; esac; }
F='dpd-fluid/.*/rho=3/rc=1/.*N=1048576$'
for s in ${SIZES:-rho3 rho8}; do
  for k in ${KINDS:-half cells}; do
    v=nlist=$k${EXTRA:+,$EXTRA}
    if [[ -n $NCU && ${NCU_ON:-1} == 1 ]]; then
      # shellcheck disable=SC2046
      what=(--metrics gpu__time_duration.sum --print-summary per-kernel)
      # NCU_SECTIONS: the pair kernel's first launch in detail (throughput, occupancy, stalls).
      [[ -n ${NCU_SECTIONS:-} ]] && what=(-k "regex:pair_force" --launch-count 1 $(printf -- '--section %s ' $NCU_SECTIONS))
      # shellcheck disable=SC2046
      timeout 120 env ${NCU_ENV:-} $NCU --clock-control none "${what[@]}" \
        "$B/bin/mesobench" run --filter "$F" $(size_args $s) --max-n 100000000 --backend cuda -q \
        --variant "$v" --steps ${NCU_STEPS:-20} > "$W/ncu-$s-$k.txt" 2>&1
      stamp "ncu $s $v rc=$?"
    fi
  done
  # BENCH: entries "variant" or "VAR=value+VAR=value@variant" (environment for that run).
  for entry in ${BENCH:-nlist=half nlist=cells nlist=cells,tpp=4 nlist=cells,tpp=8}; do
    envs=(); v=$entry
    if [[ $entry == *@* ]]; then v=${entry#*@}; IFS=+ read -ra envs <<< "${entry%@*}"; fi
    tag=${entry//[=,+@]/_}
    # shellcheck disable=SC2046
    timeout 40 env "${envs[@]}" "$B/bin/mesobench" run --filter "$F" $(size_args $s) --max-n 100000000 \
      --backend cuda -q --variant "$v" --repeats ${REPEATS:-3} --min-time 0.3 --warmup-time 0.2 \
      --json "$W/bench-$s-$tag.json" > "$W/bench-$s-$tag.log" 2>&1
    stamp "bench $s $entry rc=$? $(grep -A1 -E '^dpd-fluid' "$W/bench-$s-$tag.log" | tail -1 | cut -c40-100)"
  done
done
