#!/usr/bin/env bash
# Libraries the build needs that the GPU machine lacks and cannot fetch (it
# has no network): downloaded here from the distribution and unpacked into
# .deps/ (git-ignored), a folder to carry to that machine (`run`'s carry). Today: RE2
# (libre2-9, libre2-dev; Debian 12's needs only glibc and libstdc++). Its
# pkg-config file is rewritten to point into .deps/, so on the GPU machine
#   PKG_CONFIG_PATH=$PWD/.deps/re2/lib/pkgconfig cmake -S . -B build/device ...
# finds it (the binaries keep the build tree's rpath to it).
# Usage: scripts/device_deps.sh
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.deps/re2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download libre2-9 libre2-dev > /dev/null 2>&1) ||
  { echo "device_deps: apt-get download libre2-9 libre2-dev failed (network?)" >&2; exit 1; }
rm -rf "$dest" && mkdir -p "$dest"
for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$work/root"; done
multiarch=$(ls "$work/root/usr/lib")
mkdir -p "$dest/lib/pkgconfig" "$dest/include"
cp -a "$work/root/usr/include/re2" "$dest/include/"
cp -a "$work/root/usr/lib/$multiarch/"libre2.so* "$dest/lib/"
# Relative to the .pc file itself (${pcfiledir}), so the folder works wherever it lands.
{ echo 'prefix=${pcfiledir}/../..'
  sed -e '/^prefix=/d' -e 's|^libdir=.*|libdir=${prefix}/lib|' -e 's|^includedir=.*|includedir=${prefix}/include|' \
    "$work/root/usr/lib/$multiarch/pkgconfig/re2.pc"; } > "$dest/lib/pkgconfig/re2.pc"
echo "device_deps: RE2 in $dest ($(du -sh "$dest" | cut -f1)); carry .deps to the GPU machine"
