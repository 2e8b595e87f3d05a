#!/usr/bin/env bash
# No output path destroys an input (issue 54; docs/cli.md, "Output files"):
# a case list, each case the exit it must have, the files that must exist
# and be unchanged afterwards (a regular file by its SHA-256, a device node,
# FIFO or link by its type and target), and the command. After every case
# no temporary file (*.tmp-*) may be left. Covered: an output that is an
# input of the same command by name, through a symbolic link and through a
# hard link (morphology's --json and --beads-csv and its trajectory,
# table-melt's outputs and its tables, run's outputs and --restart and
# --topology); inputs and unrelated files named OUT.tmp (the old fixed
# temporary name); a FIFO, a private device node (root only) and links to
# them as outputs; a failed write; `scale --emit slurm` over existing
# scripts and with launcher options; `report` into a folder with a
# hand-written report.json; compare's trailing documents and thresholds;
# `mesobench help COMMAND`; validate --trajectory's numbered files.
# Usage: output_files.sh <mesobench> <source dir>
set -euo pipefail
bin=$(realpath "$1")
src=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }  # the setup
# A case that fails is counted and the next runs: the log shows them all.
failures=0
bad() { echo "FAIL: $*"; failures=$((failures + 1)); }

# A file's type, and its bytes' SHA-256 when it is a regular file (never
# opened otherwise: a FIFO would block, a device could be anything).
fingerprint() {
  if [[ -L $1 ]]; then echo "link -> $(readlink "$1")"
  elif [[ -f $1 ]]; then sha256sum < "$1" | cut -d' ' -f1
  elif [[ -e $1 ]]; then stat -c '%F %t:%T' "$1"
  else echo missing; fi
}

# case_ EXIT "KEEP..." ARGS...: mesobench ARGS exits EXIT, and every file of
# KEEP is as it was before.
case_() {
  local want=$1 keep=$2 f rc=0 out
  shift 2
  local -A before=()
  for f in $keep; do
    before[$f]=$(fingerprint "$f")
    [[ ${before[$f]} != missing ]] || { bad "$f is gone (an earlier case?): mesobench $*"; return 0; }
  done
  out=$(timeout 300 "$bin" "$@" 2>&1 >/dev/null) || rc=$?
  local left
  left=$(find . -name '*.tmp-*' | head -3)
  find . -name '*.tmp-*' -delete  # so that one leak is reported once
  [[ $rc -eq $want ]] || { bad "exit $rc, not $want: mesobench $* -> $out"; return 0; }
  for f in $keep; do
    [[ $(fingerprint "$f") == "${before[$f]}" ]] || { bad "mesobench $* changed or removed $f"; return 0; }
  done
  [[ -z $left ]] || { bad "mesobench $* left a temporary file: $left"; return 0; }
  echo "ok: exit $rc: mesobench $*${out:+ -> ${out%%$'\n'*}}"
}

# Inputs: a checkpoint, a topology, a trajectory (with HDF5), IBI targets
# and the three tables of a melt.
sel=(run --backend cpu --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=8192$' --param N=500 --quiet)
"$bin" "${sel[@]}" --steps 20 --checkpoint ck.ckpt > /dev/null
printf 'bonds\n0 1\n' > topo.txt
ln ck.ckpt ck-hard.ckpt && ln -s ck.ckpt ck-soft.ckpt && ln -s topo.txt topo-soft.txt
melt=(ibi --backend cpu --rho 3 --chains 24 --chain-length 8 --equilibrate 200 -q)
"$bin" "${melt[@]}" --samples 200 --every 20 --melt-targets m > /dev/null
melt+=(--samples 10 --every 10)
"$bin" "${melt[@]}" --iterations 0 --target m.g.txt --bond-target m.bond.txt --angle-target m.angle.txt \
  -o p.table --bond-output b.table --angle-output a.table > /dev/null
tables="p.table b.table a.table"
tm=(run --backend cpu --filter 'table-melt.*N=10000$' --quiet --param length=8 --param N=400
    --param pair_table=p.table --param angle_table=a.table --steps 20)
tmb=("${tm[@]}" --param bond_table=b.table)
rc=0
"$bin" run --backend cpu --filter 'dpd-vesicle/.*N=262144' --param N=3000 --steps 20 --every 10 \
  --trajectory traj.h5 > /dev/null 2> err.txt || rc=$?
hdf5=1
if [[ $rc -eq 2 ]] && grep -q "without HDF5" err.txt; then hdf5=0; echo "built without HDF5: no trajectory cases"
elif [[ $rc -ne 0 ]]; then fail "the dpd-vesicle run exited $rc: $(cat err.txt)"; fi
mkfifo fifo && ln -s fifo fifo-link
root=0
if [[ $(id -u) -eq 0 ]]; then
  # A private node with /dev/null's numbers, in this folder: never a real one.
  mknod dev c 1 3 && ln -s dev dev-link && root=1
else
  echo "not root: no device node cases"
fi

# --- run: outputs against --restart and --topology, by name, hard and symbolic link.
case_ 2 "ck.ckpt" "${sel[@]}" --steps 40 --restart ck.ckpt --json ck.ckpt
case_ 2 "ck.ckpt ck-hard.ckpt" "${sel[@]}" --steps 40 --restart ck.ckpt --json ck-hard.ckpt
case_ 2 "ck.ckpt ck-soft.ckpt" "${sel[@]}" --steps 40 --restart ck.ckpt --json ck-soft.ckpt
case_ 2 "topo.txt" "${sel[@]}" --steps 40 --topology topo.txt --checkpoint topo.txt
case_ 2 "topo.txt topo-soft.txt" "${sel[@]}" --steps 40 --topology topo.txt --json topo-soft.txt
# An input named OUT.tmp, and a user's unrelated OUT.tmp, survive.
cp ck.ckpt out.ckpt.tmp
case_ 0 "out.ckpt.tmp" "${sel[@]}" --steps 40 --restart out.ckpt.tmp --checkpoint out.ckpt
echo "my notes" > res.json.tmp
case_ 0 "res.json.tmp" "${sel[@]}" --steps 10 --json res.json
[[ -s out.ckpt && -s res.json ]] || bad "run did not write out.ckpt and res.json"
# A failed write (a file size limit, as a full disk) removes its own
# temporary only: the user's OUT.tmp and an earlier OUT stay.
# (SIGXFSZ ignored: write(2) returns EFBIG, as it returns ENOSPC on a full disk.)
printf '#!/bin/bash\nulimit -f 300\ntrap "" XFSZ\nexec %q "$@"\n' "$bin" > small-disk && chmod +x small-disk
big=(run --backend cpu --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=8192$' --quiet)
echo "an earlier checkpoint" > full.ckpt && echo "my full.ckpt.tmp" > full.ckpt.tmp
bin=./small-disk case_ 2 "full.ckpt full.ckpt.tmp" "${big[@]}" --steps 10 --checkpoint full.ckpt

# --- table-melt: no output onto a table it reads.
case_ 2 "$tables" "${tmb[@]}" --json p.table
case_ 2 "$tables" "${tmb[@]}" --checkpoint b.table
ln -s a.table a-soft.table && ln a.table a-hard.table
case_ 2 "$tables a-soft.table" "${tmb[@]}" --json a-soft.table
case_ 2 "$tables a-hard.table" "${tmb[@]}" --checkpoint a-hard.table
if ((hdf5)); then case_ 2 "$tables" "${tmb[@]}" --trajectory a.table; fi
cp b.table tm.json.tmp
case_ 0 "$tables tm.json.tmp" "${tm[@]}" --param bond_table=tm.json.tmp --json tm.json

# --- ibi: a target named OUT.tmp survives.
cp m.g.txt g.table.tmp
case_ 0 "g.table.tmp" "${melt[@]}" --iterations 0 --target g.table.tmp --bond-target m.bond.txt \
  --angle-target m.angle.txt -o g.table --bond-output g-b.table --angle-output g-a.table

# --- morphology: neither output onto the trajectory; a trajectory named OUT.tmp.
if ((hdf5)); then
  ln traj.h5 traj-hard.h5 && ln -s traj.h5 traj-soft.h5
  case_ 2 "traj.h5" morphology traj.h5 --json traj.h5
  case_ 2 "traj.h5" morphology traj.h5 --beads-csv traj.h5
  case_ 2 "traj.h5 traj-hard.h5" morphology traj.h5 --json traj-hard.h5
  case_ 2 "traj.h5 traj-soft.h5" morphology traj.h5 --beads-csv traj-soft.h5
  case_ 2 "traj.h5" morphology traj.h5 --json same.out --beads-csv same.out
  cp traj.h5 m.json.tmp && cp traj.h5 b.csv.tmp
  case_ 0 "m.json.tmp b.csv.tmp" morphology m.json.tmp --json m.json --beads-csv b.csv
  case_ 0 "b.csv.tmp" morphology b.csv.tmp --json m.json --beads-csv b.csv
  [[ -s m.json && -s b.csv ]] || bad "morphology did not write m.json and b.csv"
  # Special files as outputs: refused by name, left in place.
  case_ 2 "traj.h5 fifo" morphology traj.h5 --json fifo
  case_ 2 "traj.h5 fifo fifo-link" morphology traj.h5 --beads-csv fifo-link
  case_ 2 "traj.h5" morphology traj.h5 --json .
  if ((root)); then
    case_ 2 "traj.h5 dev" morphology traj.h5 --json dev
    case_ 2 "traj.h5 dev dev-link" morphology traj.h5 --beads-csv dev-link
  fi
  # A trajectory that fails to be written: the user's OUT.tmp and an earlier OUT stay.
  echo "an earlier trajectory" > full.h5 && echo "my full.h5.tmp" > full.h5.tmp
  bin=./small-disk case_ 2 "full.h5 full.h5.tmp" "${big[@]}" --steps 50 --every 10 --trajectory full.h5
  cp ck.ckpt t.h5.tmp
  case_ 0 "t.h5.tmp" "${sel[@]}" --steps 40 --restart t.h5.tmp --every 10 --trajectory t.h5
fi
case_ 2 "fifo" "${sel[@]}" --steps 10 --json fifo
case_ 2 "fifo fifo-link" "${sel[@]}" --steps 10 --checkpoint fifo-link
if ((root)); then
  case_ 2 "dev" "${sel[@]}" --steps 10 --checkpoint dev
  case_ 2 "dev dev-link" "${sel[@]}" --steps 10 --json dev-link
  case_ 2 "dev $tables" "${tmb[@]}" --json dev
fi

# --- scale --emit slurm: existing scripts only with --force; every launcher option written or refused.
sweep=(scale --mode weak --workload dpd-fluid --ranks 1,2 --per-rank 2000 --backend cpu)
mkdir jobs && echo "my script" > jobs/submit-all.sh
case_ 2 "jobs/submit-all.sh" "${sweep[@]}" --emit slurm jobs
[[ ! -e jobs/point-r1.sbatch ]] || bad "a refused --emit slurm wrote point-r1.sbatch"
case_ 0 "" "${sweep[@]}" --emit slurm jobs --force
grep -q "srun --ntasks=2 " jobs/point-r2.sbatch || bad "--force did not write the scripts"
case_ 2 "" "${sweep[@]}" --emit slurm jobs2 --mpirun mympirun
case_ 2 "" "${sweep[@]}" --emit slurm jobs2 --mpirun-args '--bind-to none'
[[ ! -e jobs2 ]] || bad "a refused --emit slurm created jobs2"
case_ 0 "" "${sweep[@]}" --emit slurm jobs2 --launcher mpirun --mpirun mympirun --mpirun-args '--bind-to none'
grep -q "^mympirun -np 2 --bind-to none .* scale-point " jobs2/point-r2.sbatch ||
  bad "the launcher options are not in the script: $(grep -- -np jobs2/point-r2.sbatch)"

# --- report: a report.json it did not write deletes nothing (--force replaces what it lists).
if python3 -c 'import matplotlib, numpy' 2>/dev/null; then
  mkdir rep && echo "my data" > rep/data.csv && echo "# my page" > rep/README.md
  echo '{"figures": [{"file": "data.csv"}]}' > rep/report.json
  case_ 2 "rep/data.csv rep/README.md rep/report.json" report "$src/tests/data/report-sample" -o rep
  case_ 0 "" report "$src/tests/data/report-sample" -o rep --force
  [[ ! -e rep/data.csv && -s rep/README.md ]] || bad "report --force did not replace the listed files"
  # Its own report it replaces; one whose figure was edited since it keeps.
  case_ 0 "" report "$src/tests/data/report-sample" -o rep
  png=$(find rep -name '*.png' | head -1)
  if [[ -n $png ]]; then
    echo "edited" >> "$png"
    case_ 2 "$png rep/report.json" report "$src/tests/data/report-sample" -o rep
  else
    bad "the report wrote no figure"
  fi
else
  echo "matplotlib missing: no report cases"
fi

# --- compare: one document per file, a finite threshold of at most 100 percent.
echo '{"results": [{"name": "a", "tps_median": 1, "tps": [1]}]}' > r.json
cat r.json r.json > two.json
case_ 0 "r.json" compare r.json r.json
case_ 2 "two.json" compare two.json r.json
case_ 2 "two.json" compare r.json two.json
for t in inf nan 1e300 101 -1; do case_ 2 "r.json" compare r.json r.json --threshold "$t"; done

# --- validate --trajectory F names F.1.h5, F.2.h5, ... itself: one left by an
# earlier run is refused (before the run, unchanged) unless --force.
if ((hdf5)); then
  val=(validate --backend cpu --filter srd-momentum --param L=5 --param collisions=40 --quiet --every 40)
  "$bin" "${val[@]}" --trajectory v.h5 > /dev/null || bad "validate --trajectory v.h5 failed"
  [[ -f v.1.h5 ]] || bad "validate --trajectory v.h5 wrote no v.1.h5"
  case_ 2 "v.1.h5" "${val[@]}" --trajectory v.h5
  cp v.1.h5 mine.h5 && mv mine.h5 w.1.h5  # a user's file with a numbered name
  case_ 2 "w.1.h5" "${val[@]}" --trajectory w.h5
  case_ 0 "" "${val[@]}" --trajectory v.h5 --force
fi

# --- help COMMAND prints that command's help.
for c in run validate compare report morphology scale scale-point tune ibi list; do
  out=$("$bin" help "$c") || { bad "mesobench help $c exited $?"; continue; }
  [[ $out == *"mesobench $c"* ]] || bad "mesobench help $c does not describe $c: ${out:0:200}"
  [[ $out == "$("$bin" "$c" --help)" ]] || bad "mesobench help $c differs from mesobench $c --help"
done
[[ $("$bin" help run) == *"--checkpoint"* ]] || bad "help run does not list --checkpoint"
case_ 2 "" help no-such-command
((failures == 0)) || { echo "cli.output_files: $failures case(s) failed"; exit 1; }
echo "cli.output_files: ok"
