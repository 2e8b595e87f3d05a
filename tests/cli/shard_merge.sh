#!/usr/bin/env bash
# Sharded validation: a case run as two shards and joined with --merge gives
# exactly the result of the unsplit run (repeat k has the same seed in any
# shard), and a wrong set of shards is refused with a message naming it.
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Tiny poiseuille-transient: 2 repeats to T = 200 (short-form box), one short
# steady run for nu. A few seconds on the CPU.
case_args=(validate --filter poiseuille-transient --backend cpu --param runs=2 --param max_time=200
           --param steady_runs=1 --param steady_production=20)
"$bin" "${case_args[@]}" --json "$work/whole.json" > "$work/whole.txt"
"$bin" "${case_args[@]}" --shard 0/2 --json "$work/s0.json" > "$work/s0.txt"
"$bin" "${case_args[@]}" --shard 1/2 --json "$work/s1.json" > "$work/s1.txt"
grep -q 'SHARD' "$work/s0.txt"
"$bin" validate --merge "$work/s1.json" "$work/s0.json" --json "$work/merged.json" > "$work/merged.txt"
python3 - "$work/whole.json" "$work/merged.json" <<'PY'
import json, sys
whole, merged = (json.load(open(p)) for p in sys.argv[1:3])
(a,), (b,) = whole["cases"], merged["cases"]
assert a["measured"] == b["measured"] and a["tolerance"] == b["tolerance"], (a["measured"], b["measured"])
assert a["passed"] == b["passed"]
for ta, tb in zip(a["data"]["times"], b["data"]["times"]):
    assert ta["profile"] == tb["profile"] and ta["l2_relative"] == tb["l2_relative"]
assert [r["run"] for r in b["data"]["per_run"]] == [0, 1]
assert [s["index"] for s in merged["merged_from"]] == [0, 1]
print("shard/merge ok: L2 =", b["measured"])
PY

source "$(dirname "$0")/expect_refused.sh"
expect_refused "shards {0} of 2 are missing" validate --merge "$work/s1.json"
expect_refused "given twice" validate --merge "$work/s0.json" "$work/s0.json" "$work/s1.json"
expect_refused "is not a shard" validate --merge "$work/whole.json" "$work/s0.json"
# The merged result may not replace one of its shards.
cp "$work/s0.json" "$work/s0-keep.json"
expect_refused "is the same file as --merge" validate --merge "$work/s0.json" "$work/s1.json" --json "$work/s0.json"
cmp "$work/s0.json" "$work/s0-keep.json" || { echo "FAIL: a refused merge changed a shard"; exit 1; }
expect_refused "I/N with 0 <= I < N" "${case_args[@]}" --shard 2/2
expect_refused "fewer than the 3 shards" "${case_args[@]}" --shard 0/3
expect_refused "cannot be sharded" validate --filter dpd-temperature --shard 0/2
python3 - "$work/s1.json" "$work/other.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["seed"] = 2
json.dump(d, open(sys.argv[2], "w"))
PY
expect_refused "shards of different runs" validate --merge "$work/s0.json" "$work/other.json"
# Each case records the variant it ran (on a GPU its workload's default); shards whose case
# ran another variant are of different runs, and the merged result records the shards' one.
python3 - "$work/whole.json" "$work/s1.json" "$work/other.json" <<'PY'
import json, sys
whole = json.load(open(sys.argv[1]))
(c,) = whole["cases"]
assert c["variant"] == whole["variant"] and c["precision"] == "double" and c["workload"] == "dpd-fluid", c
assert whole["variant_given"] == "", whole["variant_given"]
d = json.load(open(sys.argv[2])); d["cases"][0]["variant"] = "precision=single"
json.dump(d, open(sys.argv[3], "w"))
PY
expect_refused "ran poiseuille-transient in variant" validate --merge "$work/s0.json" "$work/other.json"
python3 - "$work/merged.json" "$work/whole.json" <<'PY'
import json, sys
merged, whole = (json.load(open(p)) for p in sys.argv[1:3])
assert merged["cases"][0]["variant"] == whole["cases"][0]["variant"] == merged["variant"]
assert merged["precision"] == merged["cases"][0]["precision"] == "double"
PY
python3 - "$work/s1.json" "$work/broken.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); del d["shard"]["count"]
json.dump(d, open(sys.argv[2], "w"))
PY
expect_refused "is not a \`mesobench validate\` result" validate --merge "$work/s0.json" "$work/broken.json"
