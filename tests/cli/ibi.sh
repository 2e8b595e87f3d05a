#!/usr/bin/env bash
# mesobench ibi on the CPU reference, small: the target is the zero-density
# g(r) = exp(-V_LJ / kT) of a shifted LJ, so the potential of mean force the
# loop starts from is that LJ, with its minimum at 2^(1/6) (the bin centred at
# 1.125); one correction runs, the table file is written and read back, the
# JSON is an ibi result. Refused (exit 2, the value named): a target of too
# few bins, bins off the grid from r = 0, a box too small for the target, a
# keyword of two words, the output over the target.
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
echo "ibi.sh: all ok"
