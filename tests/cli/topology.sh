#!/usr/bin/env bash
# `run --topology FILE`: the bonds and angles of FILE added to the selected
# MD case, with the library's checks. A valid file runs (the JSON names the
# topology, the case name ends in it, a checkpoint continues only with the
# same topology); a directory, a device, a missing file, a binary file, a
# 5 MB field, a file without bonds, a tag beyond N, a solvent workload and
# a workload that builds its own bonds are refused with exit 2, messages
# short and printable, nothing written.
set -euo pipefail
set -f  # the case filters below are regular expressions, not globs
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/expect_refused.sh"

dpd=(run --backend cpu --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=8192$' --param N=500 --quiet)
# Ten soft harmonic chains of ten beads with a bending term: bonds of k = 5
# between beads placed at random in the box are stretched, not broken.
python3 - "$work/chains.top" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("# ten chains of ten beads\nbond_type  soft harmonic 5 0.8\nangle_type bend harmonic 2 180\n")
    for c in range(10):
        beads = range(10 * c, 10 * c + 10)
        for a, b in zip(beads, beads[1:]):
            f.write(f"bond soft {a} {b}\n")
        for a in range(10 * c, 10 * c + 8):
            f.write(f"angle bend {a} {a + 1} {a + 2}\n")
PY
"$bin" "${dpd[@]}" --steps 50 --topology "$work/chains.top" --json "$work/chains.json" \
  --checkpoint "$work/chains.ckpt" > /dev/null
python3 - "$work/chains.json" <<'PY'
import json, sys
(r,) = json.load(open(sys.argv[1]))["results"]
t = r["parameters"]["topology"]
assert t["bonds"] == 90 and t["angles"] == 80, t
assert t["file"].endswith("chains.top"), t
assert r["name"].endswith("/topology=chains.top"), r["name"]
assert r["steps_per_repeat"] == 50
PY
echo "ok: dpd-fluid with 90 bonds and 80 angles ran 50 steps"
# The bonded force acts: the same run without the topology ends elsewhere.
"$bin" "${dpd[@]}" --steps 50 --checkpoint "$work/plain.ckpt" > /dev/null
if cmp -s "$work/chains.ckpt" "$work/plain.ckpt"; then echo "FAIL: the topology changed nothing"; exit 1; fi
# A checkpoint continues only with the topology it ran with.
expect_refused "setup" "${dpd[@]}" --steps 60 --restart "$work/chains.ckpt"
"$bin" "${dpd[@]}" --steps 60 --restart "$work/chains.ckpt" --topology "$work/chains.top" > /dev/null
echo "ok: the restart needs the same topology"

out=(--json "$work/out.json")
expect_refused "topology file '$work' is a directory, not a file" "${dpd[@]}" --topology "$work" "${out[@]}"
expect_refused "topology file '/dev/zero' is a character device" "${dpd[@]}" --topology /dev/zero "${out[@]}"
expect_refused "cannot read topology file '$work/none.top'" "${dpd[@]}" --topology "$work/none.top" "${out[@]}"
expect_refused "give a file name" "${dpd[@]}" --topology ""
: > "$work/empty.top"
expect_refused "holds no bond and no angle" "${dpd[@]}" --topology "$work/empty.top" "${out[@]}"
printf 'bond_type s harmonic 1 1\nbond s 0 600\n' > "$work/far.top"
expect_refused "does not fit dpd-fluid with N = 500: topology: bond 0 names tag 600, but the system has 500" \
  "${dpd[@]}" --topology "$work/far.top" "${out[@]}"
# A 5 MB field and a binary file: refused with a short, escaped excerpt.
python3 -c "import sys; sys.stdout.write('bond_type s harmonic ' + '7' * 5000000 + 'x 1\n')" > "$work/long.top"
msg=$("$bin" "${dpd[@]}" --topology "$work/long.top" 2>&1 >/dev/null) && { echo "FAIL: accepted"; exit 1; }
[[ ${#msg} -lt 300 && "$msg" == *"long.top:1: the line is longer than 65536 bytes"* ]] ||
  { echo "FAIL: ${#msg} characters: ${msg:0:400}"; exit 1; }
printf '\x7fELF\x02\x01\x01\x00\x00 x\n' > "$work/binary.top"
expect_refused "unknown record '\\x7fELF\\x02\\x01\\x01\\x00\\x00'" "${dpd[@]}" --topology "$work/binary.top"
expect_refused "--topology is not provided for srd-fluid: it is an MPCD solvent" \
  run --backend cpu --filter 'srd-fluid.*L=10$' --param L=5 --topology "$work/chains.top" "${out[@]}"
expect_refused "--topology is not provided for mdscf-dppc: it builds the bonds and angles" \
  run --backend cpu --filter 'mdscf-dppc.*lipids=528/' --param lipids=32 --param waters=800 \
  --topology "$work/chains.top" "${out[@]}"
# An output may not replace the topology it reads.
expect_refused "is the same file as --topology" "${dpd[@]}" --topology "$work/chains.top" --json "$work/chains.top"
[[ ! -e "$work/out.json" ]] || { echo "FAIL: a refused run wrote out.json"; exit 1; }
echo "topology ok"
