#!/usr/bin/env bash
# mesobench compare: ratios and the U test by hand on synthetic results, the
# noise-aware verdict (a change beyond the threshold is a REGRESSION only when
# the U test rejects at --alpha and the change exceeds the repeats' spread;
# otherwise "inconclusive" with the reason, exit 0), the exit code as a gate
# (4 on a significant regression only), --across-variants, validation
# verdicts, 100 columns, and refused input (exit 2, the file named).
# Usage: compare.sh <mesobench>
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/expect_refused.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# A: TPS 1..5 x 100 (median 300); B: 6..10 x 100 (median 800), and a case
# only in each. U test by hand: U = 0, mean 12.5, variance 5*5*11/12,
# z = (12.5 - 0.5) / 4.787 = 2.507, p = erfc(z / sqrt 2) = 0.012.
cat > "$t/a.json" <<'J'
{"results": [{"name": "w/k/cpu/v/N=1", "tps_median": 300, "tps": [100, 200, 300, 400, 500]},
             {"name": "w/k/cpu/v/N=2", "tps_median": 1000, "tps": [1000, 1000]},
             {"name": "only-a", "tps_median": 1, "tps": [1]}]}
J
cat > "$t/b.json" <<'J'
{"results": [{"name": "w/k/cpu/v/N=1", "tps_median": 800, "tps": [600, 700, 800, 900, 1000]},
             {"name": "w/k/cpu/v/N=2", "tps_median": 930, "tps": [930, 930]},
             {"name": "only-b", "tps_median": 1, "tps": [1]}]}
J
out=$("$bin" compare "$t/a.json" "$t/b.json" --threshold 10)  # N=2 dropped 7%: within 10
echo "$out"
grep -q 'w/k/cpu/v/N=1 .* 300.0 .* 800.0 .* 2.667 .*+166.7% .*0.012  faster$' <<< "$out" || { echo "FAIL: ratio/U test"; exit 1; }
grep -q 'w/k/cpu/v/N=2 .* 0.930 .* -7.0% .*n/a$' <<< "$out" || { echo "FAIL: small-sample row"; exit 1; }
grep -q 'only-a .*only in A' <<< "$out" && grep -q 'only-b .*only in B' <<< "$out" || { echo "FAIL: unmatched"; exit 1; }
# Two repeats a side: a 7% drop beyond --threshold 5 cannot be told from noise.
"$bin" compare "$t/a.json" "$t/b.json" --threshold 5 > "$t/out" || { echo "FAIL: exit $? without a test"; exit 1; }
grep -q 'N=2 .*n/a  inconclusive$' "$t/out" && grep -q 'N=2: fewer than 3 repeats a side' "$t/out" \
  || { echo "FAIL: 2 repeats not inconclusive"; cat "$t/out"; exit 1; }
echo "ok: a 7% drop of 2 repeats is inconclusive at --threshold 5 (exit 0)"

# Five repeats a side (p = 0.012 when every B is below every A):
#  sig: -20%, spread 4% each: REGRESSION, exit 4;
#  overlap: -15% with the repeats interleaved (the shared machine of issue 58):
#    U = 15, z = (15 - 12.5 - 0.5) / 4.787 = 0.418, p = 0.676: inconclusive;
#  spread: -9.8% and p = 0.012, but A's repeats spread over 98%: inconclusive.
cat > "$t/na.json" <<'J'
{"results": [{"name": "sig", "tps_median": 1020, "tps": [1000, 1010, 1020, 1030, 1040]},
             {"name": "overlap", "tps_median": 200, "tps": [100, 150, 200, 250, 300]},
             {"name": "spread", "tps_median": 102, "tps": [100, 101, 102, 103, 200]}]}
J
cat > "$t/nb.json" <<'J'
{"results": [{"name": "sig", "tps_median": 820, "tps": [800, 810, 820, 830, 840]},
             {"name": "overlap", "tps_median": 170, "tps": [90, 140, 170, 240, 290]},
             {"name": "spread", "tps_median": 92, "tps": [90, 91, 92, 93, 94]}]}
J
rc=0; "$bin" compare "$t/na.json" "$t/nb.json" > "$t/out" || rc=$?
cat "$t/out"
[[ $rc -eq 4 ]] || { echo "FAIL: a significant 20% drop exited $rc, not 4"; exit 1; }
grep -q '^sig .* -19.6% .* 0.012  REGRESSION$' "$t/out" || { echo "FAIL: sig row"; exit 1; }
grep -q '^overlap .* -15.0% .* 0.676  inconclusive$' "$t/out" || { echo "FAIL: overlap row"; exit 1; }
grep -q '^  overlap: p(U) = 0.676 >= alpha 0.05$' "$t/out" || { echo "FAIL: overlap reason"; exit 1; }
grep -q '^  spread: the change is within the repeats. spread of 98.0%$' "$t/out" || { echo "FAIL: spread reason"; exit 1; }
grep -q '^1 regression(s) beyond 5.0% at alpha 0.05, 2 inconclusive$' "$t/out" || { echo "FAIL: summary"; exit 1; }
# A stricter alpha makes the 20% drop inconclusive too: exit 0.
"$bin" compare "$t/na.json" "$t/nb.json" --alpha 0.01 > "$t/out" || { echo "FAIL: --alpha 0.01 exited $?"; exit 1; }
grep -q '^  sig: p(U) = 0.012 >= alpha 0.01$' "$t/out" || { echo "FAIL: --alpha reason"; cat "$t/out"; exit 1; }
# The same file twice: no change, no verdict, exit 0.
"$bin" compare "$t/na.json" "$t/na.json" > "$t/out" || { echo "FAIL: a file against itself exited $?"; exit 1; }
grep -q '^0 regression(s) beyond 5.0% at alpha 0.05$' "$t/out" || { echo "FAIL: self summary"; exit 1; }
echo "ok: REGRESSION only when significant and beyond the spread; inconclusive with its reason"

# Two variants of one case: matched by name without the variant part.
long=dpd-fluid/step/cpu/reorder=cell,sort=100,precision=double,rng=philox/rho=3/rc=1/s=0.5/N=8192
printf '{"results": [{"name": "%s", "tps_median": 1020, "tps": [1000, 1010, 1020, 1030, 1040]}]}\n' "$long" \
  > "$t/va1.json"
printf '{"results": [{"name": "%s", "tps_median": 820, "tps": [800, 810, 820, 830, 840]}]}\n' \
  "${long/reorder=cell,sort=100/reorder=none,sort=0}" > "$t/va2.json"
expect_refused "have no case in common" compare "$t/va1.json" "$t/va2.json"
rc=0; "$bin" compare "$t/va1.json" "$t/va2.json" --across-variants > "$t/out" || rc=$?
[[ $rc -eq 4 ]] && grep -q 's=0.5/N=8192 .*REGRESSION$' "$t/out" || { echo "FAIL: --across-variants"; cat "$t/out"; exit 1; }
awk 'length > 100 { print "FAIL: a line of " length " columns: " $0; bad = 1 } END { exit bad }' "$t/out"
printf '{"results": [{"name": "w/k/cpu/a/N=1", "tps_median": 1}, {"name": "w/k/cpu/b/N=1", "tps_median": 1}]}\n' \
  > "$t/two.json"
expect_refused "differ only in their variant" compare "$t/two.json" "$t/two.json" --across-variants
expect_refused "--alpha = 0 is invalid" compare "$t/na.json" "$t/nb.json" --alpha 0
echo "ok: --across-variants, 100 columns"

# Validation: PASS -> FAIL is a regression.
cat > "$t/va.json" <<'J'
{"cases": [{"name": "gate-x", "measured": 1.0, "passed": true}]}
J
cat > "$t/vb.json" <<'J'
{"cases": [{"name": "gate-x", "measured": 2.0, "passed": false}]}
J
rc=0; "$bin" compare "$t/va.json" "$t/vb.json" > "$t/out" || rc=$?
[[ $rc -eq 4 ]] && grep -q 'gate-x .*PASS .*FAIL  REGRESSION' "$t/out" || { echo "FAIL: validation regression"; exit 1; }
"$bin" compare "$t/vb.json" "$t/va.json" > /dev/null || { echo "FAIL: FAIL -> PASS is no regression"; exit 1; }
echo "ok: validation PASS -> FAIL is a regression"

echo '{"nothing": 1}' > "$t/bad.json"
echo 'not json' > "$t/broken.json"
expect_refused "bad.json' is neither" compare "$t/a.json" "$t/bad.json"
expect_refused "broken.json' is not valid JSON" compare "$t/broken.json" "$t/a.json"
expect_refused "compare like with like" compare "$t/a.json" "$t/va.json"
expect_refused "--threshold = -1" compare "$t/a.json" "$t/b.json" --threshold -1
expect_refused "File does not exist" compare "$t/a.json" "$t/missing.json"
# compare never passes silently: every one of these once exited 0 with
# "0 regression(s)", so a CI gate built on it passed with nothing compared.
echo '{"results": []}' > "$t/empty.json"
echo '{"kind": "benchmark", "schema_version": 999, "results": [{"name": "x", "tps_median": 1}]}' > "$t/future.json"
echo '{"kind": "movie", "results": [{"name": "x", "tps_median": 1}]}' > "$t/kind.json"
echo '{"results": [{"tps_median": 1}]}' > "$t/noname.json"
echo '{"results": [{"name": "x", "tps_median": 1}, {"name": "x", "tps_median": 2}]}' > "$t/twice.json"
echo '{"results": [{"name": "elsewhere", "tps_median": 1}]}' > "$t/other.json"
echo '{"results": [{"name": "w/k/cpu/v/N=1", "tps_median": "fast"}]}' > "$t/string.json"
expect_refused "empty.json': \"results\" holds no case" compare "$t/a.json" "$t/empty.json"
expect_refused "\"schema_version\" 999 is not one this mesobench reads" compare "$t/future.json" "$t/future.json"
expect_refused "\"kind\" is \"movie\"" compare "$t/kind.json" "$t/kind.json"
expect_refused "noname.json': results[0] has no \"name\"" compare "$t/a.json" "$t/noname.json"
expect_refused "case 'x' appears twice" compare "$t/twice.json" "$t/twice.json"
expect_refused "have no case in common: nothing was compared" compare "$t/a.json" "$t/other.json"
expect_refused "\"tps_median\" is \"fast\", not a number" compare "$t/string.json" "$t/a.json"
# Found by the results-JSON fuzzer: a verdict that is not a boolean was an
# internal error (exit 1, a json type_error).
echo '{"cases": [{"name": "gate-x", "measured": 1.0, "passed": 0.001}]}' > "$t/verdict.json"
expect_refused "\"passed\" is 0.001, not true or false" compare "$t/verdict.json" "$t/va.json"
echo "compare: all ok"
