#!/usr/bin/env bash
# mesobench ibi on the CPU reference, small: the target is the zero-density
# g(r) = exp(-V_LJ / kT) of a shifted LJ, so the potential of mean force the
# loop starts from is that LJ, with its minimum at 2^(1/6) (the bin centred at
# 1.125); one correction runs, the table file is written and read back, the
# JSON is an ibi result. Refused (exit 2, the value named): a target of too
# few bins, bins off the grid from r = 0, a box too small for the target, a
# keyword of two words, the output over the target. Then a melt (pair, bond
# and angle potentials together) from the analytic melt's targets, and its
# refusals: one of the two bonded targets, one of the two bonded outputs,
# --n, a melt option without the melt, --json with --melt-targets, no
# target, a box too small, an angle target beyond 180 degrees.
# Usage: ibi.sh <mesobench>
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/expect_refused.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
python3 - "$t/g.txt" <<'P'
import math, sys
kT, dr = 1.5, 0.05
with open(sys.argv[1], "w") as f:
    f.write("# g(r) = exp(-V_LJ / kT), LJ shifted at 2.5, kT = 1.5\n")
    for i in range(60):
        r = (i + 0.5) * dr
        v = 4 * (r**-12 - r**-6) - 4 * (2.5**-12 - 2.5**-6) if r < 2.5 else 0.0
        f.write(f"{r:.6f} {math.exp(-v / kT) if v / kT < 700 else 0.0:.10g}\n")
P
args=(ibi --backend cpu --rho 0.1 --kT 1.5 --n 300 --equilibrate 200 --samples 20 --every 5 -q)
"$bin" "${args[@]}" --target "$t/g.txt" --iterations 1 -o "$t/out.table" --json "$t/ibi.json" > "$t/log.txt"
cat "$t/log.txt"
grep -q '^IBI$' "$t/out.table" && grep -q '^N 1000 RSQ 0.025' "$t/out.table" || { echo "FAIL: table header"; exit 1; }
python3 - "$t/ibi.json" <<'P'
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "ibi" and len(d["iterations"]) == 2, d.keys()
for it in d["iterations"]:
    assert 0 <= it["difference"] < 0.5, it["difference"]
v0, r = d["iterations"][0]["v"], d["r"]
lowest = min(range(len(v0)), key=lambda i: v0[i])
assert abs(r[lowest] - 2 ** (1 / 6)) < 0.03, r[lowest]
assert abs(v0[-1]) < 1e-12  # shifted to 0 at the cutoff
print("ok: ibi json", [round(it["difference"], 4) for it in d["iterations"]], "minimum at", r[lowest])
P
rc=0; python3 "$here/../../scripts/validate_results.py" "$t/ibi.json" || rc=$?
[[ $rc -eq 0 || $rc -eq 77 ]] || { echo "FAIL: the JSON does not validate"; exit 1; }

head -4 "$t/g.txt" > "$t/short.txt"
expect_refused "has 3 bins" "${args[@]}" --target "$t/short.txt" -o "$t/x.table"
sed '5s/^0.175000/0.180000/' "$t/g.txt" > "$t/off.txt"
expect_refused "is not the centre" "${args[@]}" --target "$t/off.txt" -o "$t/x.table"
expect_refused "use --n of at least" ibi --backend cpu --rho 0.1 --n 20 --target "$t/g.txt" -o "$t/x.table"
expect_refused "must be one word" "${args[@]}" --target "$t/g.txt" -o "$t/x.table" --keyword "two words"
expect_refused "--output" "${args[@]}" --target "$t/g.txt" -o "$t/g.txt"
[[ ! -e "$t/x.table" ]] || { echo "FAIL: a refused run wrote its table"; exit 1; }

# The melt: the analytic melt's targets (--melt-targets), then one correction
# of its pair, bond and angle potentials; three tables and the JSON.
melt=(ibi --backend cpu --rho 3 --chains 24 --chain-length 8 --equilibrate 200 -q)
"$bin" "${melt[@]}" --samples 200 --every 20 --melt-targets "$t/m" > "$t/log.txt"  # targets of low noise
melt+=(--samples 10 --every 10)
for f in g bond angle; do [[ -s "$t/m.$f.txt" ]] || { echo "FAIL: no m.$f.txt"; exit 1; }; done
loop=("${melt[@]}" --target "$t/m.g.txt" --bond-target "$t/m.bond.txt" --angle-target "$t/m.angle.txt")
"$bin" "${loop[@]}" --iterations 1 -o "$t/p.table" --bond-output "$t/b.table" --angle-output "$t/a.table" \
  --json "$t/melt.json" > "$t/log.txt"
cat "$t/log.txt"
grep -Eq '^N 1000 RSQ 1(\.0*1)?e-05 1\.49$' "$t/p.table" && grep -q '^N 1000$' "$t/b.table" && grep -q '^1 0 ' "$t/a.table" \
  || { echo "FAIL: melt table headers"; exit 1; }
python3 - "$t/melt.json" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["parameters"]["N"] == 192 and len(d["iterations"]) == 2, d["parameters"]
for it in d["iterations"]:
    for k in ("bond", "angle"):
        assert 0 <= it[k]["difference"] < 1 and len(it[k]["p"]) == len(d["melt"][k]["x"]), k
assert d["melt"]["angle"]["x"][-1] < 180 and len(d["melt"]["bond"]["p_target"]) == 80
print("ok: melt json", [[round(it[k]["difference"], 3) for k in ("bond", "angle")] for it in d["iterations"]])
P
rc=0; python3 "$here/../../scripts/validate_results.py" "$t/melt.json" || rc=$?
[[ $rc -eq 0 || $rc -eq 77 ]] || { echo "FAIL: the melt JSON does not validate"; exit 1; }
# table-melt on these tables: a checkpoint knows the tables' contents, so a
# --restart after a table was edited is refused; the same tables continue.
tm=(run --filter 'table-melt.*N=10000$' --backend cpu -q --param length=8 --param N=400 --param pair_table="$t/p.table"
    --param bond_table="$t/b.table" --param angle_table="$t/a.table")
"$bin" "${tm[@]}" --steps 20 --checkpoint "$t/tm.ckpt" > "$t/log.txt"
cp "$t/b.table" "$t/b.orig"
echo "# edited" >> "$t/b.table"
expect_refused "is from another run: its setup has" "${tm[@]}" --steps 40 --restart "$t/tm.ckpt"
mv "$t/b.orig" "$t/b.table"
"$bin" "${tm[@]}" --steps 40 --restart "$t/tm.ckpt" > "$t/log.txt" || { echo "FAIL: table-melt restart"; exit 1; }
echo "ok: table-melt checkpoints carry the tables' digests"
out=(-o "$t/y.table" --bond-output "$t/yb.table" --angle-output "$t/ya.table")
expect_refused "needs both --bond-target and --angle-target" "${melt[@]}" --target "$t/m.g.txt" \
  --bond-target "$t/m.bond.txt" "${out[@]}"
expect_refused "give both" "${loop[@]}" -o "$t/y.table" --bond-output "$t/yb.table"
expect_refused "--n is the fluid's" "${loop[@]}" "${out[@]}" --n 500
expect_refused "--bond-output is the melt's" "${args[@]}" --target "$t/g.txt" -o "$t/y.table" \
  --bond-output "$t/yb.table"
expect_refused "belongs to the IBI loop" "${melt[@]}" --melt-targets "$t/z" --json "$t/z.json"
expect_refused "needs --target and -o" "${melt[@]}"
expect_refused "less than twice the target's r_max" ibi --backend cpu --rho 3 --chains 4 --chain-length 8 \
  --target "$t/m.g.txt" --bond-target "$t/m.bond.txt" --angle-target "$t/m.angle.txt" "${out[@]}"
awk '/^#/ {next} {printf "%.6f %s\n", $1 + 1.0, $2}' "$t/m.angle.txt" > "$t/beyond.txt"
expect_refused "beyond 180" "${loop[@]/$t\/m.angle.txt/$t/beyond.txt}" "${out[@]}"
[[ ! -e "$t/y.table" && ! -e "$t/yb.table" && ! -e "$t/z.g.txt" ]] || { echo "FAIL: a refused melt wrote"; exit 1; }
echo "ibi.sh: all ok"
