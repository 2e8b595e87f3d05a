#!/usr/bin/env bash
# `run --trajectory` writes H5MD 1.1 that h5py reads the way MDAnalysis's
# H5MD reader does (groups, attributes, time-dependent elements with
# step/time/value, box edges per frame), for an MD workload and the MPCD
# solvent; the last frame is the run's final state, bit for bit (compared
# with the final checkpoint). Exit 77 (skipped) without h5py or HDF5.
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The distribution's python3-h5py (scripts/install-deps.sh) may sit behind another python3 on PATH;
# MESO_PYTHON picks another interpreter (e.g. a venv with MDAnalysis).
py=${MESO_PYTHON:-python3}
$py -c 'import h5py, numpy' 2>/dev/null || py=/usr/bin/python3
$py -c 'import h5py, numpy' 2>/dev/null || { echo "SKIP: python3 h5py/numpy missing"; exit 77; }

rc=0
"$bin" run --backend cpu --filter lj-liquid --param N=1000 --steps 100 --trajectory "$work/probe.h5" \
  > /dev/null 2> "$work/probe.err" || rc=$?
if [[ $rc -eq 2 ]] && grep -q "without HDF5" "$work/probe.err"; then echo "SKIP: built without HDF5"; exit 77; fi
[[ $rc -eq 0 ]] || { cat "$work/probe.err"; exit 1; }

check() {  # check <h5md file> <checkpoint file> <steps> <every> <dt> <N>
  "$py" - "$@" <<'PY'
import struct, sys
import h5py, numpy as np

path, ckpt, steps, every, dt, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
f = h5py.File(path, "r")

# /h5md: version 1.1, author and creator (H5MD 1.1, section "H5MD metadata").
h5md = f["h5md"]
assert list(h5md.attrs["version"]) == [1, 1], h5md.attrs["version"]
assert h5md["author"].attrs["name"]
assert h5md["creator"].attrs["name"] == b"mesobench", h5md["creator"].attrs["name"]
assert h5md["creator"].attrs["version"]

# MDAnalysis's H5MDReader: the particle group is the first under /particles.
groups = list(f["particles"])
assert groups == ["all"], groups
pg = f["particles/all"]
box = pg["box"]
assert box.attrs["dimension"] == 3
assert [b for b in box.attrs["boundary"]] == [b"periodic"] * 3, box.attrs["boundary"]

frames = steps // every + 1
for name, inner, kind in (("position", (n, 3), "f"), ("velocity", (n, 3), "f"), ("image", (n, 3), "i"),
                          ("species", (n,), "i")):
    el = pg[name]
    assert set(el) == {"step", "time", "value"}, (name, set(el))
    v = el["value"]
    assert v.shape == (frames,) + inner, (name, v.shape)
    assert v.dtype.kind == kind, (name, v.dtype)
    assert v.chunks is not None and v.maxshape[0] is None, (name, v.chunks, v.maxshape)  # extensible
    # step and time are shared with position (hard links, as H5MD allows).
    assert el["step"] == pg["position/step"] and el["time"] == pg["position/time"], name
assert pg["position/value"].dtype == np.float64

step = pg["position/step"][()]
time = pg["position/time"][()]
assert step.dtype.kind == "i" and time.dtype == np.float64
assert list(step) == list(range(0, steps + 1, every)), step
assert np.all(np.diff(step) > 0) and np.all(np.diff(time) > 0)
assert np.allclose(time, step * dt, rtol=1e-14, atol=0), (time, step * dt)
edges = box["edges"]
assert edges["value"].shape == (frames, 3)
assert edges["step"] == pg["position/step"]

# Read every frame as MDAnalysis does: positions, box dimensions.
for k in range(frames):
    pos = pg["position/value"][k, :]
    L = box["edges/value"][k, :]
    dims = [*L, 90, 90, 90]
    assert np.all(pos >= -0.5 * L) and np.all(pos < 0.5 * L), k  # wrapped into [-L/2, L/2)
    assert np.all(np.isfinite(pg["velocity/value"][k, :]))
origin = f["parameters/mesobench"].attrs["box_origin"]
assert np.allclose(origin, -0.5 * box["edges/value"][0, :])

# The last frame equals the final state, bit for bit: the checkpoint written
# at the end holds it (format in engine/include/meso/io/checkpoint_file.hpp).
b = open(ckpt, "rb").read()
assert b[:8] == b"MESOCKPT"
off = 8 + 4 + 8
kind, = struct.unpack_from("<I", b, off); off += 4
for _ in range(4):
    ln, = struct.unpack_from("<I", b, off); off += 4 + ln
nn, cstep = struct.unpack_from("<QQ", b, off); off += 16
assert nn == n and cstep == steps, (nn, cstep)
if kind == 1:
    off += 16  # xi, eta
pos = np.frombuffer(b, "<f8", 3 * n, off).reshape(n, 3); off += 24 * n
vel = np.frombuffer(b, "<f8", 3 * n, off).reshape(n, 3); off += 24 * n
if kind == 1:
    off += 24 * n  # force
img = np.frombuffer(b, "<i4", 3 * n, off).reshape(n, 3); off += 12 * n
typ = np.frombuffer(b, "<u4", n, off)
assert np.array_equal(pg["position/value"][-1], pos)
assert np.array_equal(pg["velocity/value"][-1], vel)
assert np.array_equal(pg["image/value"][-1], img)
assert np.array_equal(pg["species/value"][-1], typ)
# Frames differ: the trajectory moves.
assert not np.array_equal(pg["position/value"][0], pg["position/value"][-1])
print(f"ok: {path}: {frames} frames of {n} particles, H5MD 1.1 layout, last frame == final state")
PY
}

"$bin" run --backend cpu --filter lj-liquid --param N=1000 --steps 100 --every 25 \
  --trajectory "$work/lj.h5" --checkpoint "$work/lj.ckpt" > /dev/null
[[ ! -e "$work/lj.h5.tmp" ]] || { echo "FAIL: left lj.h5.tmp"; exit 1; }
check "$work/lj.h5" "$work/lj.ckpt" 100 25 0.005 1000
# MDAnalysis itself, where installed (not a dependency of the suite).
if "$py" -c 'import MDAnalysis' 2>/dev/null; then
  "$py" - "$work/lj.h5" <<'PY'
import sys
import h5py, numpy as np
from MDAnalysis.coordinates.H5MD import H5MDReader
r = H5MDReader(sys.argv[1], convert_units=False)  # reduced units: the file has no unit attributes
with h5py.File(sys.argv[1], "r") as f:
    pos = f["particles/all/position/value"][()]
    L = f["particles/all/box/edges/value"][()]
assert r.n_frames == pos.shape[0] and r.n_atoms == pos.shape[1]
for ts in r:
    assert np.allclose(ts.positions, pos[ts.frame], rtol=1e-6, atol=1e-5)  # MDAnalysis keeps float32
    assert np.allclose(ts.dimensions, [*L[ts.frame], 90, 90, 90])
    assert ts.data["step"] == 25 * ts.frame and ts.has_velocities
print(f"ok: MDAnalysis H5MDReader reads {r.n_frames} frames")
PY
else
  echo "note: MDAnalysis not importable by $py; its own reader was not run"
fi
"$bin" run --backend cpu --filter 'srd-fluid.*L=10$' --param L=6 --steps 40 --every 10 \
  --trajectory "$work/srd.h5" --checkpoint "$work/srd.ckpt" > /dev/null
check "$work/srd.h5" "$work/srd.ckpt" 40 10 0.1 2160

# validate --trajectory: one file per simulation the case runs, frames every K steps.
"$bin" validate --backend cpu --filter srd-momentum --param L=5 --param collisions=120 --quiet \
  --trajectory "$work/v.h5" --every 40 > "$work/v.txt"
grep -q "wrote $work/v.1.h5" "$work/v.txt"
"$py" - "$work" <<'PY'
import glob, sys
import h5py, numpy as np
files = sorted(glob.glob(sys.argv[1] + "/v*.h5"))
assert len(files) >= 2, files
for name in files:
    with h5py.File(name, "r") as f:
        assert list(f["h5md"].attrs["version"]) == [1, 1]
        step = f["particles/all/position/step"][()]
        assert len(step) >= 2 and np.all(step % 40 == 0) and np.all(np.diff(step) > 0), (name, step)
        assert f["particles/all/position/value"].shape[0] == len(step)
print(f"ok: validate wrote {len(files)} H5MD files")
PY

source "$(dirname "$0")/expect_refused.sh"
expect_refused "need --steps" run --backend cpu --filter lj-liquid --trajectory "$work/x.h5"
expect_refused "does not exist" validate --backend cpu --filter srd-momentum --trajectory "$work/no-such-dir/x.h5"
expect_refused "does not exist" run --backend cpu --filter lj-liquid --param N=1000 --steps 10 \
  --trajectory "$work/no-such-dir/x.h5"
echo "h5md ok"
