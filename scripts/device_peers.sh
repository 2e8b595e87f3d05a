#!/usr/bin/env bash
# The peers on one GPU machine, in one call (issue 58; docs/benchmarks.md#peers): the
# suite's dpd-fluid (rho 3, N = 262144) and lj-liquid (N = 64000) cases
#   ours     mesobench on the GPU (mixed: OpenMM's default precision) and on the CPU
#            reference, all cores; the GPU run's final state is the peers' checks' reference
#   openmm   OpenMM's CUDA platform, mixed (scripts/peers/openmm_peer.py)
#   lammps   LAMMPS on the CPU, one rank, all cores as OpenMP threads (lammps_peer.py)
# and, last, OpenMM's dpd-fluid at 1M particles (it crashed there once), with a timeout on
# each and LIMIT (default 330 s) on the whole, so that it stays under 6 minutes; each step's exit status
# is stamped into status.txt. The binaries come built (.carry/bins.tar.xz: mesobench), RE2
# from .deps/re2, the peers from .deps/peers (scripts/peer_deps.sh), installed with no
# network into $SITE (default /tmp/peers-site). Everything lands in $O and in one
# file, $OUT/peers.tar (the transfer back takes few files). What travels must stay under
# 64 MiB: the tree (14 MiB), .deps (32 MiB) and .carry/bins.tar.xz holding mesobench alone
# (13 MiB for an sm_90 build): carry ".deps" and ".carry/bins.tar.xz".
# PEERS_PARAM=key=value passes one --param to every run (PEERS_PARAM=N=500: a dry run of the
# plumbing on a small machine).
# Usage: scripts/device_peers.sh [output dir, default /tmp/peers]
set -u
O=${1:-/tmp/peers}
PARTS=""
. scripts/device_carried.sh
SITE=${SITE:-/tmp/peers-site}
pack() { tar cf "${OUT:-$O}/peers.tar" -C "$O" . 2>/dev/null || true; }
trap pack EXIT
[[ -d .deps/peers ]] || stamp "no .deps/peers here: run scripts/peer_deps.sh and carry .deps (the peers fail)"
python3 -m pip install -q --no-index --no-deps --no-compile --target "$SITE" \
  --find-links .deps/peers/wheels openmm openmm-cuda-13 > "$O/install.log" 2>&1
stamp "pip install openmm openmm-cuda-13 rc=$?"
mkdir -p "$SITE" && tar xJf .deps/peers/lammps.tar.xz -C "$SITE"
stamp "unpack lammps rc=$?"
# openmm-cuda-13 finds cuFFT 12 and NVRTC 13 in ../../../nvidia/cu13/lib from its plugins
# (site-packages/nvidia, where the nvidia-* wheels install): the image's, PyTorch's.
nv=$(python3 -c 'import nvidia, os; print(os.path.realpath(list(nvidia.__path__)[0]))' 2> /dev/null)
[[ -n $nv && ! -e $SITE/nvidia ]] && ln -s "$nv" "$SITE/nvidia"
cudalibs=$(find -L "$SITE/nvidia" -name 'libcufft.so.12*' -o -name 'libnvrtc.so.13*' 2> /dev/null |
  xargs -r -n1 dirname | sort -u | paste -sd:)
export PYTHONPATH=$SITE LD_LIBRARY_PATH="$SITE/mpich-lib:${cudalibs:+$cudalibs:}$LD_LIBRARY_PATH"
python3 - > "$O/engines.txt" 2>&1 <<'PY'
import openmm, lammps
print("OpenMM", openmm.version.full_version, "platforms:",
      [openmm.Platform.getPlatform(i).getName() for i in range(openmm.Platform.getNumPlatforms())])
print("OpenMM plugin load failures:", openmm.Platform.getPluginLoadFailures())
lmp = lammps.lammps(cmdargs=["-log", "none", "-screen", "none", "-nocite"])
print("LAMMPS", lmp.version(), "OPENMP:", lmp.has_package("OPENMP"))
PY
stamp "engines rc=$? $(tr '\n' ' ' < "$O/engines.txt" | cut -c1-300)"
F='dpd-fluid/.*/rho=3/rc=1/s=0.5/N=262144$|lj-liquid/.*N=64000$'
D='dpd-fluid/.*/rho=3/rc=1/s=0.5/N=262144$'
L='lj-liquid/.*N=64000$'
X=(${PEERS_PARAM:+--param "$PEERS_PARAM"})
# limit S: a step's timeout, S seconds or what is left of LIMIT (default 330 s) for the whole
# script, whichever is less; a step with under 10 s left is not started (rc 124).
limit() { local left=$(( ${LIMIT:-330} - SECONDS )); (( left < $1 )) && echo $(( left > 10 ? left : 1 )) || echo "$1"; }
R=(--repeats 5 --min-time 0.3 --warmup-time 0.3 "${X[@]}")
timeout "$(limit 60)" "$MB" run --backend cuda --filter "$F" --variant precision=mixed "${R[@]}" \
  --json "$O/mesobench-cuda.json" > "$O/mesobench-cuda.log" 2>&1
stamp "mesobench cuda rc=$?"
ref=(); [[ -s $O/mesobench-cuda.json ]] && ref=(--reference "$O/mesobench-cuda.json")
timeout "$(limit 100)" python3 scripts/peers/openmm_peer.py --mesobench "$MB" --filter "$F" --platform CUDA \
  --precision mixed "${X[@]}" "${ref[@]}" -o "$O/openmm-cuda.json" > "$O/openmm-cuda.log" 2>&1
stamp "openmm CUDA rc=$? $(grep -c ' TPS ' "$O/openmm-cuda.log") timed"
# LAMMPS on the CPU: DPD settles within a few hundred steps (gamma = 4.5), so fewer
# untimed steps at 262144 particles; the LJ liquid starts from a lattice and keeps 2000.
lmp=(--mesobench "$MB" --cpu-threads "$(nproc)" --repeats 3 --min-time 0.5 "${X[@]}" "${ref[@]}")
timeout "$(limit 80)" python3 scripts/peers/lammps_peer.py "${lmp[@]}" --filter "$D" --equilibrate-steps 300 \
  -o "$O/lammps-cpu-dpd.json" > "$O/lammps-cpu-dpd.log" 2>&1
stamp "lammps dpd-fluid rc=$?"
timeout "$(limit 50)" python3 scripts/peers/lammps_peer.py "${lmp[@]}" --filter "$L" -o "$O/lammps-cpu-lj.json" \
  > "$O/lammps-cpu-lj.log" 2>&1
stamp "lammps lj-liquid rc=$?"
timeout "$(limit 45)" "$MB" run --backend cpu --filter "$F" --variant reorder=cell --repeats 3 --min-time 1 --warmup-time 0.5 \
  "${X[@]}" --json "$O/mesobench-cpu.json" > "$O/mesobench-cpu.log" 2>&1
stamp "mesobench cpu rc=$?"
# OpenMM's DPD crashed at 1M particles once (issue 58): whether it runs now, last.
if [[ -z ${PEERS_PARAM:-} ]]; then
  timeout "$(limit 60)" python3 scripts/peers/openmm_peer.py --mesobench "$MB" \
    --filter 'dpd-fluid/.*/rho=3/rc=1/s=0.5/N=1048576$' --platform CUDA --precision mixed \
    -o "$O/openmm-cuda-dpd-1M.json" > "$O/openmm-cuda-dpd-1M.log" 2>&1
  stamp "openmm CUDA dpd-fluid 1M rc=$?"
fi
stamp "done in ${SECONDS} s"
grep -h -E 'TPS \(median|not run in' "$O"/openmm-*.log "$O"/lammps-*.log | cut -c1-160
