#!/usr/bin/env bash
# `mesobench run --steps N --checkpoint F` and `--restart F` under mpirun on
# CPU ranks (label mpi): a run on 2 ranks interrupted at a checkpoint and
# continued on 2 ranks ends in exactly the bytes of the uninterrupted run's
# final checkpoint (dpd-fluid, srd-fluid); the solvent's checkpoint of 2 ranks
# continues on one rank to the same bytes; MD particles on another rank count
# and a workload that does not decompose are refused with exit 2, naming
# why, and nothing written; polymer-srd runs on 2 ranks, its checkpoint
# refused.
# Usage: restart_on_ranks.sh MESOBENCH MPIEXEC [MPIRUN FLAGS...]
set -euo pipefail
set -f  # the case filters below are regular expressions, not globs
bin=$1
mpiexec=$2
shift 2
flags=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

on() { local n=$1; shift; "$mpiexec" -n "$n" "${flags[@]}" "$bin" "$@"; }

declare -A select=(
  [dpd]="--filter dpd-fluid/.*/rho=3/rc=1/.*N=8192\$ --param N=3000"
  [srd]="--filter srd-fluid.*L=10\$ --param L=8"
)
for w in dpd srd; do
  args=(run --backend cpu -q ${select[$w]})
  on 2 "${args[@]}" --steps 60 --checkpoint "$work/$w-whole.ckpt" > /dev/null
  on 2 "${args[@]}" --steps 30 --checkpoint "$work/$w-part.ckpt" > /dev/null
  on 2 "${args[@]}" --steps 60 --restart "$work/$w-part.ckpt" --checkpoint "$work/$w-resumed.ckpt" > /dev/null
  cmp "$work/$w-whole.ckpt" "$work/$w-resumed.ckpt" || { echo "FAIL: $w restart on 2 ranks is not bitwise"; exit 1; }
  echo "ok: $w on 2 ranks restarted at step 30 ends bitwise equal to the uninterrupted run"
done

# The solvent's 2-rank checkpoint continued on one rank: its collisions are
# bitwise one rank's, so the state is the same bytes.
"$bin" run --backend cpu -q ${select[srd]} --steps 60 --restart "$work/srd-part.ckpt" \
  --checkpoint "$work/srd-one.ckpt" > /dev/null
cmp "$work/srd-whole.ckpt" "$work/srd-one.ckpt" || { echo "FAIL: srd from 2 ranks on 1 is not bitwise"; exit 1; }
echo "ok: srd's 2-rank checkpoint continued on one rank ends bitwise equal"

# `refused WORDS FILE COMMAND...`: exit 2, a message with WORDS, FILE not written.
refused() {
  local words=$1 file=$2 out rc
  shift 2
  set +e
  out=$("$@" 2>&1)
  rc=$?
  set -e
  [[ $rc == 2 ]] || { echo "FAIL: exit $rc, expected 2: $out"; exit 1; }
  [[ $out == *"$words"* ]] || { echo "FAIL: no '$words' in: $out"; exit 1; }
  [[ ! -e $file ]] || { echo "FAIL: a refused run wrote $file"; exit 1; }
  echo "ok: refused: $(grep -m1 'error:' <<< "$out")"
}

# MD particles of 2 ranks on one rank.
refused "written on 2 ranks and this run has 1" "$work/refused.ckpt" \
  "$bin" run --backend cpu -q ${select[dpd]} --steps 60 --restart "$work/dpd-part.ckpt" --checkpoint "$work/refused.ckpt"
# polymer-srd (chains in the SRD solvent) under mpirun: runs on 2 ranks; its
# checkpoint (MD particles with a solvent) is refused there as on one rank.
on 2 run --backend cpu -q --filter 'polymer-srd/.*solvent=srd/chains=16/' --max-n 100000000 --param L=8 \
  --param N=10 --steps 100 > /dev/null || { echo "FAIL: polymer-srd on 2 ranks"; exit 1; }
echo "ok: polymer-srd ran 100 steps on 2 ranks"
refused "MD particles with an MPCD solvent" "$work/psrd.ckpt" \
  on 2 run --backend cpu -q --filter 'polymer-srd/.*solvent=srd/chains=16/' --max-n 100000000 --param L=8 \
  --param N=10 --steps 10 --checkpoint "$work/psrd.ckpt"
# A workload that does not decompose, under mpirun.
refused "gb-liquid does not run on several ranks yet" "$work/gb.ckpt" \
  on 2 run --backend cpu -q --filter 'gb-liquid.*N=8000$' --param N=250 --steps 5 --checkpoint "$work/gb.ckpt"
