#!/usr/bin/env bash
# The include graph of the layers (ARCHITECTURE.md, "Layers"): fails, naming
# each offending line, when a file includes what its layer may not.
#
#   engine/      knows backends only through its own interfaces: no
#                reference/, kernels/ (meso/cuda, .cuh), validation/ or
#                scaling/ headers, no CUDA runtime, no MPI
#   reference/   never includes the CUDA backend (meso/cuda, .cuh), the
#                validation cases or the MPI layer
#   kernels/     never includes the CPU reference, the validation cases or
#                the MPI layer
#   validation/  runs through the engine: no backend headers, no MPI layer
#   scaling/     moves particles through the engine's interfaces: no backend
#                headers, no validation headers
#   everywhere   physics as "meso/physics/..." (no un-namespaced "physics/"),
#                the test-only probes (meso/testing/) never from a public
#                header of a library, CUDA runtime headers only in kernels/
#                and <mpi.h> only in scaling/ among the libraries
#
# Relative includes are checked as well: a layer pattern matches anywhere in
# the included path ("../../reference/include/meso/reference/x.hpp" is a
# meso/reference/ include), and a quoted include with "../" is resolved from
# the including file's directory: one that lands outside the file's own
# top-level directory (another layer, or outside the repository) is a
# violation wherever it lands, since it bypasses the include paths the rules
# above are stated in. "../" inside one layer (benchmarks/mesobench/x/ ->
# benchmarks/mesobench/) is fine.
#
# Usage: tests/scripts/include_graph.sh [repository root]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root"

layers=(engine reference kernels validation scaling benchmarks tests)
sources=(--include='*.hpp' --include='*.cpp' --include='*.cu' --include='*.cuh' --include='*.h')
include_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*'

fail=0
report() {  # report DESCRIPTION HITS
  if [[ -n $2 ]]; then
    echo "include_graph: $1:"
    echo "$2" | sed 's/^/  /'
    fail=1
  fi
}

# Every layer directory must exist, or a rule below would pass vacuously.
for d in "${layers[@]}"; do
  [[ -d $d ]] || { echo "include_graph: no directory $d/ under $root"; exit 1; }
done

# check DESCRIPTION PATTERN PATH...: every #include "..." or <...> in the
# C++/CUDA files under PATH whose path contains a match of PATTERN (at its
# start or after a '/', so "../../reference/..." counts) is a violation.
check() {
  local what=$1 pattern=$2
  shift 2
  local hits
  hits=$(grep -rnE "${sources[@]}" \
           "${include_re}[\"<]([^\">]*/)?($pattern)" "$@" 2>/dev/null || true)
  report "$what" "$hits"
}

# The same, anchored at the start of the included path only.
check_anchored() {
  local what=$1 pattern=$2
  shift 2
  local hits
  hits=$(grep -rnE "${sources[@]}" "${include_re}[\"<]($pattern)" "$@" 2>/dev/null || true)
  report "$what" "$hits"
}

backend='meso/reference/|meso/cuda/|reference/|kernels/|[^">]*\.cuh'
check "engine/ includes a backend, validation or scaling header" \
  "$backend|meso/validation/|validation/|meso/scaling/|scaling/" engine
check "reference/ includes the CUDA backend, validation or scaling" \
  'meso/cuda/|kernels/|[^">]*\.cuh|meso/validation/|validation/|meso/scaling/|scaling/' reference
check "kernels/ includes the CPU reference, validation or scaling" \
  'meso/reference/|reference/|meso/validation/|validation/|meso/scaling/|scaling/' kernels
check "validation/ includes a backend or scaling header" \
  "$backend|meso/scaling/|scaling/" validation
check "scaling/ includes a backend or validation header" \
  "$backend|meso/validation/|validation/" scaling
check "a library includes the CUDA runtime outside kernels/" \
  'cuda_runtime|cuda\.h>|cuda/|cub/|thrust/' engine reference validation scaling
check_anchored "a library includes MPI outside scaling/" 'mpi\.h' engine reference kernels validation
check_anchored "un-namespaced physics include (use \"meso/physics/...\")" 'physics/' \
  "${layers[@]}"
mapfile -t public_dirs < <(find engine/include/meso -mindepth 1 -maxdepth 1 -type d ! -name testing | sort)
check "a public header includes a test-only probe" 'meso/testing/' \
  "${public_dirs[@]}" reference/include kernels/include validation/include scaling/include

# The engine is in folders named after what they hold (ARCHITECTURE.md,
# "Where things are"), its sources mirroring its headers: no file at the top
# of engine/src or engine/include/meso, and no source folder without a header
# folder of the same name.
flat=$(find engine/src engine/include/meso -maxdepth 1 -type f \( -name '*.cpp' -o -name '*.hpp' \) | sort)
report "an engine file outside the folders (engine/src/<folder>/, engine/include/meso/<folder>/)" "$flat"
unmirrored=""
for d in engine/src/*/; do
  d=${d%/}
  [[ -d engine/include/meso/${d#engine/src/} ]] || unmirrored+="$d (no engine/include/meso/${d#engine/src/})"$'\n'
done
report "a source folder without its header folder" "${unmirrored%$'\n'}"

# Quoted includes with "../", resolved from the including file: each must
# stay inside the file's own top-level directory.
escapes=""
while IFS=: read -r file line text; do
  [[ -n $file ]] || continue
  inc=${text#*\"}
  inc=${inc%%\"*}
  target=$(realpath -m -s --relative-to=. "$(dirname "$file")/$inc")
  if [[ ${target%%/*} != "${file%%/*}" ]]; then
    escapes+="$file:$line:$text  (resolves to $target)"$'\n'
  fi
done < <(grep -rnE "${sources[@]}" "${include_re}\"([^\"]*/)?\.\./" "${layers[@]}" 2>/dev/null || true)
report "relative include leaving its layer's directory (use the include path)" "${escapes%$'\n'}"

# The engine's root folder is not an include path: only engine/include is.
if grep -nE 'target_include_directories\(meso_engine[^)]*CMAKE_CURRENT_SOURCE_DIR\}[[:space:]]*\)' \
     engine/CMakeLists.txt >/dev/null; then
  echo "include_graph: engine/CMakeLists.txt makes the engine root an include path"
  fail=1
fi

if ((fail)); then exit 1; fi
echo "include_graph: ok (engine, reference, kernels, validation, scaling layers clean; no relative" \
     "include leaves its layer)"
