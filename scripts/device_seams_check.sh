#!/usr/bin/env bash
# The device check of a refactor that must not change behaviour (workloads
# as registered styles, the step rules written once), in one device call:
#  1. builds the tree before the refactor (a `git archive` tarball) and the
#     working tree, both for sm_90, at once;
#  2. the GPU tests of the working tree: kernels_test, and the decomposition
#     tests on 1, 2 and 4 ranks sharing the GPU;
#  3. bitwise: every workload's default on cuda run for 1000 steps (srd-fluid:
#     collisions) with a checkpoint, before and after; the checkpoints must be
#     the same bytes (mdscf-dppc: the final thermo of the JSON to the last
#     digit, since its checkpoint no longer carries a list state it never had);
#     plus srd-fluid with reorder=cell,sort=0, whose meaning changed (now
#     every collision, bitwise the unsorted run in tag order);
#  4. compute-sanitizer memcheck (graphs) and racecheck (MESO_CUDA_GRAPHS=0)
#     of the step control on short runs of dpd-fluid and lj-liquid;
#  5. speed: the defaults of dpd-fluid N = 1M, lj-liquid 64000, srd-fluid
#     L = 50 and mdscf-dppc 20k, before and after interleaved twice.
# Usage: scripts/device_seams_check.sh <before source tarball> <output dir>
# (the output dir is packed into <output dir>.tgz at the end)
set -u
TGZ=$1
O=$2
mkdir -p "$O"
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*" | tee -a "$O/log.txt"; }
nvidia-smi -L > "$O/gpus.txt" 2>&1
BEFORE=/tmp/before-src
mkdir -p "$BEFORE" && tar xzf "$TGZ" -C "$BEFORE"
cfg=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMESO_ENABLE_CUDA=ON -DMESO_REQUIRE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90)
cmake -S "$BEFORE" -B "$BEFORE/build" "${cfg[@]}" > "$O/build-before.log" 2>&1
cmake -S . -B build/device "${cfg[@]}" > "$O/build-after.log" 2>&1
cmake --build "$BEFORE/build" -j 8 --target mesobench >> "$O/build-before.log" 2>&1 &
cmake --build build/device -j 10 --target mesobench kernels_test decomposition_gpu_test >> "$O/build-after.log" 2>&1
stamp "build after rc=$?"
wait
stamp "build before rc=$?"
B=$BEFORE/build/bin
A=build/device/bin

# 2. GPU tests: every kernels_test test, and the decomposition tests on 1, 2
# and 4 ranks sharing the GPU (one OpenMP thread a rank).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
counts() { echo "$(grep -c '^\[       OK \]' "$1") ok, $(grep -c '^\[  FAILED  \]' "$1") failed, $(grep -c '^\[  SKIPPED \]' "$1") skipped"; }
timeout 300 "$A/kernels_test" --gtest_color=no > "$O/gpu-tests.log" 2>&1
stamp "kernels_test rc=$? $(counts "$O/gpu-tests.log")"
for r in 1 2 4; do
  timeout 200 mpirun -np $r --oversubscribe --bind-to none "$A/decomposition_gpu_test" --gtest_color=no \
    > "$O/decomposition-gpu-$r.log" 2>&1
  stamp "decomposition_gpu_test on $r ranks rc=$? $(counts "$O/decomposition-gpu-$r.log")"
done
unset OMP_NUM_THREADS

# 3. bitwise, before against after
: > "$O/bitwise.txt"
ck() {  # ck <tag> <filter> [extra args]
  local tag=$1 filter=$2
  shift 2
  for side in before after; do
    local bin=$B
    [[ $side == after ]] && bin=$A
    "$bin/mesobench" run --backend cuda --filter "$filter" --steps 1000 "$@" --checkpoint "$O/ck-$tag-$side.ckpt" \
      --json "$O/ck-$tag-$side.json" > "$O/ck-$tag-$side.txt" 2>&1
  done
  local verdict=DIFFERENT
  cmp -s "$O/ck-$tag-before.ckpt" "$O/ck-$tag-after.ckpt" && verdict="IDENTICAL checkpoint"
  if [[ $verdict == DIFFERENT ]] && python3 - "$O/ck-$tag-before.json" "$O/ck-$tag-after.json" <<'PY'; then
import json, sys
a, b = (json.load(open(p))["results"][0] for p in sys.argv[1:3])
sys.exit(0 if a["final_thermo"] == b["final_thermo"] and a["N"] == b["N"] else 1)
PY
    verdict="IDENTICAL final thermo (checkpoint bytes differ)"
  fi
  echo "$verdict  $tag: $filter $*" >> "$O/bitwise.txt"
  rm -f "$O/ck-$tag-before.ckpt" "$O/ck-$tag-after.ckpt"
}
ck dpd 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$'
ck dpd-double 'dpd-fluid/.*/rho=3/rc=1/.*N=262144$' --variant precision=double
ck dpd-fixed 'dpd-fluid/.*/rho=3/rc=1/.*N=262144$' --param rebuild_every=7
ck lj 'lj-liquid'
ck srd 'srd-fluid.*L=50$'
ck dppc 'mdscf-dppc.*lipids=528/'
cat "$O/bitwise.txt"
# sort=0 on the solvent: every collision now; sorting is neutral in tag
# order, so the three runs end in the same state (the final thermo to the
# last digit; the checkpoints differ only in the variant they record).
for v in none cell0 cell1; do
  case $v in none) var=reorder=none ;; cell0) var=reorder=cell,sort=0 ;; cell1) var=reorder=cell,sort=1 ;; esac
  "$A/mesobench" run --backend cuda --filter 'srd-fluid.*L=10$' --param L=20 --steps 200 --variant "precision=mixed,$var" \
    --json "$O/sort-$v.json" > "$O/sort-$v.txt" 2>&1
done
python3 - "$O" <<'PY' | tee -a "$O/bitwise.txt"
import json, sys
o = sys.argv[1]
t = {v: json.load(open(f"{o}/sort-{v}.json"))["results"][0]["final_thermo"] for v in ("none", "cell0", "cell1")}
same = t["none"] == t["cell0"] == t["cell1"]
print(("IDENTICAL" if same else "DIFFERENT") + "  srd-fluid L=20 mixed, 200 collisions: reorder=none, reorder=cell,sort=0, "
      "reorder=cell,sort=1 final thermo", t["cell0"])
PY

# 4. sanitizers on the working tree
CS=compute-sanitizer; command -v $CS > /dev/null || CS=/usr/local/cuda/bin/compute-sanitizer
san() {  # san <tool> <name> <filter> [args]
  local tool=$1 name=$2 filter=$3
  shift 3
  timeout 120 $CS --tool "$tool" --error-exitcode 9 "$A/mesobench" run --backend cuda --filter "$filter" --steps 60 "$@" \
    > "$O/sanitizer-$tool-$name.log" 2>&1
  stamp "sanitizer $tool $name graphs=${MESO_CUDA_GRAPHS:-1} rc=$? $(grep -c 'ERROR SUMMARY: 0 errors\|RACECHECK SUMMARY: 0 hazards' "$O/sanitizer-$tool-$name.log")"
}
for tool in memcheck racecheck; do
  [[ $tool == racecheck ]] && export MESO_CUDA_GRAPHS=0 || unset MESO_CUDA_GRAPHS
  san $tool dpd 'dpd-fluid/.*/rho=3/rc=1/.*N=8192$' --variant sort=5
  san $tool dpd-fixed 'dpd-fluid/.*/rho=3/rc=1/.*N=8192$' --param rebuild_every=3
  san $tool lj 'lj-liquid' --param N=4000
done
unset MESO_CUDA_GRAPHS

# 5. speed, before and after interleaved
R=(--backend cuda --repeats 5 --min-time 0.3 --warmup-time 0.3)
for round in 1 2; do
  for side in before after; do
    bin=$B
    [[ $side == after ]] && bin=$A
    "$bin/mesobench" run "${R[@]}" --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=1048576$' --json "$O/tps-dpd-$side-$round.json" > /dev/null 2>&1
    "$bin/mesobench" run "${R[@]}" --filter 'lj-liquid' --json "$O/tps-lj-$side-$round.json" > /dev/null 2>&1
    "$bin/mesobench" run "${R[@]}" --filter 'srd-fluid.*L=50$' --json "$O/tps-srd-$side-$round.json" > /dev/null 2>&1
    "$bin/mesobench" run "${R[@]}" --filter 'mdscf-dppc.*lipids=528/' --json "$O/tps-dppc-$side-$round.json" > /dev/null 2>&1
  done
  stamp "speed round $round"
done
python3 - "$O" <<'PY' | tee "$O/tps-summary.txt"
import glob, json, os, statistics, sys
out = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(out, "tps-*-*-*.json"))):
    case, side, _ = os.path.basename(f)[4:-5].rsplit("-", 2)
    try:
        r = json.load(open(f))["results"][0]
    except Exception as e:
        print(f"{f}: unreadable ({e})")
        continue
    rows.setdefault(case, {}).setdefault(side, []).append((r["tps_median"], r["tps_min"], r["tps_max"]))
print(f"{'case':6} {'before TPS':>12} {'after TPS':>12} {'after/before':>13}  (per round: median min..max)")
for case, d in rows.items():
    b = statistics.median(x[0] for x in d.get("before", [(float("nan"),) * 3]))
    a = statistics.median(x[0] for x in d.get("after", [(float("nan"),) * 3]))
    print(f"{case:6} {b:12.1f} {a:12.1f} {a / b:13.4f}  before {d.get('before')} after {d.get('after')}")
PY
stamp done
tar czf "$O.tgz" -C "$(dirname "$O")" "$(basename "$O")" && rm -rf "$O"
