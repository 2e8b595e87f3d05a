#!/usr/bin/env bash
# The include graph of the layers (docs/architecture.md, "Layers"): fails,
# naming each offending line, when a file includes what its layer may not.
#
#   engine/      knows backends only through its own interfaces: no
#                reference/, kernels/ (meso/cuda, .cuh) or validation/ headers
#   reference/   never includes the CUDA backend (meso/cuda, .cuh)
#   kernels/     never includes the CPU reference (meso/reference)
#   validation/  runs through the engine: no backend headers
#   everywhere   physics as "meso/physics/..." (no un-namespaced "physics/"),
#                and the test-only probes (meso/testing/) never from a public
#                header of a library
#
# Usage: tests/scripts/include_graph.sh [repository root]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root"

fail=0
# check DESCRIPTION PATTERN PATH...: every #include line matching PATTERN in
# the C++/CUDA files under PATH is a violation.
check() {
  local what=$1 pattern=$2
  shift 2
  local hits
  hits=$(grep -rnE --include='*.hpp' --include='*.cpp' --include='*.cu' --include='*.cuh' \
           "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]($pattern)" "$@" 2>/dev/null || true)
  if [[ -n $hits ]]; then
    echo "include_graph: $what:"
    echo "$hits" | sed 's/^/  /'
    fail=1
  fi
}

check "engine/ includes a backend or validation header" \
  'meso/reference/|meso/cuda/|meso/validation/|[^"]*\.cuh' engine
check "reference/ includes the CUDA backend" 'meso/cuda/|[^"]*\.cuh' reference
check "kernels/ includes the CPU reference" 'meso/reference/' kernels
check "validation/ includes a backend header" 'meso/reference/|meso/cuda/|[^"]*\.cuh' validation
check "un-namespaced physics include (use \"meso/physics/...\")" 'physics/' \
  engine reference kernels validation benchmarks tests
check "a public header includes a test-only probe" 'meso/testing/' \
  engine/include/meso/*.hpp engine/include/meso/ops engine/include/meso/physics \
  reference/include kernels/include validation/include

# The engine's root folder is not an include path: only engine/include is.
if grep -nE 'target_include_directories\(meso_engine[^)]*CMAKE_CURRENT_SOURCE_DIR\}[[:space:]]*\)' \
     engine/CMakeLists.txt >/dev/null; then
  echo "include_graph: engine/CMakeLists.txt makes the engine root an include path"
  fail=1
fi

if ((fail)); then exit 1; fi
echo "include_graph: ok (engine, reference, kernels, validation layers clean)"
