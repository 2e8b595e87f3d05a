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
  libhdf5-dev  # H5MD trajectories (engine/src/io/h5md.cpp); h5py for their test comes from pip (below)
  clang libclang-rt-dev  # the fuzzers (fuzz/, the fuzz preset): libclang-rt-dev holds libFuzzer and the sanitizers
  libre2-dev  # mesobench --filter: linear-time regular expressions (benchmarks/mesobench/case_filter.cpp)
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

# Python modules (requirements.txt): skip pip entirely when they import
# already. They go into the user site of the python3 on PATH, which the
# scripts and tests run: Debian's python3-h5py is built against Debian's
# numpy, and fails to import once a pip numpy shadows it, so h5py comes from
# pip too, built against the same numpy.
python_modules='import matplotlib, numpy, h5py, MDAnalysis, jsonschema'
if python3 -c "$python_modules" 2>/dev/null; then
  echo "install-deps: python modules present"
else
  echo "install-deps: installing python modules (scripts/requirements.txt)"
  # Debian/Ubuntu mark the system interpreter as externally managed (PEP 668);
  # a user-level install is the least intrusive place for them.
  python3 -m pip install --quiet --user -r "$here/requirements.txt" 2>/dev/null ||
    python3 -m pip install --quiet --user --break-system-packages -r "$here/requirements.txt"
  # Fail here, naming the module, rather than as a skipped test later.
  python3 -c "$python_modules" || { echo "install-deps: $python_modules fails after pip" >&2; exit 1; }
fi

# NCCL (the GPU ranks' transport --transport nccl, scaling/src/nccl_links.cpp)
# for a build with the CUDA backend: the CUDA toolkit may carry it
# (/usr/local/cuda/include/nccl.h); otherwise PyPI's nvidia-nccl-cu13 wheel
# (headers and libnccl.so.2), which cmake/FindNCCL.cmake finds through python3.
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  if [ -f /usr/local/cuda/include/nccl.h ] ||
    python3 -c 'import nvidia.nccl' 2>/dev/null; then
    echo "install-deps: NCCL present"
  else
    echo "install-deps: installing NCCL (nvidia-nccl-cu13 from PyPI)"
    python3 -m pip install --quiet --user 'nvidia-nccl-cu13>=2.27' 2>/dev/null ||
      python3 -m pip install --quiet --user --break-system-packages 'nvidia-nccl-cu13>=2.27'
  fi
fi
