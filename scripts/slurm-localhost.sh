#!/usr/bin/env bash
# A real single-node Slurm cluster on this machine, from the distribution's
# packages (Debian 12 / Ubuntu 24.04), for tests that submit jobs with sbatch.
#
#   slurm-localhost.sh install    apt-get install munge slurmctld slurmd slurm-client
#   slurm-localhost.sh up DIR     start munged, slurmctld and slurmd; wait for the node to be idle;
#                                 print "export SLURM_CONF=DIR/slurm.conf" on stdout (all else goes
#                                 to stderr), so:  eval "$(scripts/slurm-localhost.sh up DIR)"
#   slurm-localhost.sh down DIR   stop what `up DIR` started (cancel its jobs, stop its daemons by
#                                 pid file and by the SLURM_CONF in their environment); fine if already
#                                 gone; fails only when one of them survives SIGKILL
#
# Everything lives under DIR: slurm.conf, the munge key, socket and seed, the
# controller's state, slurmd's spool, logs and pid files (but for a DIR too
# long for Unix socket paths: then munge's socket and slurmd's spool, where
# slurmstepd makes its sockets, are in /tmp/slurm-localhost-CKSUM); nothing in /etc,
# /var/lib/slurm or /run is used or changed, and the system's own munged (if
# any) is left alone: our munged has its own key and socket (AuthInfo=socket=).
# Made for containers run as root: SlurmUser=root, no cgroups
# (proctrack/linuxproc, task/none), munged run as root with --force.
# One node, named after `hostname -s`, at 127.0.0.1 (no DNS needed), with
# CPUs=nproc (OMP_NUM_THREADS aside) and RealMemory from /proc/meminfo; partition `debug` (default).
# Ports: SLURMCTLD_PORT (6817) and SLURMD_PORT (6818) in the environment.
# MpiDefault: SLURM_MPI_DEFAULT (none). Debian's OpenMPI started by srun needs
# PMIx: `srun --mpi=pmix`, SLURM_MPI_TYPE=pmix in the job's environment, or
# SLURM_MPI_DEFAULT=pmix here. mpirun inside a job needs none of it (it finds
# the allocation itself), but as root it needs --allow-run-as-root or
# OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1.
set -euo pipefail
export PATH=$PATH:/usr/sbin:/sbin  # munged, slurmctld and slurmd are in sbin

prog=slurm-localhost
say() { echo "$prog: $*" >&2; }
die() { echo "$prog: error: $*" >&2; exit 1; }

usage() {
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

packages=(munge slurmctld slurmd slurm-client)

cmd_install() {
  local missing=() p sudo=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    say "already installed: ${packages[*]}"
    return 0
  fi
  command -v apt-get >/dev/null || die "no apt-get on this machine: install ${missing[*]} by hand"
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || die "need root or sudo to install ${missing[*]}"
    sudo=(sudo -n)
  fi
  say "installing ${missing[*]}"
  # The package scripts would start the system's munge/slurm daemons where an
  # init system exists; in a container they only print that they cannot.
  local log
  log=$(mktemp)
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >"$log" 2>&1 ||
    say "warning: apt-get update failed (trying the install anyway): $(grep -m1 '^[EW]:' "$log" || tail -n 1 "$log")"
  if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >"$log" 2>&1; then
    cat "$log" >&2
    local why
    why=$(grep -m1 '^E:' "$log" || tail -n 1 "$log")
    rm -f "$log"
    die "apt-get install ${missing[*]} failed: $why"
  fi
  rm -f "$log"
  local b
  for b in munged mungekey slurmctld slurmd sbatch srun squeue sinfo scontrol; do
    command -v "$b" >/dev/null || die "$b not found after installing ${missing[*]}"
  done
  say "installed ${missing[*]}"
}

# Absolute path of DIR (created).
absdir() {
  [[ -n ${1:-} ]] || usage
  mkdir -p "$1"
  (cd "$1" && pwd -P)
}

# The CPUs this process may run on. GNU nproc answers OMP_NUM_THREADS (or
# OMP_THREAD_LIMIT) when set: a test run with OMP_NUM_THREADS=1 would get a
# one-CPU node, where a 2-task job never starts.
cpu_count() { env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc; }

node_name() {
  local n
  n=$(hostname -s 2>/dev/null || true)
  [[ -n $n ]] || n=localhost
  echo "$n"
}

# pid_alive PID: a live process (a zombie, killed but not yet reaped, is not).
pid_alive() {
  [[ -n ${1:-} ]] && kill -0 "$1" 2>/dev/null || return 1
  [[ $(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1) != Z ]]
}
# The pid in pid file FILE (DIR/pid/NAME.pid) when a process NAME has it now:
# a stale file whose pid went to another process gives nothing.
pid_of() {
  local pid name
  [[ -s $1 ]] || return 0
  pid=$(tr -dc '0-9' <"$1")
  name=$(basename "$1" .pid)
  if [[ -n $pid && -r /proc/$pid/comm && $(cat "/proc/$pid/comm" 2>/dev/null) != "$name" ]]; then
    return 0
  fi
  echo "$pid"
}

logs_tail() {
  local d=$1 f
  for f in "$d/log/munged.log" "$d/log/slurmctld.log" "$d/log/slurmd.log"; do
    [[ -f $f ]] || continue
    echo "----- tail of $f" >&2
    tail -n 25 "$f" >&2
  done
}

# The directory of the Unix sockets: munged's and slurmstepd's (in slurmd's
# spool: NODE_JOBID.STEPID). Their paths must fit a sockaddr_un (108 bytes), so
# a long DIR gets a short directory under /tmp named after it.
run_dir_for() {
  local d=$1 node
  node=$(node_name)
  if ((${#d} + ${#node} + 40 < 108)); then
    echo "$d/run"
  else
    echo "/tmp/slurm-localhost-$(printf '%s' "$d" | cksum | cut -d' ' -f1)"
  fi
}

start_munged() {
  local d=$1 sock=$2/munge.socket key="$1/munge/munge.key"
  command -v munged >/dev/null || die "munged not found: run '$0 install' first"
  # The socket's directory must be searchable by all (jobs of other users
  # talk to munged too); the key itself is 0400.
  mkdir -p "$d/munge" "$(dirname "$sock")"
  chmod 0755 "$d/munge" "$(dirname "$sock")"
  if [[ ! -s $key ]]; then
    if command -v mungekey >/dev/null; then
      mungekey --create --keyfile="$key" >&2 2>/dev/null || mungekey -c -k "$key"
    else
      dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
    fi
  fi
  chown "$(id -u):$(id -g)" "$key"
  chmod 0400 "$key"
  local pid
  pid=$(pid_of "$d/pid/munged.pid")
  if pid_alive "$pid"; then
    say "munged already running (pid $pid)"
    return 0
  fi
  rm -f "$sock" "$sock.lock" "$d/pid/munged.pid"
  # --force: munged refuses to start as root, or with a socket or log under a
  # group/world-writable directory (e.g. /tmp), unless forced.
  munged --force --key-file="$key" --socket="$sock" --pid-file="$d/pid/munged.pid" \
    --log-file="$d/log/munged.log" --seed-file="$d/munge/munged.seed" ||
    { logs_tail "$d"; die "munged did not start"; }
  local i
  for ((i = 0; i < 50; i++)); do
    if munge -n -S "$sock" | unmunge -S "$sock" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.2
  done
  logs_tail "$d"
  die "munged is not answering on $sock"
}

# port_listened PORT: whether something listens on TCP PORT here.
port_listened() {
  local hex
  hex=$(printf '%04X' "$1")
  cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }'
}

# check_daemon DIR NAME: fail with the logs when NAME wrote its pid file and is gone.
check_daemon() {
  local d=$1 name=$2 pid
  [[ -s $d/pid/$name.pid ]] || return 0
  pid=$(pid_of "$d/pid/$name.pid")
  if ! pid_alive "$pid"; then
    logs_tail "$d"
    die "$name exited; its log is $d/log/$name.log"
  fi
}

write_conf() {
  local d=$1 run=$2 node=$3 conf="$1/slurm.conf" cpus mem
  cpus=$(cpu_count)
  mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 }' /proc/meminfo)
  [[ $mem -gt 0 ]] || mem=1
  cat >"$conf" <<EOF
# Written by scripts/slurm-localhost.sh up $d
ClusterName=mesobench
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=${SLURMCTLD_PORT:-6817}
SlurmdPort=${SLURMD_PORT:-6818}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$run/munge.socket
StateSaveLocation=$d/state
SlurmdSpoolDir=$run/spool
SlurmctldPidFile=$d/pid/slurmctld.pid
SlurmdPidFile=$d/pid/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=${SLURM_MPI_DEFAULT:-none}
SwitchType=switch/none
ReturnToService=2
MinJobAge=600
KillWait=5
Waittime=0
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=60
MailProg=/bin/true
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$node CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  echo "$conf"
}

cmd_up() {
  local d run node conf pid
  d=$(absdir "${1:-}")
  local b
  for b in munged slurmctld slurmd sinfo scontrol; do
    command -v "$b" >/dev/null || die "$b not found: run '$0 install' first"
  done
  run=$(run_dir_for "$d")
  mkdir -p "$d/state" "$d/log" "$d/pid" "$run/spool"
  node=$(node_name)
  conf=$(write_conf "$d" "$run" "$node")
  export SLURM_CONF=$conf

  local daemon port
  for daemon in slurmctld:"${SLURMCTLD_PORT:-6817}" slurmd:"${SLURMD_PORT:-6818}"; do
    port=${daemon#*:}
    daemon=${daemon%%:*}
    if port_listened "$port" && ! pid_alive "$(pid_of "$d/pid/$daemon.pid")"; then
      die "TCP port $port ($daemon) is already in use: a cluster of another DIR? Stop it with" \
        "'$0 down THAT_DIR', or choose other ports (SLURMCTLD_PORT=N SLURMD_PORT=M)"
    fi
  done

  start_munged "$d" "$run"

  pid=$(pid_of "$d/pid/slurmctld.pid")
  if pid_alive "$pid"; then
    say "slurmctld already running (pid $pid)"
  else
    rm -f "$d/pid/slurmctld.pid"
    slurmctld -f "$conf" || { logs_tail "$d"; die "slurmctld did not start"; }
  fi
  pid=$(pid_of "$d/pid/slurmd.pid")
  if pid_alive "$pid"; then
    say "slurmd already running (pid $pid)"
  else
    rm -f "$d/pid/slurmd.pid"
    slurmd -f "$conf" -N "$node" || { logs_tail "$d"; die "slurmd did not start"; }
  fi

  local state="" deadline=$((SECONDS + ${SLURM_UP_TIMEOUT:-60}))
  while ((SECONDS < deadline)); do
    check_daemon "$d" slurmctld
    check_daemon "$d" slurmd
    state=$(sinfo -h -N -n "$node" -o '%T' 2>/dev/null | head -n 1 || true)
    case $state in
      idle | mixed | allocated) break ;;
      # A node left drained, or down while its slurmd answers, by an earlier
      # run of this cluster (a trailing * means slurmd has not registered yet:
      # wait for it, ReturnToService=2 brings a down node back then).
      drain* | down)
        scontrol update NodeName="$node" State=RESUME >/dev/null 2>&1 || true ;;
    esac
    sleep 1
  done
  if [[ $state != idle && $state != mixed && $state != allocated ]]; then
    sinfo -N -l >&2 2>&1 || true
    scontrol show node "$node" >&2 2>&1 || true
    logs_tail "$d"
    die "node $node not idle after ${SLURM_UP_TIMEOUT:-60} s (state: '${state:-no answer}')"
  fi
  say "up: node $node ($(cpu_count) CPUs) $state in partition debug; logs in $d/log"
  echo "export SLURM_CONF=$conf"
}

stop_pidfile() {
  local name=$1 file=$2 pid i
  pid=$(pid_of "$file")
  if ! pid_alive "$pid"; then
    rm -f "$file"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    pid_alive "$pid" || break
    sleep 0.1
  done
  if pid_alive "$pid"; then
    say "$name (pid $pid) ignored SIGTERM for 10 s: SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$file"
  say "stopped $name (pid $pid)"
}

# our_daemons CONF: the pids of the live daemons of the cluster of CONF (munged,
# slurmctld and its slurmscriptd, slurmd and its slurmstepds), found by the
# SLURM_CONF=CONF in their environment (`up` exports it before starting them,
# and slurmd hands it on to slurmstepd), whatever became of their pid files.
# The jobs' own processes carry it too, but are not daemons: never listed.
our_daemons() {
  local conf=$1 p pid env
  for p in /proc/[0-9]*; do
    pid=${p#/proc/}
    case $(cat "$p/comm" 2>/dev/null) in
      munged | slurmctld | slurmscriptd | slurmd | slurmstepd) ;;
      *) continue ;;
    esac
    pid_alive "$pid" || continue
    env=$(tr '\0' '\n' <"$p/environ" 2>/dev/null) || continue
    if grep -qxF "SLURM_CONF=$conf" <<<"$env"; then echo "$pid"; fi
  done
}

# descendants PID...: the pids of all processes below these (not these).
descendants() {
  local -A kids=()
  local f line pid ppid rest child todo=("$@") out=()
  for f in /proc/[0-9]*/stat; do
    read -r line <"$f" 2>/dev/null || continue
    pid=${f#/proc/}
    pid=${pid%/stat}
    rest=${line##*) }  # after the command name, which may hold spaces
    ppid=${rest#* }
    ppid=${ppid%% *}
    kids[$ppid]+=" $pid"
  done
  while ((${#todo[@]} > 0)); do
    pid=${todo[0]}
    todo=("${todo[@]:1}")
    for child in ${kids[$pid]:-}; do
      out+=("$child")
      todo+=("$child")
    done
  done
  ((${#out[@]} == 0)) || printf '%s\n' "${out[@]}"
}

# stop_pids PID...: SIGTERM, up to 10 s, then SIGKILL.
stop_pids() {
  local pid i left
  (($# > 0)) || return 0
  kill -TERM "$@" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    left=()
    for pid in "$@"; do pid_alive "$pid" && left+=("$pid"); done
    ((${#left[@]} > 0)) || return 0
    sleep 0.1
  done
  say "SIGKILL for ${left[*]} (ignored SIGTERM for 10 s)"
  kill -KILL "${left[@]}" 2>/dev/null || true
  sleep 0.2
}

cmd_down() {
  local d conf
  [[ -n ${1:-} ]] || usage
  # A DIR removed under a running cluster still names its daemons (by their
  # SLURM_CONF), so a missing DIR is no reason to stop looking.
  if [[ -d $1 ]]; then
    d=$(cd "$1" && pwd -P)
  else
    d=$(realpath -m "$1")
  fi
  conf=$d/slurm.conf
  # Jobs still running would outlive slurmd (their slurmstepd): cancel them
  # and give their steps KillWait (5 s) and some to end.
  if [[ -f $conf ]] && pid_alive "$(pid_of "$d/pid/slurmctld.pid")"; then
    local ids i
    ids=$(SLURM_CONF=$conf timeout 10 squeue -h -o '%i' 2>/dev/null || true)
    if [[ -n $ids ]]; then
      say "cancelling jobs ${ids//$'\n'/ }"
      # shellcheck disable=SC2086
      SLURM_CONF=$conf timeout 10 scancel $ids 2>/dev/null || true
      for ((i = 0; i < 20; i++)); do
        [[ -z $(SLURM_CONF=$conf timeout 10 squeue -h -o '%i' 2>/dev/null || true) ]] && break
        sleep 1
      done
    fi
  fi
  if [[ -d $d/pid ]]; then
    stop_pidfile slurmd "$d/pid/slurmd.pid"
    stop_pidfile slurmctld "$d/pid/slurmctld.pid"
    stop_pidfile munged "$d/pid/munged.pid"
  fi
  # What the pid files did not name: slurmscriptd of a SIGKILLed slurmctld,
  # slurmstepds left by slurmd, daemons of a run whose DIR was removed; with
  # a slurmstepd, the processes of its job (it ignores SIGTERM, and they
  # would outlive it).
  local pids
  mapfile -t pids < <(our_daemons "$conf")
  if ((${#pids[@]} > 0)); then
    local p steps=()
    for p in "${pids[@]}"; do
      [[ $(cat "/proc/$p/comm" 2>/dev/null) == slurmstepd ]] && steps+=("$p")
    done
    if ((${#steps[@]} > 0)); then mapfile -t -O "${#pids[@]}" pids < <(descendants "${steps[@]}"); fi
    say "stopping what is left of this cluster: pids ${pids[*]}"
    stop_pids "${pids[@]}"
    mapfile -t pids < <(our_daemons "$conf")
    ((${#pids[@]} == 0)) || die "still running after SIGKILL: pids ${pids[*]}"
  fi
  local run
  run=$(run_dir_for "$d")
  rm -f "$run/munge.socket" "$run/munge.socket.lock"
  if [[ $run == /tmp/slurm-localhost-[0-9]* ]]; then
    rm -rf "$run"
  fi
  say "down: no daemon of $d left"
}

case ${1:-} in
  install) cmd_install ;;
  up) cmd_up "${2:-}" ;;
  down) cmd_down "${2:-}" ;;
  *) usage ;;
esac
