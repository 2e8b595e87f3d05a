#!/usr/bin/env bash
# Makes nve-drift's committed start frame (validation/nve-drift/start-shift.f32, README.md
# "Start frames"; MODES="shift xplor" makes an xplor one too, not committed): the short
# form's liquid, N = 5000 at rho = 0.4, thermalized from the lattice by 20000 Nose-Hoover steps at kT = 1 (dt 0.005, tau 0.5, skin 0.4, the
# long form's thermalization), its last positions as 3 N little-endian float32 in tag order.
# Usage: scripts/nve_drift_start_frames.sh MESOBENCH OUT_DIR [SEED]   (needs h5py)
set -euo pipefail
bin=$1 out=$2 seed=${3:-20261129}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for mode in ${MODES:-shift}; do
  ron=()
  [[ $mode == xplor ]] && ron=(--param ron=1.5)
  OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} "$bin" run --backend cpu --filter '^lj-liquid/' --quiet \
    --param N=5000 --param rho=0.4 --param kT=1 --param rc=2.5 --param mode=$mode "${ron[@]}" \
    --param dt=0.005 --param skin=0.4 --param integrator=nvt --param tau=0.5 --param seed="$seed" \
    --warmup-time 0 --steps 20000 --trajectory "$work/$mode.h5md" --every 20000
  python3 - "$work/$mode.h5md" "$out/start-$mode.f32" <<'PY'
import sys
import h5py
import numpy as np
with h5py.File(sys.argv[1], "r") as f:
    pos = f["particles/trajectory/position/value"][-1]
    step = int(f["particles/trajectory/position/step"][-1])
    edges = f["particles/trajectory/box/edges/value"][-1]
assert step == 20000, step
# The engine's box is centred on the origin; the file holds positions wrapped into it.
assert np.all(np.abs(pos) <= 0.5 * edges * (1 + 1e-12)), "positions outside the centred box"
pos.astype("<f4").tofile(sys.argv[2])
print(f"{sys.argv[2]}: {len(pos)} positions of step {step}, box {edges}")
PY
done
