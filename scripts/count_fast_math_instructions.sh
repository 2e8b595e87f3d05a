#!/usr/bin/env bash
# Static instruction and branch counts of fast_math.hpp's functions and CUDA's
# libm equivalents for sm_90 (Tang & Karniadakis Table 3, columns "PTX instr."
# and "cond. branches"). Needs only nvcc and cuobjdump, no GPU.
#
# Each function is compiled alone into a kernel  o[i] = f(x[i], y[i]);  the
# same kernel with f = identity is subtracted, so the counts are the
# function's own. SASS: instruction lines of nvdisasm (NOPs excluded);
# conditional branches: predicated BRA (@P / @!P); CALL: calls to
# non-inlined slow paths. PTX: instruction lines of nvcc -ptx (not
# directives, labels or declarations).
#
# usage: scripts/count_fast_math_instructions.sh [nvcc]
# nvdisasm is taken from $NVDISASM, beside nvcc, from PATH, or from the PyPI
# package nvidia-cuda-nvdisasm (pip install nvidia-cuda-nvdisasm) when the
# toolkit was installed without it.
set -euo pipefail
NVCC=${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}
find_nvdisasm() {
  if [[ -n "${NVDISASM:-}" ]]; then echo "$NVDISASM"; return; fi
  if [[ -x "$(dirname "$NVCC")/nvdisasm" ]]; then echo "$(dirname "$NVCC")/nvdisasm"; return; fi
  if command -v nvdisasm; then return; fi
  python3 -c 'import glob, os, nvidia
print(next(iter(sorted(c for p in nvidia.__path__ for c in glob.glob(os.path.join(p, "*", "bin", "nvdisasm")))), ""))' 2>/dev/null
}
NVDISASM=$(find_nvdisasm || true)
if [[ -z "$NVDISASM" || ! -x "$NVDISASM" ]]; then
  echo "nvdisasm not found: set NVDISASM or pip install nvidia-cuda-nvdisasm" >&2
  exit 2
fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

declare -A EXPR=(
  [identity]="x"
  [fastpow]="meso::physics::fast_pow(x, y)"
  [pow]="::pow(x, y)"
  [fastlog]="meso::physics::fast_log(x)"
  [log]="::log(x)"
  [fastcospi]="meso::physics::fast_cospi(x)"
  [cospi]="::cospi(x)"
)

count() {  # name -> "sass cond_bra uncond_bra call ptx ptx_bra sass_no_umov"
  local name=$1
  cat > "$TMP/$name.cu" <<CU
#include "meso/physics/fast_math.hpp"
__global__ void k(const double* __restrict__ xs, const double* __restrict__ ys, double* o) {
  const int i = threadIdx.x;
  const double x = xs[i], y = ys[i];
  (void)y;
  o[i] = ${EXPR[$name]};
}
CU
  "$NVCC" -std=c++20 -O3 -arch=sm_90 -I"$ROOT/engine/include" -cubin -o "$TMP/$name.cubin" "$TMP/$name.cu"
  "$NVCC" -std=c++20 -O3 -arch=sm_90 -I"$ROOT/engine/include" -ptx -o "$TMP/$name.ptx" "$TMP/$name.cu"
  "$NVDISASM" -c "$TMP/$name.cubin" | grep -E '^\s+/\*[0-9a-f]{4}\*/' | grep -v -E '\bNOP\b|^\s+/\*[0-9a-f]{4}\*/\s+\.' > "$TMP/$name.sass"
  local sass cbra ubra call ptx pbra nou
  sass=$(wc -l < "$TMP/$name.sass")
  if [[ "$sass" -eq 0 ]]; then echo "no SASS disassembled for $name" >&2; exit 1; fi
  cbra=$(grep -cE '@!?U?P[0-9T]+\s+BRA' "$TMP/$name.sass" || true)
  ubra=$(grep -E '\bBRA\b' "$TMP/$name.sass" | grep -cvE '@!?U?P[0-9T]+\s+BRA' || true)
  call=$(grep -cE '\bCALL\b' "$TMP/$name.sass" || true)
  # PTX instructions: indented lines ending in ';' that are not declarations.
  ptx=$(grep -E '^\s+[a-z@!]' "$TMP/$name.ptx" | grep -E ';\s*$' | grep -cvE '^\s*\.(reg|param|local|shared|global|const|loc|file|pragma)' || true)
  pbra=$(grep -cE '^\s*@%?!?p[0-9]*\s+bra' "$TMP/$name.ptx" || true)
  # UMOVs materialise 64-bit constants in uniform registers; in a kernel loop
  # they are hoisted, so the count without them is the per-call cost there.
  nou=$(grep -cvE '\bUMOV\b' "$TMP/$name.sass" || true)
  echo "$sass $cbra $ubra $call $ptx $pbra $nou"
}

read -r b_sass b_cbra b_ubra b_call b_ptx b_pbra b_nou <<< "$(count identity)"
printf '%-10s %6s %10s %10s %10s %6s %6s %10s\n' function SASS SASS-UMOV cond.BRA uncond.BRA CALL PTX ptx.@bra
for name in fastpow pow fastlog log fastcospi cospi; do
  read -r sass cbra ubra call ptx pbra nou <<< "$(count "$name")"
  printf '%-10s %6d %10d %10d %10d %6d %6d %10d\n' "$name" $((sass - b_sass)) $((nou - b_nou)) $((cbra - b_cbra)) \
    $((ubra - b_ubra)) $((call - b_call)) $((ptx - b_ptx)) $((pbra - b_pbra))
done
