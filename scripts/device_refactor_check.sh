#!/usr/bin/env bash
# The before/after check of a refactor that must not change behaviour
# (issue 18, backends as composed operations), in one device call:
#  1. bitwise: trajectory_digest (benchmarks/tools/) runs 1000 steps of the
#     dpd-fluid and lj-liquid workloads on the cpu and cuda backends, default
#     variants and the fast variants, with the build before and after, and
#     compares the state digests printed every 100 steps;
#  2. speed: mesobench run of dpd-fluid N = 1M and lj-liquid N = 64000
#     (default and fast variants), before and after interleaved three times
#     each, so that both see the same machine state.
# The script needs bash (process substitution).
# Usage: scripts/device_refactor_check.sh <before bin dir> <after bin dir> <output dir>
set -u
BEF=$1
AFT=$2
O=$3
mkdir -p "$O"
nvidia-smi -L > "$O/gpus.txt" 2>&1
: > "$O/bitwise.txt"
digest() {  # digest <name> <workload> <N> <backend> <variant>
  local name=$1
  shift
  local b="$O/digest-$name-before.txt" a="$O/digest-$name-after.txt" r="$O/digest-$name-before-again.txt"
  "$BEF/trajectory_digest" "$@" 1000 100 > "$b" 2>&1
  "$AFT/trajectory_digest" "$@" 1000 100 > "$a" 2>&1
  "$BEF/trajectory_digest" "$@" 1000 100 > "$r" 2>&1
  # The verdict is on the state digests (positions, velocities, forces,
  # images, tags at every 100 steps). The printed energy sums come from an
  # OpenMP reduction on the cpu backend, whose order of partial sums varies
  # from run to run; the same binary run twice says whether they do.
  local state=DIFFERENT sums="energy sums differ"
  if cmp -s <(awk '{print $1, $2, $3, $4}' "$b") <(awk '{print $1, $2, $3, $4}' "$a") &&
     grep -q "^step   1000 digest" "$a"; then
    state=IDENTICAL
  fi
  cmp -s "$b" "$a" && sums="energy sums identical"
  cmp -s "$b" "$r" || sums="$sums (and between two runs before)"
  echo "$state  $name: $* [$sums]" >> "$O/bitwise.txt"
}
FAST_DPD="precision=mixed,reorder=morton2,sort=100,pow=fast,rng=tea,fuse=on"
FAST_LJ="precision=mixed,nlist=tiled,reorder=morton2,sort=100,tpp=4"
digest cpu-dpd dpd-fluid 32768 cpu ""
digest cpu-lj lj-liquid 64000 cpu ""
digest cuda-dpd dpd-fluid 1048576 cuda ""
digest cuda-lj lj-liquid 64000 cuda ""
digest cuda-dpd-fast dpd-fluid 1048576 cuda "$FAST_DPD"
digest cuda-lj-fast lj-liquid 64000 cuda "$FAST_LJ"
digest cuda-dpd-gw dpd-fluid 262144 cuda "precision=mixed,nlist=atomic,cells=sorted,reorder=hilbert,sort=50"
digest cuda-lj-atomic lj-liquid 64000 cuda "precision=double,nlist=atomic,tpp=8"
cat "$O/bitwise.txt"

R="--backend cuda --repeats 5 --min-time 0.3 --warmup-time 0.3"
tps() {  # tps <tag> <bin> <filter> <variant>
  "$2/mesobench" run $R --filter "$3" --variant "$4" --json "$O/tps-$1.json" > "$O/tps-$1.txt" 2>&1
}
for round in 1 2 3; do
  for side in before after; do
    bin=$BEF
    [[ $side == after ]] && bin=$AFT
    tps "dpd-default-$side-$round" "$bin" 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$' ""
    tps "dpd-fast-$side-$round" "$bin" 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$' "$FAST_DPD"
    tps "lj-default-$side-$round" "$bin" 'lj-liquid' ""
    tps "lj-fast-$side-$round" "$bin" 'lj-liquid' "$FAST_LJ"
  done
done
python3 - "$O" <<'PY' | tee "$O/tps-summary.txt"
import glob, json, os, statistics, sys
out = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(out, "tps-*-*-*.json"))):
    tag = os.path.basename(f)[4:-5]          # e.g. dpd-default-before-1
    case, side, _ = tag.rsplit("-", 2)
    try:
        r = json.load(open(f))["results"][0]
    except Exception as e:
        print(f"{tag}: unreadable ({e})")
        continue
    rows.setdefault(case, {}).setdefault(side, []).append(r["tps_median"])
print(f"{'case':14} {'before TPS (median of rounds)':>30} {'after':>12} {'after/before':>13}")
for case, d in rows.items():
    b = statistics.median(d.get("before", [float("nan")]))
    a = statistics.median(d.get("after", [float("nan")]))
    print(f"{case:14} {b:30.1f} {a:12.1f} {a / b:13.4f}   before {d.get('before')} after {d.get('after')}")
PY
