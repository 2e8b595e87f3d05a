#!/bin/bash
# Slurm end to end (label slurm): a real single-node Slurm cluster on this
# machine (scripts/slurm-localhost.sh), the batch script of one point that
# `mesobench scale --emit slurm` writes submitted with sbatch, the job checked
# COMPLETED and its result JSON checked for 2 ranks. Both launchers inside the
# batch script are run: srun (the default) and mpirun.
# Skips (exit 77) where Slurm cannot be installed.
# Usage: slurm_test.sh MESOBENCH WORKDIR
#        slurm_test.sh --standin WORKDIR   the mechanics alone: a stand-in batch
#                                          script (mpirun and srun, no mesobench)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 MESOBENCH|--standin WORKDIR" >&2; exit 2; }
MB=$1
W=$2
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SL=$ROOT/scripts/slurm-localhost.sh
export PATH=$PATH:/usr/sbin:/sbin  # slurmctld, slurmd and munged live in sbin
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

# A cluster left up by an earlier run that was killed (a ctest timeout sends
# SIGKILL, which skips the EXIT trap) would hold the ports: stop it first.
if [ -d "$W/slurm" ]; then
  "$SL" down "$W/slurm" || fail "could not stop the cluster an earlier run left in $W/slurm"
fi
rm -rf "$W"
mkdir -p "$W"
W=$(cd "$W" && pwd -P)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}  # 2 ranks on a 2-core machine

# --- the cluster --------------------------------------------------------------
if ! "$SL" install >"$W/install.log" 2>&1; then
  skip "scripts/slurm-localhost.sh install failed: $(grep -v '^\s*$' "$W/install.log" | tail -n 1)"
fi
command -v slurmctld >/dev/null || skip "no slurmctld on PATH after scripts/slurm-localhost.sh install"
# Not plain nproc: it answers OMP_NUM_THREADS when set (OMP_NUM_THREADS=1 gives 1).
cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
[ "$cpus" -ge 2 ] || skip "a 2-task job needs 2 CPUs; this machine has $cpus"

trap '"$SL" down "$W/slurm" || true' EXIT
conf_line=$("$SL" up "$W/slurm") || fail "scripts/slurm-localhost.sh up $W/slurm failed (its log tails above)"
eval "$conf_line"
export SLURM_CONF
[ -f "$SLURM_CONF" ] || fail "up printed '$conf_line', no such slurm.conf"
echo "cluster up: SLURM_CONF=$SLURM_CONF"
sinfo

# The job's environment (sbatch passes the submitter's on, --export=ALL):
# - OpenMPI's mpirun refuses to run as root unless both variables are set
#   (CI and containers run as root).
# - Debian's OpenMPI only starts under srun through PMIx: srun's default MPI
#   type here is none (MpiDefault=none), where each rank fails in MPI_Init.
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
if srun --mpi=list 2>&1 | grep -qw pmix; then
  export SLURM_MPI_TYPE=pmix
else
  echo "note: this Slurm has no mpi/pmix plugin; srun-launched MPI ranks may not start"
fi

# --- the batch scripts ----------------------------------------------------------
# Each writes DIR/point-r2.sbatch (2 tasks) whose command takes `--json FILE`.

# mesobench_jobs DIR [ARGS...]: the scripts of one weak point on 2 ranks.
mesobench_jobs() {
  local dir=$1
  shift
  "$MB" scale --mode weak --workload dpd-fluid --ranks 2 --per-rank 4000 --steps 50 --backend cpu \
    "$@" --emit slurm "$dir" || fail "mesobench scale --emit slurm $dir${*:+ $*} failed"
  [ -f "$dir/point-r2.sbatch" ] || fail "mesobench scale --emit slurm wrote no $dir/point-r2.sbatch"
  [ -x "$dir/submit-all.sh" ] || fail "mesobench scale --emit slurm wrote no executable $dir/submit-all.sh"
}

# standin_jobs DIR: a hand-written 2-task script of the same shape, whose
# `--json FILE` command runs srun and mpirun -np 2 and writes {"ranks": 2}.
standin_jobs() {
  local dir=$1
  mkdir -p "$dir"
  cat >"$dir/standin-point.sh" <<'EOF'
#!/bin/bash
# Usage: standin-point.sh --json FILE (inside a 2-task allocation)
set -euo pipefail
[ "$1" = --json ] || exit 2
json=$2
tmp=$(mktemp -d)
srun --ntasks=2 sh -c 'echo "$SLURM_PROCID" > '"$tmp"'/srun-$SLURM_PROCID'
mpirun -np 2 --oversubscribe sh -c 'echo "$OMPI_COMM_WORLD_SIZE" > '"$tmp"'/mpi-$OMPI_COMM_WORLD_RANK'
n_srun=$(ls "$tmp"/srun-* | wc -l)
n_mpi=$(ls "$tmp"/mpi-* | wc -l)
size=$(cat "$tmp/mpi-0")
rm -rf "$tmp"
[ "$n_srun" = 2 ] && [ "$n_mpi" = 2 ] && [ "$size" = 2 ] || exit 1
printf '{"kind": "standin", "ranks": %d, "node": "%s"}\n' "$n_mpi" "$(hostname)" >"$json"
EOF
  chmod +x "$dir/standin-point.sh"
  cat >"$dir/point-r2.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=standin-r2
#SBATCH --nodes=1
#SBATCH --ntasks=2
#SBATCH --ntasks-per-node=2
#SBATCH --time=00:05:00
#SBATCH --output=$dir/point-r2.out
set -euo pipefail
$dir/standin-point.sh --json $dir/point-r2.json
EOF
}

# --- submit and check -------------------------------------------------------------
job_field() { scontrol show job "$1" 2>/dev/null | grep -o "$2=[^ ]*" | head -n 1 | cut -d= -f2-; }

# run_point SCRIPT: submit, wait until the job left the queue, check it and its JSON.
run_point() {
  local script=$1 id state out json t0=$SECONDS
  id=$(cd "$(dirname "$script")" && sbatch --parsable "$script") || fail "sbatch $script failed"
  id=${id%%;*}
  echo "submitted $script: job $id"
  while [ -n "$(squeue -h -j "$id" 2>/dev/null)" ]; do
    if ((SECONDS - t0 > 300)); then
      squeue -j "$id" -o '%i %T %r' || true
      scancel "$id" || true
      fail "job $id still in the queue after 300 s"
    fi
    sleep 1
  done
  state=$(job_field "$id" JobState)
  out=$(job_field "$id" StdOut)
  echo "job $id: $state ($(job_field "$id" ExitCode)) after $((SECONDS - t0)) s"
  if [ "$state" != COMPLETED ]; then
    echo "----- $out" >&2
    cat "$out" >&2 || true
    fail "job $id ended $state, not COMPLETED"
  fi
  json=$(grep -o -- '--json [^ ]*' "$script" | head -n 1 | cut -d' ' -f2-)
  json=${json#\'}
  json=${json%\'}
  [ -n "$json" ] || fail "$script: no --json FILE in it"
  if [ ! -f "$json" ]; then
    cat "$out" >&2 || true
    fail "job $id COMPLETED without writing $json"
  fi
  python3 - "$json" <<'PY' || { cat "$out" >&2 || true; fail "$json: not a 2-rank result"; }
import json, sys
d = json.load(open(sys.argv[1]))
# The stand-in has "ranks" at the top; mesobench's scale-point (kind scaling) has it in its one point.
ranks = d["ranks"] if "ranks" in d else [p["ranks"] for p in d["points"]]
assert ranks in (2, [2]), ranks
print(f"{sys.argv[1]}: ranks {ranks}")
PY
}

if [ "$MB" = --standin ]; then
  standin_jobs "$W/jobs"
  run_point "$W/jobs/point-r2.sbatch"
else
  mesobench_jobs "$W/jobs"
  run_point "$W/jobs/point-r2.sbatch"
  mesobench_jobs "$W/jobs-mpirun" --launcher mpirun
  grep -q '^mpirun -np 2 ' "$W/jobs-mpirun/point-r2.sbatch" || fail "--launcher mpirun: no mpirun line"
  run_point "$W/jobs-mpirun/point-r2.sbatch"
fi
trap - EXIT
"$SL" down "$W/slurm" || fail "scripts/slurm-localhost.sh down $W/slurm failed"
echo "slurm: ok ($SECONDS s)"
