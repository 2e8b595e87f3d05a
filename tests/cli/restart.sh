#!/usr/bin/env bash
# `run --checkpoint/--restart` on the CPU reference: a run interrupted at a
# checkpoint and continued ends in exactly the state of the uninterrupted
# run (their final checkpoints are the same bytes: particles, forces, step,
# thermostat and list state) for dpd-fluid, lj-liquid and srd-fluid; a
# truncated, corrupt or foreign checkpoint is refused with exit 2 and
# nothing written.
set -euo pipefail
set -f  # the case filters below are regular expressions, not globs
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/expect_refused.sh"

declare -A select=(
  [dpd]="--filter dpd-fluid/.*/rho=3/rc=1/.*N=8192\$ --param N=500"
  [lj]="--filter lj-liquid --param N=500"
  [srd]="--filter srd-fluid.*L=10\$ --param L=5"
  # Cell sorting every 15 steps: the restart keeps the storage order and the sort counter.
  [dpdsort]="--filter dpd-fluid/.*/rho=3/rc=1/.*N=8192\$ --param N=500 --variant reorder=cell,sort=15"
  # Orientational particles: orientations and angular momenta in the file too.
  [gb]="--filter gb-liquid.*N=8000\$ --param N=250"
  [ssd]="--filter ssd-water.*N=64000\$ --param N=343"
)
for w in dpd lj srd dpdsort gb ssd; do
  args=(run --backend cpu ${select[$w]})
  "$bin" "${args[@]}" --steps 120 --checkpoint "$work/$w-whole.ckpt" > /dev/null
  # Interrupted at 50, with checkpoints at 20 and 40 on the way (each
  # replacing the previous one) and at the end.
  "$bin" "${args[@]}" --steps 50 --checkpoint "$work/$w-part.ckpt" --checkpoint-every 20 > /dev/null
  [[ -z $(find "$work" -name "$w-part.ckpt.tmp*") ]] || { echo "FAIL: $w left a temporary checkpoint"; exit 1; }
  "$bin" "${args[@]}" --steps 120 --restart "$work/$w-part.ckpt" --checkpoint "$work/$w-resumed.ckpt" \
    --json "$work/$w-resumed.json" > /dev/null
  cmp "$work/$w-whole.ckpt" "$work/$w-resumed.ckpt" || { echo "FAIL: $w restart is not bitwise"; exit 1; }
  python3 - "$work/$w-resumed.json" <<'PY'
import json, sys
(r,) = json.load(open(sys.argv[1]))["results"]
assert r["steps_per_repeat"] == 70, r["steps_per_repeat"]
PY
  echo "ok: $w restarted at step 50 ends bitwise equal to the uninterrupted run"
done

# A run that is not continued exactly is detected by the comparison above.
"$bin" run --backend cpu ${select[dpd]} --param seed=2 --steps 120 --checkpoint "$work/other.ckpt" > /dev/null
if cmp -s "$work/dpd-whole.ckpt" "$work/other.ckpt"; then echo "FAIL: different seeds, same state"; exit 1; fi

# Damaged files: exit 2, a message naming what is wrong, no output.
size=$(stat -c %s "$work/dpd-part.ckpt")
head -c $((size - 100)) "$work/dpd-part.ckpt" > "$work/truncated.ckpt"
cp "$work/dpd-part.ckpt" "$work/corrupt.ckpt"
printf '\x55' | dd of="$work/corrupt.ckpt" bs=1 seek=$((size / 2)) conv=notrunc status=none
echo '{"step": 3}' > "$work/json.ckpt"
dpd=(run --backend cpu ${select[dpd]} --checkpoint "$work/out.ckpt" --json "$work/out.json"
     --trajectory "$work/out.h5")
expect_refused "truncated" "${dpd[@]}" --steps 120 --restart "$work/truncated.ckpt"
expect_refused "checksum" "${dpd[@]}" --steps 120 --restart "$work/corrupt.ckpt"
expect_refused "not a mesobench checkpoint" "${dpd[@]}" --steps 120 --restart "$work/json.ckpt"
# Another run's checkpoint: workload, N, precision, setup, variant.
expect_refused "its workload is 'lj-liquid'" "${dpd[@]}" --steps 120 --restart "$work/lj-part.ckpt"
expect_refused "holds N = 500" run --backend cpu --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=8192$' --param N=2000 \
  --steps 120 --restart "$work/dpd-part.ckpt" --json "$work/out.json"
expect_refused "precision is 'double'" "${dpd[@]}" --steps 120 --variant precision=single --restart "$work/dpd-part.ckpt"
expect_refused "setup" "${dpd[@]}" --steps 120 --param dt=0.004 --restart "$work/dpd-part.ckpt"
expect_refused "setup" "${dpd[@]}" --steps 120 --variant reorder=none --restart "$work/dpd-part.ckpt"
expect_refused "the step to run up to" "${dpd[@]}" --steps 30 --restart "$work/dpd-part.ckpt"
for f in out.ckpt out.json out.h5; do
  [[ -z $(find "$work" -name "$f*") ]] || { echo "FAIL: a refused run wrote $f"; exit 1; }
done
# The outputs need a fixed number of steps and one case.
expect_refused "need --steps" run --backend cpu ${select[dpd]} --checkpoint "$work/out.ckpt"
expect_refused "requires --checkpoint" run --backend cpu ${select[dpd]} --steps 10 --checkpoint-every 5
expect_refused "exactly one case" run --backend cpu --filter dpd-fluid --steps 10 --checkpoint "$work/out.ckpt"

# No output may overwrite an input or another output (a run once replaced its
# own --restart checkpoint with its --json and exited 0); continuing a
# checkpoint in place (--restart F --checkpoint F) is the one allowed pair.
cp "$work/dpd-part.ckpt" "$work/keep.ckpt"
ck=(run --backend cpu ${select[dpd]} --steps 120)
expect_refused "--json '$work/keep.ckpt' is the same file as --restart" "${ck[@]}" --restart "$work/keep.ckpt" \
  --json "$work/keep.ckpt"
expect_refused "is the same file as --restart" "${ck[@]}" --restart "$work/keep.ckpt" --trajectory "$work/keep.ckpt"
expect_refused "is the same file as --checkpoint" "${ck[@]}" --checkpoint "$work/x.out" --json "$work/x.out"
expect_refused "is the same file as --trajectory" "${ck[@]}" --trajectory "$work/x.out" --json "$work/x.out"
expect_refused "is the same file as --checkpoint" "${ck[@]}" --checkpoint "$work/x.out" \
  --json "$work/../$(basename "$work")/./x.out"
ln "$work/keep.ckpt" "$work/hardlink.ckpt"
expect_refused "is the same file as --restart" "${ck[@]}" --restart "$work/keep.ckpt" --json "$work/hardlink.ckpt"
ln -s "$work/keep.ckpt" "$work/symlink.ckpt"
expect_refused "is the same file as --restart" "${ck[@]}" --restart "$work/keep.ckpt" --json "$work/symlink.ckpt"
cmp "$work/keep.ckpt" "$work/dpd-part.ckpt" || { echo "FAIL: a refused run changed its checkpoint"; exit 1; }
[[ ! -e "$work/x.out" ]] || { echo "FAIL: a refused run wrote x.out"; exit 1; }
# Empty, a directory, a device, an unwritable place, a name too long: refused before running.
expect_refused "give a file name" "${ck[@]}" --json ""
expect_refused "give a file name" "${ck[@]}" --checkpoint ""
expect_refused "give a file name" "${ck[@]}" --trajectory ""
expect_refused "is a directory" "${ck[@]}" --json "$work"
expect_refused "is not a regular file" "${ck[@]}" --json /dev/null
expect_refused "is too long" "${ck[@]}" --json "$work/$(printf 'x%.0s' {1..254})"
if [[ $(id -u) -ne 0 ]]; then
  mkdir "$work/ro" && chmod a-w "$work/ro"
  expect_refused "is not writable" "${ck[@]}" --json "$work/ro/out.json"
fi
# Continuing in place is allowed and ends as the uninterrupted run.
"$bin" "${ck[@]}" --restart "$work/keep.ckpt" --checkpoint "$work/keep.ckpt" > /dev/null
cmp "$work/dpd-whole.ckpt" "$work/keep.ckpt" || { echo "FAIL: the in-place restart is not bitwise"; exit 1; }
# A workload without lists (the MD-SCF bilayer) writes a checkpoint too: the
# CPU backend once handed the writer a tag order without build positions,
# and the run crashed (SIGSEGV) at the end.
"$bin" run --backend cpu --filter 'mdscf-dppc.*lipids=528/' --param lipids=32 --param waters=800 --steps 20 \
  --checkpoint "$work/dppc.ckpt" > /dev/null
[[ -s "$work/dppc.ckpt" ]] || { echo "FAIL: no mdscf-dppc checkpoint"; exit 1; }
echo "restart ok"
