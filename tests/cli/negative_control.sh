#!/usr/bin/env bash
# `validate --control NAME` (docs/cli.md): the case runs under its control's
# knobs, the table says REJECTED, the exit code is 0 because the gate failed,
# and the JSON records the control, its knobs and the precision that ran; the
# gate itself, without the control, records its precision too. A small
# srd-momentum (L = 4 cells, 20 collisions) keeps it to about a second.
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
small=(validate --filter srd-momentum --param L=4 --param collisions=20 --quiet)
rc=0
"$bin" "${small[@]}" --control thermostat-kT-1.05 --json "$work/control.json" > "$work/control.txt" 2>&1 || rc=$?
[[ $rc -eq 0 ]] || { echo "FAIL: --control exited $rc, want 0 (the gate rejected it)"; cat "$work/control.txt"; exit 1; }
grep -q 'REJECTED' "$work/control.txt" || { echo "FAIL: no REJECTED in the table"; cat "$work/control.txt"; exit 1; }
grep -q '^precision double, variant ' "$work/control.txt" || { echo "FAIL: no precision line"; exit 1; }
"$bin" "${small[@]}" --json "$work/gate.json" > /dev/null 2>&1 || true
python3 - "$work/control.json" "$work/gate.json" <<'PY'
import json, sys
control, gate = (json.load(open(p)) for p in sys.argv[1:3])
assert control["control"] == "thermostat-kT-1.05" and control["precision"] == "double", control.keys()
k = control["cases"][0]["control"]
assert k["rejected"] is True and control["cases"][0]["passed"] is False, k
assert k["params"] == {"L": 4.0, "collisions": 20.0, "thermostat_kT": 1.05}, k["params"]
assert "control" not in gate and "control" not in gate["cases"][0] and gate["precision"] == "double"
# Each case records what it ran, too (on a GPU each runs its workload's default variant).
assert control["cases"][0]["precision"] == "double" and control["cases"][0]["variant"] == control["variant"]
print("negative control ok:", k["what"])
PY
