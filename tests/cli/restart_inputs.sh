#!/usr/bin/env bash
# `run --restart FILE` reads nothing but a checkpoint, and trusts no field of
# it: a device (/dev/zero never ends), a FIFO and a directory are refused by
# name before they are opened; a 3 GB foreign file after its first 20 bytes;
# a forged checkpoint with a valid checksum (a position of 1e300,
# steps_since_build = 2^32 - 1, has_lists = 7, a type the run does not have)
# field by field. Exit 2 each time, nothing written. Every run is under
# `timeout`, so a reader that hangs fails the test instead of stalling it.
set -euo pipefail
set -f  # the case filter below is a regular expression, not a glob
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

select=(--backend cpu --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=8192$' --param N=500)
"$bin" run "${select[@]}" --steps 20 --checkpoint "$work/good.ckpt" --quiet > /dev/null

# expect_refused with a time limit: exit 124 (timeout) is a hang.
refused_in_time() {
  local needle=$1; shift
  local out rc=0
  out=$(timeout 20 "$bin" run "${select[@]}" --steps 40 --json "$work/out.json" --checkpoint "$work/out.ckpt" \
        "$@" 2>&1 >/dev/null) || rc=$?
  [[ $rc -eq 2 && "$out" == *"$needle"* ]] || { echo "FAIL (exit $rc): $* -> $out"; exit 1; }
  for f in out.json out.ckpt; do
    [[ -z $(find "$work" -name "$f*") ]] || { echo "FAIL: a refused restart wrote $f or its temporary"; exit 1; }
  done
  echo "ok: $* -> $needle"
}

refused_in_time "checkpoint '/dev/zero' is a character device" --restart /dev/zero
mkfifo "$work/fifo.ckpt"
refused_in_time "is a FIFO" --restart "$work/fifo.ckpt"
# A large foreign file (sparse: no disk used) is refused from its header.
truncate -s 3G "$work/big.iso"
start=$(date +%s%N)
refused_in_time "is not a mesobench checkpoint" --restart "$work/big.iso"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
(( ms < 5000 )) || { echo "FAIL: refusing a 3 GB foreign file took $ms ms (read whole?)"; exit 1; }

# Forged fields with the checksum made valid again (FNV-1a 64 of the body).
forge() {  # forge OUT FIELD VALUE
  python3 - "$work/good.ckpt" "$@" <<'PY'
import struct, sys
src, out, field, value = sys.argv[1:]
b = bytearray(open(src, "rb").read())
at = 24  # magic, version, length, kind
for _ in range(4):  # workload, setup, backend, precision
    (k,) = struct.unpack_from("<I", b, at)
    at += 4 + k
(n,) = struct.unpack_from("<Q", b, at)
payload = at + 16 + 16  # after n, step, xi, eta
positions, types = payload, payload + 3 * 24 * n + 12 * n
lists = types + 8 * n
assert b[lists] == 1, "the sample has list state"
since_build = lists + 1 + 4 * n + 24 * n
if field == "position":
    struct.pack_into("<d", b, positions, float(value))
elif field == "type":
    struct.pack_into("<I", b, types, int(value))
elif field == "has_lists":
    b[lists] = int(value)
elif field == "steps_since_build":
    struct.pack_into("<I", b, since_build, int(value))
h = 0xcbf29ce484222325
for c in b[20:-8]:
    h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
struct.pack_into("<Q", b, len(b) - 8, h)
open(out, "wb").write(b)
PY
}
forge "$work/far.ckpt" position 1e300
refused_in_time "particle 0 (tag 0) has position (1e+300" --restart "$work/far.ckpt"
forge "$work/since.ckpt" steps_since_build 4294967295
refused_in_time "steps_since_build = 4294967295 is more than its step 20" --restart "$work/since.ckpt"
forge "$work/flag.ckpt" has_lists 7
refused_in_time "has_lists = 7" --restart "$work/flag.ckpt"
forge "$work/type.ckpt" type 3
refused_in_time "has type 3; the run has 1 type (0 .. 0)" --restart "$work/type.ckpt"
# The untouched file still continues.
timeout 60 "$bin" run "${select[@]}" --steps 40 --restart "$work/good.ckpt" --quiet > /dev/null
echo "restart inputs ok"
