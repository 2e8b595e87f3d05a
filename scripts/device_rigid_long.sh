#!/usr/bin/env bash
# The nve-drift-rigid and nve-drift-rigid-ssd long forms (8 repeats of 10^7 steps each) on one
# GPU over several calls: every call continues the shards the last one left
# (.carry/rigid-long.tar.xz, the previous call's $OUT/rigid-long.tar.xz copied back), runs all 16
# side by side under MPS until DEADLINE (560 s), and packs the shard files (finished, or
# incomplete with their checkpoints) into $OUT/rigid-long.tar.xz. When every shard is finished,
# `mesobench validate --merge` of each case's 8 shards gives the gate.
# CASES and PRECS choose (default: both cases, mixed); LONG_STEPS shortens new shards' NVE runs.
# Usage: scripts/device_rigid_long.sh <output dir>
set -u
O=$1
PARTS=" "
. scripts/device_carried.sh
mkdir -p "$O/shards"
[[ -f .carry/rigid-long.tar.xz ]] && tar xJf .carry/rigid-long.tar.xz -C "$O/shards"
PER_GPU=${PER_GPU:-16} DEADLINE=${DEADLINE:-560} bash scripts/device_long_forms.sh rigid "$BIN" "$O/shards" \
  ${CASES:+"$CASES"} ${PRECS:+"$PRECS"} > "$O/long-forms.log" 2>&1
stamp "rigid long forms rc=$? $(tail -2 "$O/shards/status.txt" | tr '\n' ' ')"
tar cf - -C "$O/shards" . | xz -6 -T16 > "$OUT/rigid-long.tar.xz"
