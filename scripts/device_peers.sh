#!/usr/bin/env bash
# The peers on one GPU machine, in one call (issue 58; docs/benchmarks.md#peers): the
# suite's dpd-fluid (rho 3, N = 262144), lj-liquid (N = 64000) and srd-fluid (L = 50) cases
#   ours     mesobench on the GPU (mixed: OpenMM's default precision) and on the CPU
#            reference, all cores; then, on the GPU, the final frames the peers' g(r) is
#            checked against (run --steps --trajectory) and the SRD viscosity at 90 degrees
#            (validate srd-viscosity --param angle=90, LAMMPS's rotation)
#   openmm   OpenMM's CUDA platform, mixed (scripts/peers/openmm_peer.py), one process a
#            case (lj-liquid first), so that one that hangs cannot take the other's time
#   lammps   LAMMPS on the CPU, one rank, all cores as OpenMP threads (lammps_peer.py);
#            its SRD on one core (lammps_srd_peer.py: the closest case and its viscosity)
# and, last, OpenMM's dpd-fluid at 1M particles (it crashed there thrice), with a timeout on
# each and LIMIT (default 450 s) on the whole, so that it stays under 8 minutes; each step's
# exit status is stamped into status.txt. The binaries come built (.carry/bins.tar.xz:
# mesobench), RE2 from .deps/re2, the peers from .deps/peers (scripts/peer_deps.sh),
# installed with no network into $SITE (default /tmp/peers-site). Everything lands in $O
# and in one file, $OUT/peers.tar (the transfer back takes few files); the frames (40 MB)
# stay in $FRAMES (default /tmp/peers-frames), out of it. What travels must stay under
# 64 MiB: the tree (14 MiB), .deps (32 MiB) and .carry/bins.tar.xz holding mesobench alone
# (13 MiB for an sm_90 build): carry ".deps" and ".carry/bins.tar.xz".
# PEERS_PARAM=key=value passes one --param to every dpd and lj run (PEERS_PARAM=N=500: a
# dry run of the plumbing on a small machine; SRD then runs its L=10 case); PEERS_PLATFORM=CPU
# runs OpenMM's dpd and lj cases on its CPU platform (a dry run without a GPU).
# PEERS_ONLY=ERE runs only the steps whose status.txt names match it, and the diagnoses of
# OpenMM's DPD at 1M ("diagnose ...", at the end) only when it names them: OpenMM's LJ liquid
# with what it is checked against and the diagnoses, in about a minute:
#   PEERS_ONLY='^(mesobench cuda|mesobench frame lj-liquid|openmm CUDA lj-liquid|diagnose .*)$'
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
S='srd-fluid/.*L=50$'
X=(${PEERS_PARAM:+--param "$PEERS_PARAM"})
# A dry run (PEERS_PARAM set) also shortens both viscosity runs and runs SRD at L = 10.
V=() VL=() FD=4000 FL=10000
[[ -n ${PEERS_PARAM:-} ]] && S='srd-fluid/.*L=10$' V=(--param production=20) FD=400 FL=1000 \
  VL=(--viscosity-time 100 --viscosity-blocks 4)
FR=${FRAMES:-/tmp/peers-frames}
mkdir -p "$FR"
# limit S: a step's timeout, S seconds or what is left of LIMIT (default 450 s) for the whole
# script, whichever is less; a step with under 10 s left is not started (rc 124).
limit() { local left=$(( ${LIMIT:-450} - SECONDS )); (( left < $1 )) && echo $(( left > 10 ? left : 1 )) || echo "$1"; }
# want NAME: whether the step NAME (as status.txt stamps it) runs: with PEERS_ONLY unset,
# every step but the diagnoses; else those whose names match PEERS_ONLY (an ERE).
want() { if [[ -n ${PEERS_ONLY:-} ]]; then [[ $1 =~ $PEERS_ONLY ]]; else [[ $1 != diagnose* ]]; fi; }
R=(--repeats 5 --min-time 0.3 --warmup-time 0.3)
if want "mesobench cuda"; then
  timeout "$(limit 60)" "$MB" run --backend cuda --filter "$F" --variant precision=mixed "${R[@]}" "${X[@]}" \
    --json "$O/mesobench-cuda.json" > "$O/mesobench-cuda.log" 2>&1
  stamp "mesobench cuda rc=$?"
fi
if want "mesobench cuda srd-fluid"; then
  timeout "$(limit 30)" "$MB" run --backend cuda --filter "$S" "${R[@]}" --json "$O/mesobench-cuda-srd.json" \
    > "$O/mesobench-cuda-srd.log" 2>&1
  stamp "mesobench cuda srd-fluid rc=$?"
fi
# The reference frames: 20 tau of the DPD fluid from its random start, 50 tau of the LJ
# liquid (the timed runs above end near 40 and 85 tau); the last frame is the reference.
if want "mesobench frame dpd-fluid"; then
  timeout "$(limit 30)" "$MB" run --backend cuda --filter "$D" --variant precision=mixed "${X[@]}" --steps $FD \
    --every $FD --trajectory "$FR/ours-dpd.h5md" --quiet > "$O/mesobench-frames.log" 2>&1
  stamp "mesobench frame dpd-fluid rc=$?"
fi
if want "mesobench frame lj-liquid"; then
  timeout "$(limit 30)" "$MB" run --backend cuda --filter "$L" --variant precision=mixed "${X[@]}" --steps $FL \
    --every $FL --trajectory "$FR/ours-lj.h5md" --quiet >> "$O/mesobench-frames.log" 2>&1
  stamp "mesobench frame lj-liquid rc=$?"
fi
# Our viscosity at LAMMPS's rotation, 90 degrees (the gate compares with the 130-degree
# theory and fails: exit 1 is expected; the measured eta and its SE are what is read).
if want "mesobench srd-viscosity angle=90"; then
  timeout "$(limit 60)" "$MB" validate --backend cuda --filter '^srd-viscosity$' --param angle=90 "${V[@]}" \
    --json "$O/mesobench-srd-viscosity-90.json" > "$O/mesobench-srd-viscosity-90.log" 2>&1
  stamp "mesobench srd-viscosity angle=90 rc=$? (1 expected: the 130-degree gate)"
fi
ref=(); [[ -s $O/mesobench-cuda.json ]] && ref=(--reference "$O/mesobench-cuda.json")
for f in "$FR"/ours-dpd.h5md "$FR"/ours-lj.h5md; do [[ -s $f ]] && ref+=(--reference-frame "$f"); done
# OpenMM: a process a case, the LJ liquid first; untimed steps that would take over 40 s are
# given up with their rate as the reason, and a phase 20 s past its plan is stopped by the
# driver's watchdog with every thread's stack (exit 3; the log and the JSON say where).
omm=(--mesobench "$MB" --platform "${PEERS_PLATFORM:-CUDA}" --precision mixed --max-equilibrate-seconds 40
     --phase-seconds 20 --frames "$FR" "${X[@]}" "${ref[@]}")
if want "openmm CUDA lj-liquid"; then
  timeout "$(limit 60)" python3 scripts/peers/openmm_peer.py "${omm[@]}" --filter "$L" -o "$O/openmm-cuda-lj.json" \
    > "$O/openmm-cuda-lj.log" 2>&1
  stamp "openmm CUDA lj-liquid rc=$? $(grep -c ' TPS ' "$O/openmm-cuda-lj.log") timed"
fi
if want "openmm CUDA dpd-fluid"; then
  timeout "$(limit 90)" python3 scripts/peers/openmm_peer.py "${omm[@]}" --filter "$D" -o "$O/openmm-cuda-dpd.json" \
    > "$O/openmm-cuda-dpd.log" 2>&1
  stamp "openmm CUDA dpd-fluid rc=$? $(grep -c ' TPS ' "$O/openmm-cuda-dpd.log") timed"
fi
# LAMMPS on the CPU: DPD settles within a few hundred steps (gamma = 4.5), so fewer
# untimed steps at 262144 particles; the LJ liquid starts from a lattice and keeps 2000.
lmp=(--mesobench "$MB" --cpu-threads "$(nproc)" --repeats 3 --min-time 0.5 --frames "$FR" "${X[@]}" "${ref[@]}")
if want "lammps dpd-fluid"; then
  timeout "$(limit 100)" python3 scripts/peers/lammps_peer.py "${lmp[@]}" --filter "$D" --equilibrate-steps 400 \
    -o "$O/lammps-cpu-dpd.json" > "$O/lammps-cpu-dpd.log" 2>&1
  stamp "lammps dpd-fluid rc=$?"
fi
if want "lammps lj-liquid"; then
  timeout "$(limit 50)" python3 scripts/peers/lammps_peer.py "${lmp[@]}" --filter "$L" -o "$O/lammps-cpu-lj.json" \
    > "$O/lammps-cpu-lj.log" 2>&1
  stamp "lammps lj-liquid rc=$?"
fi
eta=$O/mesobench-srd-viscosity-90.json
[[ -s $eta ]] && VL+=(--ours-viscosity "$eta")
if want "lammps srd-fluid"; then
  timeout "$(limit 100)" python3 scripts/peers/lammps_srd_peer.py --mesobench "$MB" --filter "$S" "${VL[@]}" \
    -o "$O/lammps-cpu-srd.json" > "$O/lammps-cpu-srd.log" 2>&1
  stamp "lammps srd-fluid rc=$?"
fi
if want "mesobench cpu"; then
  timeout "$(limit 50)" "$MB" run --backend cpu --filter "$F|$S" --variant reorder=cell --repeats 3 --min-time 1 \
    --warmup-time 0.5 "${X[@]}" --json "$O/mesobench-cpu.json" > "$O/mesobench-cpu.log" 2>&1
  stamp "mesobench cpu rc=$?"
fi
# OpenMM's DPD crashed at 1M particles three times (CUDA_ERROR_ILLEGAL_ADDRESS in its first
# steps, after its context was ready; issue 58): whether it runs now, last.
M='dpd-fluid/.*/rho=3/rc=1/s=0.5/N=1048576$'
om1=(--mesobench "$MB" --filter "$M" --platform CUDA --precision mixed --max-equilibrate-seconds 30 --phase-seconds 20)
if [[ -z ${PEERS_PARAM:-} ]] && want "openmm CUDA dpd-fluid 1M"; then
  timeout "$(limit 60)" python3 scripts/peers/openmm_peer.py "${om1[@]}" -o "$O/openmm-cuda-dpd-1M.json" \
    > "$O/openmm-cuda-dpd-1M.log" 2>&1
  stamp "openmm CUDA dpd-fluid 1M rc=$?"
fi
# Its diagnoses, run only when PEERS_ONLY names them. "lattice": the fluid from a lattice
# start (if it runs, the random start is what breaks it, and 1M can be measured from a
# lattice); "memcheck": compute-sanitizer names the kernel and the address (10 steps from
# the random start; mesobench, which gives the case's definitions, left out). Both ran on
# an H200 (results/peers/h200-2026-11-29c/): the lattice start fails too, and memcheck
# names a 12-byte read one particle past the positions in OpenMM's integrateDPDPart2.
if [[ -z ${PEERS_PARAM:-} ]] && want "diagnose openmm dpd-fluid 1M lattice"; then
  timeout "$(limit 30)" python3 scripts/peers/openmm_peer.py "${om1[@]}" --start lattice --equilibrate-steps 200 \
    --repeats 3 -o "$O/openmm-cuda-dpd-1M-lattice.json" > "$O/openmm-cuda-dpd-1M-lattice.log" 2>&1
  stamp "diagnose openmm dpd-fluid 1M lattice rc=$? $(grep -c ' TPS ' "$O/openmm-cuda-dpd-1M-lattice.log") timed"
fi
if [[ -z ${PEERS_PARAM:-} ]] && want "diagnose openmm dpd-fluid 1M memcheck"; then
  timeout "$(limit 50)" compute-sanitizer --tool memcheck --target-processes application-only --print-limit 8 \
    python3 scripts/peers/openmm_peer.py "${om1[@]}" --phase-seconds 40 --equilibrate-steps 10 --repeats 1 \
    -o "$O/openmm-cuda-dpd-1M-memcheck.json" > "$O/openmm-cuda-dpd-1M-memcheck.log" 2>&1
  stamp "diagnose openmm dpd-fluid 1M memcheck rc=$? $(grep -m3 -E 'Invalid|=  +at |ERROR SUMMARY' \
    "$O/openmm-cuda-dpd-1M-memcheck.log" | tr -s '= \n' ' ' | cut -c1-160)"
fi
stamp "done in ${SECONDS} s"
grep -h -E 'TPS \(median|not run in|g\(r\)|viscosity|watchdog' "$O"/openmm-*.log "$O"/lammps-*.log 2> /dev/null |
  cut -c1-160
