#!/usr/bin/env bash
# The machine-code check of a kernel refactor that must change no result, on a machine without a
# GPU: each kernel file of two source trees compiled to an sm_90 cubin (the build's flags, no
# -lineinfo, so moved source lines change nothing) and disassembled; per kernel, the instructions
# compared as a multiset with register numbers, reuse hints, branch targets and the anonymous
# namespaces' hashes dropped: all of them, and the floating-point ones alone (FP: D*, F*, MUFU,
# H*). Equal floating-point multisets mean no contraction, operation or precision changed: what
# differs is scheduling, register assignment and integer bookkeeping.
# Needs nvcc and nvdisasm (the toolkit's, or PyPI's nvidia-cuda-nvdisasm: NVDISASM=path).
# Usage: scripts/sass_check.sh BEFORE_TREE AFTER_TREE GENERATED_DIR kernels/md/x.cu ...
#   (GENERATED_DIR: a configured build's kernels/generated, for pair_styles.inc)
set -euo pipefail
before=$1 after=$2 gen=$3
shift 3
nd=${NVDISASM:-$(command -v nvdisasm || true)}
[[ -x $nd ]] || { echo "sass_check: no nvdisasm (set NVDISASM)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cubin() {  # cubin TREE FILE OUT
  nvcc -I"$1/kernels/include" -I"$1/kernels" -I"$gen" -I"$1/engine/include" -O3 -DNDEBUG -arch=sm_90 -cubin \
    --expt-relaxed-constexpr -std=c++20 -x cu "$1/$2" -o "$3"
}
for f in "$@"; do
  stem=$(basename "$f" .cu)
  cubin "$before" "$f" "$work/$stem.before.cubin"
  cubin "$after" "$f" "$work/$stem.after.cubin"
  python3 - "$nd" "$work/$stem.before.cubin" "$work/$stem.after.cubin" "$stem" <<'PY'
import collections, re, subprocess, sys
nd, a_path, b_path, stem = sys.argv[1:5]
ANON = re.compile(r'_GLOBAL__N__[0-9a-f]{8}_[0-9]+_[A-Za-z0-9_]+?_cu_[0-9a-f]{8}(_[0-9]+)?')
FP = re.compile(r'(@!?P\d+ )?(D|F|MUFU|HADD|HMUL|HFMA(?!2\.MMA))')
def kernels(path, fp_only):
    out = subprocess.run([nd, '-c', path], capture_output=True, text=True, check=True).stdout
    ks, cur = {}, None
    for line in out.splitlines():
        m = re.match(r'\s*\.text\.(\S+):', line)
        if m:
            cur = ANON.sub('ANON', m.group(1))
            ks[cur] = collections.Counter()
            continue
        ins = ' '.join(re.sub(r'/\*[0-9a-f]*\*/', '', line).replace('.reuse', '').split())
        if cur is None or not ins or ins.startswith(('.', '//')) or ins.endswith(':') or '_GLOBAL__N__' in ins:
            continue
        if fp_only and not FP.match(ins):
            continue
        ins = re.sub(r'\bU?R[0-9]+\b', 'R', ins)
        ins = re.sub(r'\bU?P[0-9]\b', 'P', ins)
        ins = re.sub(r'`\(\.L_x_\d+\)', 'L', ins)
        ins = re.sub(r'0x[0-9a-f]{6,}', 'ADDR', ins)
        ks[cur][ins] += 1
    return ks
for fp_only, what in ((False, 'all instructions'), (True, 'floating-point')):
    a, b = kernels(a_path, fp_only), kernels(b_path, fp_only)
    same = sum(1 for k in a if k in b and a[k] == b[k])
    print(f"{stem}: {what}: {len(a)} kernels, {same} the same, {len(a) - same} not"
          + (f", {len(set(a) ^ set(b))} unmatched" if set(a) != set(b) else ""))
PY
done
