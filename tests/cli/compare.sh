#!/usr/bin/env bash
# mesobench compare: ratios and the U test by hand on synthetic results, the
# exit code as a gate (4 on a regression beyond the threshold, 0 otherwise),
# validation verdicts, and refused input (exit 2, the file named).
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
grep -q 'w/k/cpu/v/N=1 .* 300.0 .* 800.0 .* 2.667 .*+166.7% .*0.012' <<< "$out" || { echo "FAIL: ratio/U test"; exit 1; }
grep -q 'w/k/cpu/v/N=2 .* 0.930 .* -7.0% .*n/a$' <<< "$out" || { echo "FAIL: small-sample row"; exit 1; }
grep -q 'only-a .*only in A' <<< "$out" && grep -q 'only-b .*only in B' <<< "$out" || { echo "FAIL: unmatched"; exit 1; }
rc=0; "$bin" compare "$t/a.json" "$t/b.json" --threshold 5 > "$t/out" || rc=$?
[[ $rc -eq 4 ]] && grep -q 'N=2 .*REGRESSION' "$t/out" || { echo "FAIL: regression exit $rc"; cat "$t/out"; exit 1; }
echo "ok: a 7% drop is a regression at --threshold 5 (exit 4)"

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
