#!/usr/bin/env bash
# `mesobench scale` checks everything before it starts a point or creates a
# directory (the backend, the variant, --mpirun and --mpirun-args, --out),
# reports a failed point with its exit code or signal and removes only the
# empty directory it created; `--emit slurm` refuses what would break or
# inject into a batch script (--time, --partition, --account) and quotes
# every value it writes, the summary job included.
# Usage: scale_checks.sh MESOBENCH
set -u
bin=$(realpath "$1")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1  # relative paths below (and anything a broken build runs) stay in $W
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
base=(scale --mode weak --workload dpd-fluid --ranks 1,2 --per-rank 1000 --steps 2 --warmup 1 --repeats 1)
sweep=("${base[@]}" --backend cpu)

# expect_bad <needle> <args...>: exit 2, the needle in the message, and
# neither $W/out nor $W/jobs created.
expect_bad() {
  local needle=$1; shift
  local out rc
  out=$("$bin" "$@" 2>&1 >/dev/null); rc=$?
  if [[ $rc -ne 2 || "$out" != *"$needle"* ]]; then
    fail "(exit $rc, want 2 and '$needle'): mesobench $*"; echo "$out"; return
  fi
  if [[ -e $W/out || -e $W/jobs ]]; then fail "a directory was created: mesobench $*"; rm -rf "$W/out" "$W/jobs"; return; fi
  echo "ok: mesobench ${*:0:12} ... -> $needle"
}

# Before any launch: the backend, the variant, the launcher and --out.
if ! "$bin" list --backend cuda >/dev/null 2>&1; then
  expect_bad "backend 'cuda'" "${base[@]}" --backend cuda --out "$W/out"
fi
expect_bad "variant precision=mixed is not provided by the cpu backend" "${sweep[@]}" --variant precision=mixed \
  --out "$W/out"
expect_bad "variant nlist=magic is invalid" "${sweep[@]}" --variant nlist=magic --out "$W/out"
# --transport: how GPU ranks' records travel; NCCL moves device buffers only.
expect_bad "--transport nccl moves device buffers between GPU ranks: it needs --backend cuda" "${sweep[@]}" \
  --transport nccl --out "$W/out"
expect_bad "--transport: mpi not in {ipc,nccl,host}" "${sweep[@]}" --transport mpi --out "$W/out"
expect_bad "variant nlist=magic is invalid" "${sweep[@]}" --variant nlist=magic --emit slurm "$W/jobs"
expect_bad "--mpirun 'no-such-mpirun-x' is not an executable program on PATH" "${sweep[@]}" \
  --mpirun no-such-mpirun-x --out "$W/out"
touch "$W/not-exec"
expect_bad "--mpirun '$W/not-exec' is not an executable file" "${sweep[@]}" --mpirun "$W/not-exec" --out "$W/out"
expect_bad "--mpirun is empty" "${sweep[@]}" --mpirun '' --out "$W/out"
expect_bad "--mpirun-args ''--bind-to none': a ' is not closed" "${sweep[@]}" --mpirun-args "'--bind-to none" \
  --out "$W/out"
expect_bad "a \" is not closed" "${sweep[@]}" --mpirun-args '-x "A' --out "$W/out"
expect_bad "';' needs a shell" "${sweep[@]}" --mpirun-args "-x A; touch $W/pwned" --out "$W/out"
expect_bad "'\$' needs a shell" "${sweep[@]}" --mpirun-args '-x $(touch pwned)' --out "$W/out"
expect_bad "empty argument" "${sweep[@]}" --mpirun-args "--bind-to '' none" --out "$W/out"
[[ -e $W/pwned ]] && fail "--mpirun-args ran shell text"
echo data > "$W/afile"
expect_bad "--out '$W/afile' exists and is not a directory" "${sweep[@]}" --out "$W/afile"
expect_bad "'$W/afile' is not a directory" "${sweep[@]}" --out "$W/afile/sub"
[[ $(cat "$W/afile") == data ]] || fail "--out at a file changed the file"
mkdir -p "$W/old/point-r2.json"
expect_bad "is a directory" "${sweep[@]}" --out "$W/old"
rm -rf "$W/old" && mkdir "$W/old" && echo '{}' > "$W/old/point-r8.json"
expect_bad "holds point-r8.json of another sweep" "${sweep[@]}" --out "$W/old"
mkdir -p "$W/sum/summary.json"
expect_bad "--summarize '$W/sum/summary.json' is a directory" scale --summarize "$W/sum"
expect_bad "--emit slurm '$W/afile' exists and is not a directory" "${sweep[@]}" --emit slurm "$W/afile"

# A point that fails: its exit code or signal in words; the directory the
# sweep created is removed when empty, a directory that existed is kept.
launcher() { printf '#!/bin/bash\n%s\n' "$2" > "$W/$1" && chmod +x "$W/$1"; }
launcher exit3 'exit 3'
launcher killed 'kill -9 $$'
launcher refuses 'echo "mesobench: error: refused" >&2; exit 2'
# Writes a file beside the point's JSON, then fails.
launcher writes 'while [ $# -gt 1 ] && [ "$1" != --json ]; do shift; done; touch "$(dirname "$2")/partial"; exit 1'
expect_fail() {  # expect_fail <rc> <needle> <args...>
  local want=$1 needle=$2; shift 2
  local out rc
  out=$("$bin" "$@" 2>&1); rc=$?
  if [[ $rc -ne $want || "$out" != *"$needle"* ]]; then fail "(exit $rc, want $want and '$needle'): $*"; echo "$out"; return; fi
  echo "ok: ... ${*: -2} -> exit $rc, $needle"
}
expect_fail 1 "the point on 1 rank failed: $W/exit3 exited with code 3" "${sweep[@]}" --out "$W/new/sub" \
  --mpirun "$W/exit3"
[[ -e $W/new ]] && fail "the failed sweep left $W/new (created by it, empty) behind"
expect_fail 1 "was killed by signal 9" "${sweep[@]}" --out "$W/new" --mpirun "$W/killed"
[[ -e $W/new ]] && fail "the killed sweep left $W/new behind"
expect_fail 2 "$W/refuses exited with code 2" "${sweep[@]}" --out "$W/new" --mpirun "$W/refuses"
mkdir "$W/mine" && echo keep > "$W/mine/notes.txt"
expect_fail 1 "exited with code 3" "${sweep[@]}" --out "$W/mine" --mpirun "$W/exit3"
[[ $(cat "$W/mine/notes.txt" 2>/dev/null) == keep ]] || fail "the failed sweep touched a user's file"
rm -f "$W/mine/notes.txt"
expect_fail 1 "exited with code 3" "${sweep[@]}" --out "$W/mine" --mpirun "$W/exit3"
[[ -d $W/mine ]] || fail "the failed sweep removed a directory that existed before it"
expect_fail 1 "exited with code 1" "${sweep[@]}" --out "$W/wrote" --mpirun "$W/writes"
[[ -f $W/wrote/partial ]] || fail "the failed sweep removed a directory something was written into"

# --emit slurm: --time in Slurm's formats with fields in range.
for t in 99:99:99 abc 0 00:00:00 1-24 1-23:60 10:60 1:2:3:4 '' '5:' -1 '1 00:10:00' $'00:10:00\n#SBATCH --x'; do
  expect_bad "is not a Slurm time limit" "${sweep[@]}" --emit slurm "$W/jobs" --time "$t"
done
for t in 30 10:30 01:00:00 100:00:00 1-12 1-12:30 1-12:30:59; do
  rm -rf "$W/jobs"
  "$bin" "${sweep[@]}" --emit slurm "$W/jobs" --time "$t" >/dev/null 2>"$W/err" || fail "--time $t refused: $(cat "$W/err")"
  grep -qx -- "#SBATCH --time=$t" "$W/jobs/point-r2.sbatch" || fail "--time $t not in the script"
done
rm -rf "$W/jobs"
# --partition and --account: Slurm names; a newline or shell text is refused.
expect_bad "--partition 'gpu?#SBATCH --uid=0' is not a Slurm name" "${sweep[@]}" --emit slurm "$W/jobs" \
  --partition $'gpu\n#SBATCH --uid=0'
expect_bad "it holds a newline" "${sweep[@]}" --emit slurm "$W/jobs" --account $'a\nb'
expect_bad "it holds ';'" "${sweep[@]}" --emit slurm "$W/jobs" --account 'acct;touch pwned'
expect_bad "it holds '\$'" "${sweep[@]}" --emit slurm "$W/jobs" --partition '$(id)'
expect_bad "it holds a space" "${sweep[@]}" --emit slurm "$W/jobs" --partition 'a b'
expect_bad "control character" "${sweep[@]}" --emit slurm $'jobs\ndir'

# The scripts of a directory whose name needs quoting (a space, quotes, %,
# #): valid bash; the point runs the command with its arguments intact; the
# summary job has the partition and the account and summarizes that
# directory.
dir="$W/jobs dir'x %#\"y"
"$bin" "${sweep[@]}" --param rho=3 --emit slurm "$dir" --partition gpu-a.1 --account proj_2 --time 1-00:30 \
  >/dev/null || fail "--emit slurm into '$dir' failed"
for f in point-r1.sbatch point-r2.sbatch submit-all.sh; do
  bash -n "$dir/$f" || fail "$f is not valid bash"
done
grep -qx -- "#SBATCH --partition=gpu-a.1" "$dir/point-r2.sbatch" || fail "point-r2.sbatch: partition"
grep -qx -- "#SBATCH --account=proj_2" "$dir/point-r2.sbatch" || fail "point-r2.sbatch: account"
# sbatch reads "..." with backslash escapes; Slurm file names take %% for %.
out_line=${dir//%/%%}
out_line=${out_line//\"/\\\"}
out_line=${out_line//\#/\\#}
grep -qxF -- "#SBATCH --output=\"$out_line/point-r2.out\"" "$dir/point-r2.sbatch" ||
  fail "point-r2.sbatch: --output not quoted for sbatch: $(grep output "$dir/point-r2.sbatch")"
mkdir "$W/fake"
# Stand-ins: sbatch and srun record their arguments one per line.
printf '#!/bin/bash\nn=$(ls %q | wc -l)\nprintf "%%s\\n" "$@" > %q/sbatch.$n\necho $((100 + n))\n' \
  "$W/calls" "$W/calls" > "$W/fake/sbatch"
printf '#!/bin/bash\nprintf "%%s\\n" "$@" > %q/srun.args\n' "$W" > "$W/fake/srun"
chmod +x "$W/fake/sbatch" "$W/fake/srun" && mkdir "$W/calls"
PATH="$W/fake:$PATH" bash "$dir/submit-all.sh" >/dev/null || fail "submit-all.sh failed"
summary=$W/calls/sbatch.2
[[ -f $summary ]] || fail "submit-all.sh did not submit the summary job"
for want in --dependency=afterany:100:101 --partition=gpu-a.1 --account=proj_2; do
  grep -qx -- "$want" "$summary" || fail "summary job lacks $want: $(tr '\n' ' ' < "$summary")"
done
wrap=$(sed -n 's/^--wrap=//p' "$summary")
out=$(bash -c "$wrap" 2>&1); rc=$?
[[ $rc -eq 2 && "$out" == *"no point-r*.json files in $dir"* ]] ||
  fail "the summary job's command does not summarize '$dir' (exit $rc): $out"
PATH="$W/fake:$PATH" bash "$dir/point-r2.sbatch" || fail "point-r2.sbatch failed under a stand-in srun"
json_arg=$(grep -A1 -x -- --json "$W/srun.args" | tail -n 1)
[[ $json_arg == "$dir/point-r2.json" ]] || fail "the point's --json is '$json_arg', not '$dir/point-r2.json'"
grep -qx -- "rho=3" "$W/srun.args" || fail "the point lost --param rho=3"

# A sweep whose points ran different variants: the default's half rows on one
# rank, full rows (nlist=ballot) on several. The summary takes them (one
# sweep: the default's) and names the difference.
mkdir "$W/mixed"
point() {  # ranks, the variant the point ran
  printf '{"kind":"scaling","mode":"strong","workload":"dpd-fluid","backend":"cuda","variant":"nlist=half,precision=mixed",%s' \
    '"provenance":{},' > "$W/mixed/point-r$1.json"
  printf '"points":[{"ranks":%s,"grid":"%sx1x1","N":1000,"tps_median":%s,"tps_min":%s,"tps_max":%s,' "$1" "$1" \
    "$((100 * $1))" "$((100 * $1))" "$((100 * $1))" >> "$W/mixed/point-r$1.json"
  printf '"variant":"%s","split":{"compute":1e-3,"pack":0,"copy":0,"mpi_wait":0}}]}\n' "$2" >> "$W/mixed/point-r$1.json"
}
point 1 nlist=half,precision=mixed
point 2 nlist=ballot,precision=mixed
out=$("$bin" scale --summarize "$W/mixed" 2>&1) || fail "a sweep with the several-rank fallback does not summarize: $out"
[[ $out == *"2 ranks ran nlist=ballot (the sweep's default on one rank only)"* ]] ||
  fail "the summary does not name the several-rank fallback: $out"

# A hand-edited point file: each wrong type is an input error naming the file and the field,
# and no summary.json is written.
for edit in 's/"tps_median":100,/"tps_median":"fast",/' 's/"N":1000,/"N":-3,/' 's/"grid":"1x1x1",//' \
            's/"mpi_wait":0/"mpi_wait":null/' 's/"points":\[/"points":[7,/' 's/"mode":"strong"/"mode":1/'; do
  rm -rf "$W/edited" && mkdir "$W/edited" && sed "$edit" "$W/mixed/point-r1.json" > "$W/edited/point-r1.json"
  out=$("$bin" scale --summarize "$W/edited" 2>&1); rc=$?
  if [[ $rc -ne 2 || $out != *"point-r1.json"* || -e $W/edited/summary.json ]]; then
    fail "a point file edited by '$edit' is not refused by name (exit $rc): $out"
  else
    echo "ok: $edit -> ${out:0:100}"
  fi
done

if [[ $failures -ne 0 ]]; then echo "$failures scale check(s) failed"; exit 1; fi
echo "all scale checks passed"
