#!/usr/bin/env bash
# What `run` and `validate` print fits 100 columns, and a case is named by
# everything that sets it: the results table shows each case by its label
# (a longer label on a line of its own), the JSON keeps the full name, a
# --param setting the parameter part does not show ends the full name
# (compare must not match runs with different integrators as one case), and
# both commands first say what ran where (version, commit, backend, CPU, GPU).
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
wide() { awk -v f="$1" 'length > 100 { print f ": " length " columns: " $0; bad = 1 } END { exit bad }' "$1"; }

t=(--backend cpu --repeats 2 --min-time 0.02 --warmup-time 0.02 --quiet)
"$bin" run --filter 'dpd-fluid/.*rho=3/rc=1/.*N=8192$' "${t[@]}" --json "$work/plain.json" > "$work/plain.txt"
"$bin" run --filter 'dpd-fluid/.*rho=3/rc=1/.*N=8192$' "${t[@]}" --param integrator=gw --param lambda=0.65 \
  --variant precision=single,reorder=none,sort=0 --json "$work/gw.json" > "$work/gw.txt"
wide "$work/plain.txt" && wide "$work/gw.txt" || fail "output over 100 columns"
name() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["results"][0]["name"])' "$1"; }
[[ $(name "$work/plain.json") == */rho=3/rc=1/s=0.5/N=8192 ]] || fail "plain name $(name "$work/plain.json")"
[[ $(name "$work/gw.json") == */rho=3/rc=1/s=0.5/N=8192/integrator=gw/lambda=0.65 ]] ||
  fail "the --param settings are not in the name: $(name "$work/gw.json")"
grep -q '^dpd-fluid rho=3/rc=1/s=0.5/N=8192  *cpu ' "$work/plain.txt" || fail "no label row:$(cat "$work/plain.txt")"
label='dpd-fluid rho=3/rc=1/s=0.5/N=8192/integrator=gw/lambda=0.65 reorder=none,sort=0,precision=single'
grep -qxF "$label" "$work/gw.txt" || fail "the long label is not on a line of its own:$(cat "$work/gw.txt")"
grep -qE '^ +cpu +8192 ' "$work/gw.txt" || fail "no figures under the long label"
echo "ok: labels in 100 columns, --param settings in the full names"

# compare sees two cases, not one case slower or faster.
"$bin" compare "$work/plain.json" "$work/gw.json" > "$work/cmp.txt" 2>&1 && fail "compare matched them" || true
grep -q "no case in common" "$work/cmp.txt" || fail "compare: $(cat "$work/cmp.txt")"
echo "ok: compare keeps them apart"

for f in plain gw; do
  head -1 "$work/$f.txt" | grep -qE '^mesobench .* \(.*\)  backend cpu$' || fail "run header: $(head -2 "$work/$f.txt")"
  sed -n 2p "$work/$f.txt" | grep -qE '^CPU: .* threads  GPU: ' || fail "run header line 2"
done
"$bin" validate --filter srd-momentum --backend cpu --param L=8 --param collisions=50 --quiet > "$work/val.txt"
wide "$work/val.txt" || fail "validate output over 100 columns"
head -1 "$work/val.txt" | grep -qE '^mesobench .* \(.*\)  backend cpu$' || fail "validate header: $(head -3 "$work/val.txt")"
sed -n 2p "$work/val.txt" | grep -qE '^CPU: .* threads  GPU: ' || fail "validate header line 2"
echo "ok: run and validate say what ran where"
