#!/usr/bin/env bash
# Every bad option and physical parameter must give a message naming the value,
# exit code 2, and write no output file.
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

expect_bad() {  # expect_bad <needle> <args...>
  local needle=$1; shift
  local out rc shown="$*"
  shown=${shown:0:200}  # a 90,000-character --filter is not echoed whole
  local json=(--json "$work/out.json")
  [[ " $* " == *" --json "* ]] && json=()
  out=$("$bin" "$@" "${json[@]}" 2>&1 >/dev/null)
  rc=$?
  if [[ $rc -ne 2 ]]; then
    echo "FAIL (exit $rc, want 2): mesobench $shown"; echo "${out:0:500}"; failures=$((failures + 1)); return
  fi
  if [[ "$out" != *"$needle"* ]]; then
    echo "FAIL (message lacks '$needle'): mesobench $shown"; echo "${out:0:500}"; failures=$((failures + 1)); return
  fi
  if compgen -G "$work/out.json*" >/dev/null; then
    echo "FAIL (output written): mesobench $shown"; failures=$((failures + 1)); return
  fi
  echo "ok: mesobench $shown -> $needle"
}

expect_bad "rho = 0"            run --filter 'N=8192$' --param rho=0
expect_bad "rho = -3"           run --filter 'N=8192$' --param rho=-3
expect_bad "rc = 0 is outside 0.1 .. 10" run --filter 'N=8192$' --param rc=0
expect_bad "rc = -1 is outside 0.1 .. 10" run --filter 'N=8192$' --param rc=-1
expect_bad "dt = 0"             run --filter 'N=8192$' --param dt=0
expect_bad "dt = -0.01"         run --filter 'N=8192$' --param dt=-0.01
expect_bad "box length 2.5 is too short" run --filter 'N=8192$' --param L=2.5
expect_bad "too short"          run --filter 'N=8192$' --param N=10
expect_bad "gamma=nan is invalid" run --filter 'N=8192$' --param gamma=nan
expect_bad "kT = 0"             run --filter 'N=8192$' --param kT=0
expect_bad "skin = -0.1"        run --filter 'N=8192$' --param skin=-0.1
expect_bad "rho=abc"            run --filter 'N=8192$' --param rho=abc
expect_bad "'colour' is unknown" run --filter 'N=8192$' --param colour=red
expect_bad "backend 'gpu3' is unknown" run --filter 'N=8192$' --backend gpu3
expect_bad "nlist=magic"        run --filter 'N=8192$' --variant nlist=magic
expect_bad "axis 'colour'"      run --filter 'N=8192$' --variant colour=red
expect_bad "precision=mixed"    run --filter 'N=8192$' --backend cpu --variant precision=mixed
expect_bad "matches no benchmark case" run --filter 'no-such-workload'
expect_bad "not a valid regular expression" run --filter '(['
# --filter is matched by RE2 (linear time, no recursion), under 10 s each: a
# 90,000-character pattern overflowed std::regex's stack (SIGSEGV), and a
# backtracking pattern ran for minutes. Longer than 1000 is refused.
tmo=$work/timeout-bin
printf '#!/bin/bash\nexec timeout 10 %q "$@"\n' "$bin" > "$tmo" && chmod +x "$tmo"
long_filter=$(head -c 90000 /dev/zero | tr '\0' a)
bin=$tmo expect_bad "90000 characters long; at most 1000 are allowed" run --filter "$long_filter"
bin=$tmo expect_bad "90000 characters long; at most 1000 are allowed" validate --filter "$long_filter"
bin=$tmo expect_bad "1001 characters long" run --filter "$(head -c 1001 /dev/zero | tr '\0' a)"
bin=$tmo expect_bad "'(.*)*(.*)*X' matches no benchmark case" run --filter '(.*)*(.*)*X'
bin=$tmo expect_bad "'(.*)*(.*)*X' matches no validation case" validate --filter '(.*)*(.*)*X'
bin=$tmo expect_bad "'(a*)*(a*)*Q' matches no benchmark case" run --filter '(a*)*(a*)*Q'
expect_bad "not a valid regular expression (RE2 syntax): invalid perl operator: (?=" run --filter '(?=zzzz)'
# 1000 characters are allowed (500 optional x's match every name).
out=$(timeout 10 "$bin" list --filter "$(printf 'x?%.0s' {1..500})" 2>&1); rc=$?
[[ $rc -eq 0 && "$out" == *"dpd-fluid/"* ]] ||
  { echo "FAIL (exit $rc): list --filter of 1000 characters -> ${out:0:200}"; failures=$((failures + 1)); }
expect_bad "--repeats"          run --filter 'N=8192$' --repeats 0
expect_bad "--min-time"         run --filter 'N=8192$' --min-time -1
expect_bad "frobnicate"         run --frobnicate
expect_bad "does not exist"     run --filter 'N=8192$' --json "$work/missing/dir/out.json"
expect_bad "integrator 'leapfrog'" run --filter 'N=8192$' --param integrator=leapfrog
expect_bad "matches no validation case" validate --filter 'nothing-here'
# Lennard-Jones workload: LJ parameters, thermostat and mode.
expect_bad "rc = -1 is outside 1 .. 10 sigma" run --filter 'lj-liquid' --param rc=-1
expect_bad "LJ r_on = 4"        run --filter 'lj-liquid' --param mode=xplor --param ron=4
expect_bad "LJ mode 'smooth'"   run --filter 'lj-liquid' --param mode=smooth
expect_bad "tau = 0"            run --filter 'lj-liquid' --param tau=0
expect_bad "tau = -0.5"         run --filter 'lj-liquid' --param tau=-0.5
expect_bad "integrator 'nph'"   run --filter 'lj-liquid' --param integrator=nph
expect_bad "'a' is unknown for lj-liquid" run --filter 'lj-liquid' --param a=25
expect_bad "rho = 2 is outside 0.001 .. 1.2" run --filter 'lj-liquid' --param rho=2
expect_bad "too dense"          run --filter 'lj-liquid' --param rho=1.2 --param N=9
expect_bad "--param 'colour=1'" validate --filter poiseuille --param colour=1
expect_bad "number > 0"         validate --filter poiseuille --param runs=abc
expect_bad "runs = 1"           validate --filter poiseuille-transient --param runs=1
expect_bad "max_time = 50"      validate --filter poiseuille-transient --param max_time=50
expect_bad "nve-drift N = 50 is invalid" validate --filter '^nve-drift-shift$' --param N=50
expect_bad "nve-drift N = 1000.5 is invalid" validate --filter '^nve-drift-xplor$' --param N=1000.5
expect_bad "short_steps = 700 is invalid" validate --filter '^nve-drift-rigid$' --param short_steps=700
# Negative controls (docs/testing.md): an unknown one, one a selected case lacks, a --param of the
# knob the control perturbs, and --control with --merge.
expect_bad "--control 'nope': validation case dpd-temperature has no such control; it has {noise-1.1}" \
  validate --filter dpd-temperature --control nope
expect_bad "validation case srd-momentum has no such control" \
  validate --filter 'dpd-temperature|srd-momentum' --control noise-1.1
expect_bad "--param noise with --control noise-1.1" \
  validate --filter dpd-temperature --control noise-1.1 --param noise=1.2

# Too large to allocate: refused before allocating, naming N and the bytes.
expect_bad "N = 3e+21"          run --filter 'dpd-fluid/.*rho=3/rc=1/.*N=8192$' --param L=1e7
expect_bad "bytes"              run --filter 'dpd-fluid/.*rho=3/rc=1/.*N=8192$' --param L=1e7
expect_bad "N = 3000000000"     run --filter 'dpd-fluid/.*rho=3/rc=1/.*N=8192$' --param L=1000
expect_bad "of host memory"     run --filter 'dpd-fluid/.*rho=3/rc=1/.*N=8192$' --param L=1000
expect_bad "N = 10000000000000 (rho = 10, L = 10000) is too many" run --filter 'srd-fluid/.*L=10$' --param L=1e4
# An allocation that fails anyway (here: a 600 MB address-space limit) is
# reported the same way, not as std::bad_alloc with exit 1.
oom=$work/oom-bin
printf '#!/bin/bash\nulimit -v 600000\nOMP_NUM_THREADS=2 exec %q "$@"\n' "$bin" > "$oom" && chmod +x "$oom"
bin=$oom expect_bad "N = 4194304 did not fit in host memory" run --filter 'dpd-fluid/.*rho=3/rc=1/.*N=4194304$' \
  --backend cpu --max-n 4194304 --repeats 1 --min-time 0.01 --warmup-time 0
# --max-n (262144 on the cpu) sees a case after --param: srd-fluid L = 50
# (1.25M) made L = 8 runs, dpd-fluid N = 8192 made N = 300000 is skipped.
"$bin" run --backend cpu --filter 'srd-fluid/.*L=50$' --param L=8 --repeats 1 --min-time 0.01 --warmup-time 0 -q \
  > /dev/null || { echo "FAIL: srd-fluid L = 50 with --param L=8 did not run under --max-n"; exit 1; }
expect_bad "with N <= 262144" run --backend cpu --filter 'dpd-fluid/.*rho=3/rc=1/.*N=8192$' --param N=300000
# A time step that moves a particle farther than half the skin in one step.
expect_bad "dt = 1e10 is outside 1e-06 .. 0.1" run --filter 'dpd-fluid/.*rho=3/rc=1/.*N=8192$' --param dt=1e10
# Within its range, a dt that moves a particle at the thermal speed past half
# the skin (half the cutoff without a skin; half the box for the solvent).
expect_bad "dt = 0.1 is too large" run --filter 'dpd-fluid/.*rho=3/rc=1/.*N=8192$' --param dt=0.1
expect_bad "dt = 0.1 is too large" run --filter 'dpd-fluid/.*rho=3/rc=1/.*N=8192$' --param dt=0.1 --param skin=0 \
  --param kT=100
expect_bad "dt = 0.05 is too large" run --filter 'lj-liquid' --param dt=0.05 --param kT=100
expect_bad "dt = 10 is too large" run --filter 'srd-fluid/.*L=10$' --param dt=10
# Lees-Edwards shear (docs/walls.md): a bad rate.
expect_bad "shear_rate=nan is invalid" run --filter 'dpd-fluid/.*N=8192$' --param shear_rate=nan
expect_bad "shear_rate = 20 is outside -10 .. 10" run --filter 'dpd-fluid/.*N=8192$' --param shear_rate=20
# Slit walls (docs/walls.md): an unknown geometry, their parameters without
# them, and a rule they do not support are refused naming the value.
expect_bad "walls = 'box' is unknown" run --filter 'srd-fluid/.*L=10$' --param walls=box
expect_bad "--param g does nothing" run --filter 'srd-fluid/.*L=10$' --param g=0.01
expect_bad "need the srd rule" run --filter 'srd-fluid/.*L=10$' --param walls=slit --param rule=at
expect_bad "control = 3 is invalid" validate --filter srd-slit-poiseuille --param control=3
# Lees-Edwards shear of the solvent (docs/walls.md): refused with walls, with
# the at rule, not finite, and a bad control value of its gate.
expect_bad "shear_rate = 0.1 with slit walls" run --filter 'srd-fluid/.*L=10$' --param walls=slit \
  --param shear_rate=0.1
expect_bad "shear_rate = 0.1 with slit walls" run --filter 'srd-channel/.*L=10/' --param shear_rate=0.1
expect_bad "shear_rate = 0.1 needs the srd rule" run --filter 'srd-fluid/.*L=10$' --param shear_rate=0.1 \
  --param rule=at
expect_bad "shear_rate=nan is invalid" run --filter 'srd-fluid/.*L=10$' --param shear_rate=nan
expect_bad "jump = 2 is invalid" validate --filter srd-couette --param jump=2
# The channels (docs/walls.md): bad wall parameters by name, a slit lower
# than 2 r_c, a rule or integrator the walls do not run with.
expect_bad "walls = 'box' is unknown" run --filter 'srd-channel/.*L=10/' --param walls=box
expect_bad "wall_speed=nan is invalid" run --filter 'dpd-channel/.*L=22\.' --param wall_speed=nan
expect_bad "wall_speed = 20 is outside -10 .. 10" run --filter 'dpd-channel/.*L=22\.' --param wall_speed=20
expect_bad "wall_force=2 is invalid" run --filter 'dpd-channel/.*L=22\.' --param wall_force=2
expect_bad "dpd-channel L = 1.5 is too small" run --filter 'dpd-channel/.*L=22\.' --param L=1.5
expect_bad "integrator=langevin is not provided for dpd-channel" run --filter 'dpd-channel/.*L=22\.' \
  --param integrator=langevin
expect_bad "control = 3 is invalid" validate --filter dpd-slit-poiseuille --param control=3
expect_bad "dt=inf is invalid"   run --filter 'dpd-fluid/.*rho=3/rc=1/.*N=8192$' --param dt=inf
# --max-n takes a particle count (CLI11 alone would wrap -1 to 2^64 - 1).
expect_bad "value '-1' is invalid" run --filter 'N=8192$' --max-n -1
expect_bad "value '0' is invalid" run --filter 'N=8192$' --max-n 0
expect_bad "value 'lots' is invalid" run --filter 'N=8192$' --max-n lots

# Input within every range that still diverges (a hot, dense LJ liquid at
# the largest dt: 4e36 kT after 10 steps, finite but meaningless) is
# refused, and nothing is written.
expect_bad "the simulation diverged: temperature" run --filter 'lj-liquid' --param N=4000 --param phi=0.6 \
  --param kT=100 --param dt=0.05 --param skin=3 --param integrator=nve --steps 10

# Values outside a parameter's meaningful range (an ideal gas in an
# astronomical box, a cutoff below any spacing) are refused naming the range.
expect_bad "rc = 1e-300 is outside 0.1 .. 10" run --filter 'N=8192$' --param rc=1e-300
expect_bad "rho = 1e-300 is outside 0.1 .. 200" run --filter 'N=8192$' --param rho=1e-300
expect_bad "angle = 200 is outside 1 .. 180" run --filter 'srd-fluid.*L=10$' --param angle=200
expect_bad "kelvin = 5 is outside 200 .. 500" run --filter 'mdscf-dppc.*lipids=528/' --param kelvin=5
# A parameter the run does not use, and an integrator the workload does not provide.
expect_bad "--param lambda does nothing in this run: it is used only with integrator=gw" \
  run --filter 'N=8192$' --param lambda=0.5
expect_bad "--param ron does nothing in this run: it is used only with mode=xplor" run --filter 'lj-liquid' --param ron=2.5
expect_bad "--param tau does nothing" run --filter 'lj-liquid' --param integrator=nve --param tau=1
expect_bad "--param gamma does nothing" run --filter 'lj-liquid' --param gamma=2
expect_bad "--param angle does nothing" run --filter 'srd-fluid.*L=10$' --param rule=at --param angle=90
expect_bad "shape 'cube' is unknown: allowed values are janus, triblock, disk, rod" \
  run --filter 'janus-triblock.*L=20/' --param shape=cube
expect_bad "--param aA does nothing in this run: it is used only with shape=janus or triblock" \
  run --filter 'janus-triblock.*L=20/' --param shape=disk --param aA=10
expect_bad "--param mu does nothing in this run: it is used only with shape=disk or rod" \
  run --filter 'janus-triblock.*L=20/' --param mu=0.5
expect_bad "integrator=nvt is not provided for dpd-fluid" run --filter 'N=8192$' --param integrator=nvt
expect_bad "integrator=gw is not provided for lj-liquid" run --filter 'lj-liquid' --param integrator=gw
# gb-liquid: orientational particles run with langevin or nve, from an
# aligned start that a dense system cannot hold, and on the CPU reference.
expect_bad "integrator=nvt is not provided for gb-liquid" run --filter 'gb-liquid.*N=8000$' --param integrator=nvt
expect_bad "is too dense for an aligned start" run --filter 'gb-liquid.*N=8000$' --param rho=0.9
expect_bad "must exceed the end-to-end contact" run --backend cpu --filter 'gb-liquid.*N=8000$' --param rc=2.5
expect_bad "shorter than 2 (r_c + skin)" run --backend cpu --filter 'ssd-water.*N=64000$' --param N=100
expect_bad "integrator=nvt is not provided for ssd-water" run --filter 'ssd-water.*N=64000$' --param integrator=nvt

# The workloads' parameter tables: an unknown key lists the workload's keys
# from its table; a switch is 0 or 1 (thermostat=2 was once taken as on).
expect_bad "allowed keys are L, N, rho, kT, angle, dt, rule, thermostat, shift, walls, g, virtual, wall_speed, shear_rate, seed" \
  run --filter 'srd-fluid.*L=10$' --param colour=1
expect_bad "thermostat=2 is invalid: expected 0 (off) or 1 (on)" run --filter 'srd-fluid.*L=10$' --param thermostat=2
expect_bad "shift=yes is invalid"  run --filter 'mdscf-dppc.*lipids=528/' --param shift=yes
expect_bad "'rho' is unknown for mdscf-dppc" run --filter 'mdscf-dppc.*lipids=528/' --param rho=3
# table-melt: a table file that is not there, half a set of files, a bead count that is no
# whole number of chains, an analytic table's parameter with files.
expect_bad "cannot read table file '/nope.table'" run --filter 'table-melt.*N=10000$' --param N=1000 \
  --param pair_table=/nope.table --param bond_table=/nope.table --param angle_table=/nope.table
expect_bad "(1 of the three given)" run --filter 'table-melt.*N=10000$' --param pair_table=/nope.table
expect_bad "N=1001 is invalid: a positive multiple of the chain length 50" run --filter 'table-melt.*N=10000$' \
  --param N=1001
expect_bad "--param a does nothing in this run" run --filter 'table-melt.*N=10000$' --param a=20 \
  --param pair_table=/x --param bond_table=/y --param angle_table=/z
out=$("$bin" scale --mode weak --workload nope --ranks 1 --per-rank 1000 --out "$work/sweep" 2>&1); rc=$?
[[ $rc -eq 2 && "$out" == *"--workload 'nope' is not a workload (dpd-channel, dpd-fluid, dpd-vesicle, gb-liquid, janus-triblock, living-polymerization, lj-liquid, mdscf-dppc, polymer-srd, srd-channel, srd-fluid, ssd-water, surface-polymerization, table-melt)"* ]] ||
  { echo "FAIL (exit $rc): scale --workload nope -> $out"; failures=$((failures + 1)); }
out=$("$bin" scale --mode weak --workload dpd-fluid --ranks 1,2,1 --per-rank 1000 --out "$work/sweep" 2>&1); rc=$?
[[ $rc -eq 2 && "$out" == *"1 is given twice"* && ! -e "$work/sweep" ]] ||
  { echo "FAIL (exit $rc): scale --ranks 1,2,1 -> $out"; failures=$((failures + 1)); }
help=$("$bin" help); rc=$?
[[ $rc -eq 0 && "$help" == *"Subcommands:"* && "$help" == *"validate"* ]] ||
  { echo "FAIL (exit $rc): mesobench help"; failures=$((failures + 1)); }
# `list --params` prints every workload's table: each key with its unit and meaning.
params=$("$bin" list --params)
for w in dpd-fluid lj-liquid mdscf-dppc srd-fluid; do
  grep -q "^$w: " <<< "$params" || { echo "FAIL: list --params has no $w"; failures=$((failures + 1)); }
done
grep -Eq '^  gamma \[1/ps\] +Langevin drag' <<< "$params" ||
  { echo "FAIL: list --params lacks mdscf-dppc's gamma in 1/ps"; failures=$((failures + 1)); }
[[ $("$bin" list --params --filter lj | grep -c '^[a-z]') -eq 1 ]] ||
  { echo "FAIL: list --params --filter lj lists other workloads"; failures=$((failures + 1)); }
awk 'length > 100 { bad = 1 } END { exit bad }' <<< "$params" ||
  { echo "FAIL: list --params has lines over 100 columns"; failures=$((failures + 1)); }

if [[ $failures -ne 0 ]]; then echo "$failures bad-input check(s) failed"; exit 1; fi
echo "all bad-input checks passed"
