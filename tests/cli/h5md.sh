#!/usr/bin/env bash
# `run --trajectory` writes H5MD 1.1 that h5py reads the way MDAnalysis's
# H5MD reader does (groups, attributes, time-dependent elements with
# step/time/value, box edges per frame), for an MD workload, orientational
# particles (quaternions and angular momenta) and the MPCD solvent; the last frame is the run's final state, bit for bit (compared
# with the final checkpoint). MDAnalysis opens the files as a Universe with
# its defaults (units converted), in reduced and in physical units. A full
# disk ends the run with exit 2 naming the file and the reason, and leaves
# no partial file. "wrote FILE" is printed for the trajectory and the
# checkpoint.
#
# h5py, MDAnalysis and HDF5 are dependencies (scripts/install-deps.sh): the
# test fails without them, and skips (exit 77) only when MESO_H5MD_OPTIONAL=1
# says that a machine without them is expected.
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
missing() {
  echo "$1"
  [[ ${MESO_H5MD_OPTIONAL:-0} == 1 ]] && exit 77
  echo "FAIL: run scripts/install-deps.sh (or set MESO_H5MD_OPTIONAL=1 to skip)"; exit 1
}
# The interpreter install-deps.sh installs into; MESO_PYTHON picks another.
py=${MESO_PYTHON:-python3}
err=$("$py" -c 'import h5py, numpy, MDAnalysis' 2>&1) || missing "$py cannot import h5py, numpy, MDAnalysis: ${err##*$'\n'}"

rc=0
"$bin" run --backend cpu --filter lj-liquid --param N=1000 --steps 100 --trajectory "$work/probe.h5" \
  > /dev/null 2> "$work/probe.err" || rc=$?
if [[ $rc -eq 2 ]] && grep -q "without HDF5" "$work/probe.err"; then missing "mesobench was built without HDF5"; fi
[[ $rc -eq 0 ]] || { cat "$work/probe.err"; exit 1; }

check() {  # check <h5md file> <checkpoint file> <steps> <every> <dt> <N> <units description>
  "$py" - "$@" <<'PY'
import struct, sys
import h5py, numpy as np

path, ckpt, steps, every, dt, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
units = sys.argv[7]
f = h5py.File(path, "r")

# /h5md: version 1.1, author and creator (H5MD 1.1, section "H5MD metadata").
h5md = f["h5md"]
assert list(h5md.attrs["version"]) == [1, 1], h5md.attrs["version"]
assert h5md["author"].attrs["name"]
assert h5md["creator"].attrs["name"] == b"mesobench", h5md["creator"].attrs["name"]
assert h5md["creator"].attrs["version"]

# MDAnalysis's H5MDReader: the particle group is the first under /particles.
groups = list(f["particles"])
assert groups == ["trajectory"], groups  # the name MDAnalysis's Universe reads
pg = f["particles/trajectory"]
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
# Units: H5MD unit attributes as str where MDAnalysis reads them; reduced
# units are labelled Angstrom and ps, and the file says which they are.
assert pg["position/time"].attrs["unit"] == "ps"
assert pg["position/value"].attrs["unit"] == "Angstrom" and pg["box/edges/value"].attrs["unit"] == "Angstrom"
assert pg["velocity/value"].attrs["unit"] == "Angstrom ps-1"
assert f["parameters/mesobench"].attrs["units"].startswith(units), f["parameters/mesobench"].attrs["units"]
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
  --trajectory "$work/lj.h5md" --checkpoint "$work/lj.ckpt" > "$work/lj.txt"
[[ -z $(find "$work" -name 'lj.h5md.tmp*') ]] || { echo "FAIL: left a temporary lj.h5md.tmp-*"; exit 1; }
grep -qx "wrote $work/lj.h5md" "$work/lj.txt" && grep -qx "wrote $work/lj.ckpt" "$work/lj.txt" ||
  { echo "FAIL: no 'wrote' line for the trajectory or the checkpoint"; cat "$work/lj.txt"; exit 1; }
check "$work/lj.h5md" "$work/lj.ckpt" 100 25 0.005 1000 "reduced units (LJ units"

# Orientational particles (gb-liquid): two more time-dependent elements,
# orientation (unit quaternions s, x, y, z) and angular_momentum (body
# frame), sharing the position's step and time; an isotropic file has none.
"$bin" run --backend cpu --filter 'gb-liquid.*N=64000' --param N=500 --steps 20 --every 10 \
  --trajectory "$work/gb.h5md" > /dev/null
"$py" - "$work/gb.h5md" "$work/lj.h5md" <<'PY'
import sys
import h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    pg = f["particles/trajectory"]
    for name, width in (("orientation", 4), ("angular_momentum", 3)):
        el = pg[name]
        assert set(el) == {"step", "time", "value"}, (name, set(el))
        assert el["value"].shape == (3, 500, width) and el["value"].dtype == np.float64, (name, el["value"].shape)
        assert el["step"] == pg["position/step"] and el["time"] == pg["position/time"], name
    q = pg["orientation/value"][()]
    assert np.abs(np.linalg.norm(q, axis=2) - 1.0).max() < 1e-12  # unit quaternions
    assert not np.array_equal(q[0], q[-1])  # the particles rotate
    assert np.all(np.isfinite(pg["angular_momentum/value"][()]))
with h5py.File(sys.argv[2], "r") as f:
    assert "orientation" not in f["particles/trajectory"] and "angular_momentum" not in f["particles/trajectory"]
print(f"ok: {sys.argv[1]}: orientations and angular momenta of 3 frames; none in an isotropic file")
PY

# MDAnalysis itself, with its defaults: Universe(FILE) (a *.h5md name picks its
# H5MD reader), units converted to its Angstrom and ps. Reduced units come
# back unchanged; the MD-SCF model's nm become Angstrom and its time ps.
"$bin" run --backend cpu --filter 'mdscf-dppc.*lipids=528/' --steps 4 --every 2 --trajectory "$work/dppc.h5md" \
  > /dev/null
"$py" - "$work/lj.h5md" 1 25 0.125 "$work/dppc.h5md" 10 2 0.06 <<'PY'
import sys, warnings
import h5py, numpy as np
import MDAnalysis as mda
warnings.simplefilter("ignore")  # no masses or types to guess from a bare trajectory
args = sys.argv[1:]
for path, scale, every, frame_ps in zip(args[0::4], map(float, args[1::4]), map(int, args[2::4]), map(float, args[3::4])):
    u = mda.Universe(path)
    with h5py.File(path, "r") as f:
        pg = f["particles/trajectory"]
        pos, vel, L = pg["position/value"][()], pg["velocity/value"][()], pg["box/edges/value"][()]
        time = pg["position/time"][()]
    assert u.trajectory.n_frames == pos.shape[0] and u.atoms.n_atoms == pos.shape[1], path
    for ts in u.trajectory:
        k = ts.frame
        # MDAnalysis keeps float32: 1e-6 relative, and a little more near 0.
        assert np.allclose(ts.positions, scale * pos[k], rtol=2e-6, atol=2e-6 * scale), (path, k)
        assert np.allclose(ts.velocities, scale * vel[k], rtol=2e-6, atol=1e-6), (path, k)
        assert np.allclose(ts.dimensions, [*(scale * L[k]), 90, 90, 90], rtol=1e-6), (path, k, ts.dimensions)
        assert ts.data["step"] == every * k and np.isclose(ts.time, time[k]), (path, k, ts.time, time[k])
        assert np.isclose(ts.time, frame_ps * k, rtol=1e-6), (path, k, ts.time)
    print(f"ok: MDAnalysis Universe({path}) reads {u.trajectory.n_frames} frames, units {u.trajectory.units}")
PY

# A full disk while writing: a file size limit (ulimit -f, SIGXFSZ ignored so
# that write(2) returns EFBIG, as it returns ENOSPC on a full device) needs
# neither root nor a small file system and takes HDF5 through the same failed
# write. The run exits 2 naming the file, the step and the reason; the
# partial FILE.tmp-XXXXXX is removed and an earlier FILE is left as it was. A
# checkpoint under the same limit is refused the same way.
echo "an earlier trajectory" > "$work/full.h5md"
rc=0
(ulimit -f 1500; trap '' XFSZ; exec "$bin" run --backend cpu --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=8192$' \
  --steps 50 --every 10 --trajectory "$work/full.h5md" --quiet) > /dev/null 2> "$work/full.err" || rc=$?
msg=$(cat "$work/full.err")
[[ $rc -eq 2 && $msg == *"cannot write trajectory '$work/full.h5md' at step "*": HDF5 "*" failed: File too large; "* &&
   $msg == *"full.h5md.tmp-"*" frames, incomplete) removed"* ]] || { echo "FAIL (exit $rc): $msg"; exit 1; }
[[ -z $(find "$work" -name 'full.h5md.tmp*') && $(cat "$work/full.h5md") == "an earlier trajectory" ]] ||
  { echo "FAIL: the partial trajectory was left or the earlier one changed"; exit 1; }
rc=0
(ulimit -f 300; trap '' XFSZ; exec "$bin" run --backend cpu --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=8192$' \
  --steps 10 --checkpoint "$work/full.ckpt" --quiet) > /dev/null 2> "$work/full.err" || rc=$?
msg=$(cat "$work/full.err")
[[ $rc -eq 2 && $msg == *"'$work/full.ckpt': File too large"* && -z $(find "$work" -name 'full.ckpt.tmp*') ]] ||
  { echo "FAIL (exit $rc): $msg"; exit 1; }
echo "ok: a full disk is named, exit 2, nothing half-written"

"$bin" run --backend cpu --filter 'srd-fluid.*L=10$' --param L=6 --steps 40 --every 10 \
  --trajectory "$work/srd.h5" --checkpoint "$work/srd.ckpt" > /dev/null
check "$work/srd.h5" "$work/srd.ckpt" 40 10 0.1 2160 "reduced units (SRD units"

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
        step = f["particles/trajectory/position/step"][()]
        assert len(step) >= 2 and np.all(step % 40 == 0) and np.all(np.diff(step) > 0), (name, step)
        assert f["particles/trajectory/position/value"].shape[0] == len(step)
        assert f["particles/trajectory/position/value"].attrs["unit"] == "Angstrom"
        assert f["parameters/mesobench"].attrs["units"].startswith("reduced units (the reduced DPD, LJ or SRD")
        # The whole variant the case ran (on a GPU its workload's default), not --variant as given.
        variant = f["parameters/mesobench"].attrs["variant"]
        variant = variant.decode() if isinstance(variant, bytes) else variant
        assert variant.startswith("nlist=ballot,") and "precision=double" in variant, variant
print(f"ok: validate wrote {len(files)} H5MD files")
PY

# polymer-srd (chains in the SRD solvent): frames hold the monomers only, and
# scripts/h5md_to_lammps.py makes the LAMMPS dump and data file that OVITO and
# VMD open (docs/io.md): MDAnalysis's LAMMPS readers see every monomer, the
# chains' bonds and every frame, at the H5MD positions (less the box origin,
# which its dump reader moves to 0).
"$bin" run --backend cpu --filter 'polymer-srd/.*solvent=srd/chains=16/' --max-n 100000000 --param L=8 \
  --param N=10 --param chains=6 --steps 100 --every 50 --trajectory "$work/poly.h5md" > /dev/null
"$py" "$(dirname "$0")/../../scripts/h5md_to_lammps.py" "$work/poly.h5md" "$work/poly.lammpstrj" \
  --data "$work/poly.data" --chain-length 10 > /dev/null
"$py" - "$work" <<'PY'
import sys, warnings
import h5py, numpy as np, MDAnalysis as mda
warnings.filterwarnings("ignore")
w = sys.argv[1]
with h5py.File(w + "/poly.h5md", "r") as f:
    pos = f["particles/trajectory/position/value"][()]
    assert pos.shape == (3, 60, 3), pos.shape  # 3 frames of the 60 monomers, no solvent
    lo = f["parameters/mesobench"].attrs["box_origin"]
u = mda.Universe(w + "/poly.data", w + "/poly.lammpstrj", format="LAMMPSDUMP", atom_style="id resid type x y z")
assert len(u.atoms) == 60 and len(u.bonds) == 54 and len(u.trajectory) == 3
for k, ts in enumerate(u.trajectory):
    assert np.abs(u.atoms.positions - (pos[k] - lo)).max() < 1e-5, k
print("ok: polymer-srd trajectory in LAMMPS form (60 monomers, 54 bonds, 3 frames)")
PY

source "$(dirname "$0")/expect_refused.sh"
expect_refused "need --steps" run --backend cpu --filter lj-liquid --trajectory "$work/x.h5"
expect_refused "does not exist" validate --backend cpu --filter srd-momentum --trajectory "$work/no-such-dir/x.h5"
expect_refused "does not exist" run --backend cpu --filter lj-liquid --param N=1000 --steps 10 \
  --trajectory "$work/no-such-dir/x.h5"
echo "h5md ok"
