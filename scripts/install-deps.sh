#!/usr/bin/env bash
# Installs every build, test and plotting dependency of mesobench on Debian 12
# or Ubuntu 24.04: distribution packages through apt, the plotting libraries
# (scripts/requirements.txt) through pip. Idempotent: when everything is
# already present it changes nothing and takes about a second.
#
# The CUDA toolkit is not installed here (it is not in Debian main); when nvcc
# exists (on PATH or in /usr/local/cuda/bin) the build compiles the CUDA backend.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

packages=(
  build-essential cmake ninja-build git pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev libeigen3-dev nlohmann-json3-dev
  libopenmpi-dev openmpi-bin
  python3 python3-pip python3-venv
  python3-jsonschema  # scripts/validate_results.py: results against docs/results.schema.json
  libhdf5-dev python3-h5py  # H5MD trajectories (engine/src/h5md.cpp) and their test (tests/cli/h5md.sh)
  clang libclang-rt-dev  # the fuzzers (fuzz/, the fuzz preset): libclang-rt-dev holds libFuzzer and the sanitizers
)

if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "install-deps: need root or sudo to install packages" >&2
  exit 1
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
else
  echo "install-deps: system packages present"
fi

# Plotting: skip pip entirely when the modules import already.
if python3 -c 'import matplotlib, numpy' 2>/dev/null; then
  echo "install-deps: python plotting modules present"
else
  echo "install-deps: installing python plotting modules"
  # Debian/Ubuntu mark the system interpreter as externally managed (PEP 668);
  # a user-level install is the least intrusive place for two plotting libraries.
  python3 -m pip install --quiet --user -r "$here/requirements.txt" 2>/dev/null ||
    python3 -m pip install --quiet --user --break-system-packages -r "$here/requirements.txt"
fi
