#!/usr/bin/env bash
# Every reader refuses what it cannot read, by name (issue 54, items 2 and 3):
# a case list, each case a command, the exit code it must end with (2: bad
# input), what its message must name, and that it wrote no output and left
# every input as it was. The inputs are made here, in a temporary folder:
# H5MD trajectories of a wrong rank, shape or value with h5py (those cases
# are skipped where h5py or HDF5 is missing), a FIFO, topologies, target
# files and tuned tables. No device node is touched.
# Usage: readers.sh <mesobench>
set -euo pipefail
set -f  # case filters are regular expressions, not globs
bin=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# case <exit> <needle> <args...>: mesobench args must exit <exit> within 60 s
# (a FIFO read would hang) with a message containing needle, and leave the
# folder $t as it was: no file added (an output, a temporary), none changed.
case_() {
  local want=$1 needle=$2
  shift 2
  local before after out rc=0
  before=$(files)
  out=$(timeout 60 "$bin" "$@" 2>&1 >/dev/null) || rc=$?
  after=$(files)
  [[ $rc -eq $want ]] || fail "mesobench $* exited $rc, not $want: $out"
  [[ $out == *"$needle"* ]] || fail "mesobench $*: the message does not name '$needle': $out"
  # One line (CLI11's parse errors add a second: "(run with --help for usage)").
  local first=${out%%$'\n'*}
  [[ ${#first} -le 300 && ( $out == "$first" || ${out#*$'\n'} == "(run with --help for usage)" ) ]] ||
    fail "mesobench $*: not one short line: $out"
  [[ $before == "$after" ]] || fail "mesobench $* wrote or changed a file: $(diff <(echo "$before") <(echo "$after"))"
  echo "ok ($rc): mesobench ${1} ... -> $needle"
}
# Every regular file under $t with its checksum (a FIFO is not read).
files() { (cd "$t" && find . -type f -print0 | sort -z | xargs -0 -r sha1sum); }

# --- integer options: decimal digits in range, no wrap-around of -1 ---------
python3 - "$t/g.txt" <<'P'
import math, sys
with open(sys.argv[1], "w") as f:
    for i in range(60):
        r = (i + 0.5) * 0.05
        v = 4 * (r**-12 - r**-6) - 4 * (2.5**-12 - 2.5**-6) if r < 2.5 else 0.0
        f.write(f"{r:.6f} {math.exp(-v / 1.5) if v / 1.5 < 700 else 0.0:.10g}\n")
P
ibi=(ibi --backend cpu --rho 0.1 --kT 1.5 --n 300 --equilibrate 20 --samples 2 --every 5 -q --iterations 0
     --target "$t/g.txt" -o "$t/out.table" --json "$t/out.json")
case_ 2 "--equilibrate: value '-1' is invalid" "${ibi[@]}" --equilibrate -1
case_ 2 "--seed: value '-1' is invalid" "${ibi[@]}" --seed -1
case_ 2 "--seed: value '4294967296' is invalid" "${ibi[@]}" --seed 4294967296
case_ 2 "--samples: value '0x10' is invalid" "${ibi[@]}" --samples 0x10
case_ 2 "--n: value '1e3' is invalid" "${ibi[@]}" --n 1e3
case_ 2 "--rho: value '0x10' is invalid" "${ibi[@]}" --rho 0x10
case_ 2 "--iterations: value '+-1' is invalid" "${ibi[@]}" --iterations +-1

case_ 2 "--steps: value '0x10' is invalid" run --backend cpu --filter 'dpd-fluid/.*N=8192$' --steps 0x10
case_ 2 "--repeats: value '-1' is invalid" run --backend cpu --filter 'dpd-fluid/.*N=8192$' --repeats -1
case_ 2 "--seed: value '0x10' is invalid" validate --backend cpu --filter dpd-temperature --seed 0x10
case_ 2 "--max-n: value '0x10' is invalid" run --backend cpu --filter 'dpd-fluid/.*N=8192$' --max-n 0x10
# scale's whole-number options too (CLI11 would read 0x10 as 16, 010 as 8).
sc=(scale --backend cpu --mode weak --workload dpd-fluid --per-rank 1000 --ranks 1)
case_ 2 "--steps: value '0x10' is invalid" "${sc[@]}" --steps 0x10
case_ 2 "--repeats: value '0x10' is invalid" "${sc[@]}" --repeats 0x10
case_ 2 "--cpus-per-task: value '-1' is invalid" "${sc[@]}" --cpus-per-task -1
# A leading zero is decimal: --n 010 is 10, the least allowed, refused only for the box it makes (CLI11
# alone read octal 8, below the range).
case_ 2 "use --n of at least" ibi --backend cpu --rho 0.1 --n 010 --target "$t/g.txt" -o "$t/out.table" -q

# --- ibi applies run's checks before anything is read or written ------------
case_ 2 "dt = 0.5 is too large" "${ibi[@]}" --dt 0.5
case_ 2 "dt = 0.1 is too large" "${ibi[@]}" --dt 0.1  # moves 0.21 > 0.15 at kT = 1.5
case_ 2 "--rho 50 is outside 0.01 .. 10" ibi --backend cpu --rho 50 --melt-targets "$t/m"

# --- --param: decimal numbers, each key once --------------------------------
dpd=(run --backend cpu --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=8192$' --steps 2 --quiet --json "$t/run.json")
case_ 2 "--param rho=0x10 is invalid" "${dpd[@]}" --param rho=0x10
case_ 2 "--param rho=inf is invalid" "${dpd[@]}" --param rho=inf
case_ 2 "--param N is given twice (N=500 and N=600)" "${dpd[@]}" --param N=500 --param N=600
case_ 2 "--param a is given twice" list --filter dpd-fluid --param a=25 --param a=20
case_ 2 "--param 'runs=0x2' is invalid: the value must be a decimal number" \
  validate --backend cpu --filter nve-drift-shift --param runs=0x2 --json "$t/v.json"
case_ 2 "--param runs is given twice (runs=1 and runs=2)" \
  validate --backend cpu --filter nve-drift-shift --param runs=1 --param runs=2 --json "$t/v.json"

# --- a variant the docs refuse: the fp32 noise with fp64 storage -------------
case_ 2 "noise=fp32 is for fp32 storage" "${dpd[@]}" --param N=500 --variant precision=double,noise=fp32

# --- topologies: a bond or an angle listed twice ----------------------------
printf 'bond_type s harmonic 5 0.8\nbond s 0 1\nbond s 1 2\nbond s 1 0\n' > "$t/twice.top"
case_ 2 "twice.top:4: bond 1 0 is listed twice (first at line 2)" "${dpd[@]}" --param N=500 --topology "$t/twice.top"
printf 'bond_type s harmonic 5 0.8\nangle_type b harmonic 2 180\nbond s 0 1\nangle b 0 1 2\nangle b 2 1 0\n' \
  > "$t/angle.top"
case_ 2 "angle.top:5: angle 2 1 0 is listed twice" "${dpd[@]}" --param N=500 --topology "$t/angle.top"

# --- tuned tables: a FIFO, trailing text, an N that is no count -------------
mkfifo "$t/fifo"
case_ 2 "--tuned table '$t/fifo' is a FIFO, not a file" "${dpd[@]}" --tuned "$t/fifo"
echo '{"format": "mesobench-tune-1", "entries": []} {"format": 1}' > "$t/two.json"
case_ 2 "two.json' is not JSON" "${dpd[@]}" --tuned "$t/two.json"
echo '{"format": "mesobench-tune-1", "entries": [{"device": "d", "workload": "dpd-fluid", "backend": "cpu",
  "precision": "double", "N": -1, "choice": "sort=100"}]}' > "$t/neg.json"
case_ 2 "an entry's N, -1, is not a particle count" "${dpd[@]}" --tuned "$t/neg.json"

# --- morphology: integer options, then the H5MD reader ----------------------
case_ 2 "$t/none.h5" morphology "$t/none.h5" --json "$t/m.json"  # CLI11 names a missing file
case_ 2 "H5MD file '$t/fifo' is a FIFO, not a file" morphology "$t/fifo" --json "$t/m.json"
: > "$t/empty.h5"
case_ 2 "H5MD file '$t/empty.h5': the file is empty" morphology "$t/empty.h5" --json "$t/m.json"
echo "not hdf5" > "$t/text.h5"
case_ 2 "H5MD file '$t/text.h5': not an HDF5 file" morphology "$t/text.h5" --json "$t/m.json"

if ! python3 -c 'import h5py, numpy' 2>/dev/null; then
  echo "readers: h5py is missing: the H5MD layout cases are skipped"
  echo "cli.readers: ok"
  exit 0
fi
# h5md.py FILE CHANGE: a 2-frame trajectory of 6 particles in a box of 8,
# as `run --trajectory` writes it, with one change (python, on `d`, the
# datasets by path).
h5md() {
  python3 - "$@" <<'P'
import sys, h5py, numpy as np
path, change = sys.argv[1], sys.argv[2]
T, n = 2, 6
all_ = "particles/trajectory/"
d = {
    all_ + "position/step": np.array([0, 10], dtype=np.int64),
    all_ + "position/time": np.array([0.0, 0.1]),
    all_ + "position/value": np.random.default_rng(1).uniform(0, 8, (T, n, 3)),
    all_ + "box/edges/value": np.full((T, 3), 8.0),
    all_ + "velocity/value": np.zeros((T, n, 3)),
    all_ + "image/value": np.zeros((T, n, 3), dtype=np.int32),
    all_ + "species/value": np.tile(np.array([1, 2] * (n // 2), dtype=np.int32), (T, 1)),
}
exec(change)
with h5py.File(path, "w") as f:
    for k, v in d.items():
        f[k] = v
P
}
pos=particles/trajectory/position/value edges=particles/trajectory/box/edges/value
h5md "$t/ok.h5" "pass"
morph=(morphology --min-beads 1 --json "$t/m.json" --beads-csv "$t/b.csv")
rc=0
out=$("$bin" "${morph[@]}" "$t/ok.h5" 2>&1) || rc=$?
if [[ $rc -eq 2 && $out == *"without HDF5"* ]]; then
  echo "readers: mesobench was built without HDF5: the H5MD layout cases are skipped"
  echo "cli.readers: ok"
  exit 0
fi
[[ $rc -eq 0 ]] || fail "morphology of a good file exited $rc: $out"
rm -f "$t/m.json" "$t/b.csv"

h5md "$t/rank4.h5" "d['$pos'] = np.zeros((2, 6, 3, 2))"
case_ 2 "position/value has shape (2, 6, 3, 2), not (frames, N, 3)" "${morph[@]}" "$t/rank4.h5"
h5md "$t/short.h5" "d['particles/trajectory/velocity/value'] = np.zeros((2, 5, 3))"
case_ 2 "velocity/value has shape (2, 5, 3)" "${morph[@]}" "$t/short.h5"
h5md "$t/steps.h5" "d['particles/trajectory/position/step'] = np.array([0, 10, 20])"
case_ 2 "position/step has shape (3)" "${morph[@]}" "$t/steps.h5"
h5md "$t/text-species.h5" "d['particles/trajectory/species/value'] = np.full((2, 6), 'B', dtype='S1')"
case_ 2 "species/value does not hold integers" "${morph[@]}" "$t/text-species.h5"
h5md "$t/foreign.h5" "d = {'data/x': np.zeros(4)}"
case_ 2 "no dataset /particles/trajectory/position/value" "${morph[@]}" "$t/foreign.h5"
for edge in 0 -5 1e300 "float('nan')" "float('inf')"; do
  h5md "$t/edge.h5" "d['$edges'][1, 2] = $edge"
  case_ 2 "box edge z = " "${morph[@]}" "$t/edge.h5"
done
h5md "$t/nan.h5" "d['$pos'][0, 3, 1] = float('nan')"
case_ 2 "the position of particle 3 in frame 0 is not finite" "${morph[@]}" "$t/nan.h5"
h5md "$t/fine.h5" "d['$edges'][:] = 1e6"
case_ 2 "more than 268435456: raise --voxel" "${morph[@]}" "$t/fine.h5"
case_ 2 "--min-beads: value '-1' is invalid" morphology "$t/ok.h5" --min-beads -1 --json "$t/m.json"
case_ 2 "--hydrophobic: value '0x1' is invalid" morphology "$t/ok.h5" --hydrophobic 0x1 --json "$t/m.json"
case_ 2 "--voxel: value 'nan' is invalid" morphology "$t/ok.h5" --voxel nan --json "$t/m.json"
echo "cli.readers: ok"
