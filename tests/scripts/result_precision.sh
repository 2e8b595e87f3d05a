#!/usr/bin/env bash
# A committed validation result whose file name claims a precision (a word
# -mixed, -double or -single: `ssd-water-long-mixed.json`) must have run in
# it: its JSON's `precision`, or the `precision=` of its `variant` in files
# older than that field (issue 57: `validate` ran Variant{}, double, unless
# told, and runs named mixed had run in double), or where its cases ran
# different variants (on a GPU each its workload's default), every case's
# `precision`, joined with / when they differ. A file whose name is wrong
# stays in the record only where the README.md of its folder, or of a folder
# above it under results/, says so in the words "ran in <what it ran>".
# Fails naming each file, its claim and what it ran. Checks itself on a
# made-up tree first.
# Usage: tests/scripts/result_precision.sh [repository root]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
check() {  # check <results dir>: prints the mismatches, exits 1 if any
  python3 - "$1" <<'PY'
import json, lzma, os, re, sys
top = sys.argv[1]
bad = []
for folder, _, files in os.walk(top):
    for name in sorted(files):
        m = re.search(r'(?:^|[-_.])(mixed|double|single)(?=[-_.]|$)', name)
        if not m or not re.search(r'\.json(\.xz)?$', name):
            continue
        path = os.path.join(folder, name)
        try:
            raw = lzma.open(path).read() if name.endswith('.xz') else open(path, 'rb').read()
            doc = json.loads(raw)
        except (OSError, ValueError, lzma.LZMAError):
            continue  # not a JSON result: results_schema.sh reads every file
        if not isinstance(doc, dict) or doc.get('kind') != 'validation':
            continue
        ran = doc.get('precision') or (re.search(r'precision=(\w+)', doc.get('variant', '')) or [None, 'double'])[1]
        if 'precision' not in doc and 'variant' not in doc and doc.get('cases'):  # each case its own
            ran = '/'.join(sorted({c.get('precision', '?') for c in doc.get('cases', [])}))
        if ran == m.group(1):
            continue
        said = False
        d = folder
        while True:
            readme = os.path.join(d, 'README.md')
            if os.path.isfile(readme) and f'ran in {ran}' in open(readme, encoding='utf-8').read():
                said = True
            if os.path.abspath(d) == os.path.abspath(top):
                break
            d = os.path.dirname(d)
        if not said:
            bad.append(f'{os.path.relpath(path, top)}: named {m.group(1)}, ran in {ran} '
                       f'(its README does not say "ran in {ran}")')
for b in bad:
    print('result_precision:', b)
sys.exit(1 if bad else 0)
PY
}
# The check itself: a misnamed file fails until its README says what it ran.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/a"
echo '{"kind": "validation", "variant": "precision=double,tpp=1"}' > "$work/a/x-mixed.json"
echo '{"kind": "validation", "precision": "mixed"}' > "$work/a/y-mixed.json"
if check "$work" > /dev/null; then echo "result_precision: a misnamed file passed"; exit 1; fi
mkdir -p "$work/b"
echo '{"kind": "validation", "cases": [{"precision": "mixed"}, {"precision": "double"}]}' > "$work/b/z-mixed.json"
if check "$work/b" > /dev/null; then echo "result_precision: a file of a double case named mixed passed"; exit 1; fi
echo '{"kind": "validation", "cases": [{"precision": "mixed"}, {"precision": "mixed"}]}' > "$work/b/z-mixed.json"
check "$work/b" > /dev/null || { echo "result_precision: a file of mixed cases named mixed failed"; exit 1; }
echo 'x-mixed.json: recorded as mixed but ran in double' > "$work/a/README.md"
check "$work" > /dev/null || { echo "result_precision: a documented misnamed file failed"; exit 1; }
check "$root/results"
echo "result_precision: every committed result named for a precision ran in it, or its README says otherwise"
