#!/usr/bin/env bash
# Progress on stderr: when stderr is not a terminal, plain lines every
# --progress-interval seconds naming the work, the steps done of the total,
# steps per second and the time left (no carriage returns); on a terminal
# (faked with script(1)) one live line redrawn with carriage returns;
# --quiet prints none; stdout (the table) is the same either way. Each names
# the case by its label (workload, parameter part, variant axes given) and
# the live line fits the terminal's width.
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Timed repeats are never split (progress comes between them): 5 repeats of
# 0.3 s give a line after each. The repeats are sized from the warm-up's step
# rate, so the rate must not jump after it. Unsorted (reorder=none): with the
# cpu default's cell sort it doubles. The interval (0.01 s) is far below a
# repeat because on a loaded machine (ctest -j) the rate can still change 4x:
# repeats of 0.08 s once missed a 0.1 s interval.
run=(run --filter 'dpd-fluid/.*rho=3/rc=1/.*N=8192$' --backend cpu --repeats 5 --min-time 0.3
     --warmup-time 0.2 --variant reorder=none,sort=0)
"$bin" "${run[@]}" --progress-interval 0.01 > "$work/out.txt" 2> "$work/err.txt"
# Label and counts on one line, or, where the two would pass 100 columns
# (issue 58), the counts on the next line.
line='^(  progress: dpd-fluid rho=3/rc=1/s=0.5/N=8192 reorder=none,sort=0:|   ) [0-9]+ of [0-9]+ steps \([0-9.]+%\), [0-9.e+]+ steps/s, [0-9.]+ s elapsed, about [0-9.]+ (s|min) left$'
n=$(grep -cE "$line" "$work/err.txt" || true)
labels=$(grep -c '^  progress: dpd-fluid rho=3/rc=1/s=0.5/N=8192 reorder=none,sort=0:' "$work/err.txt" || true)
[[ $labels -eq $n ]] || { echo "FAIL: $n counts for $labels labels:"; cat "$work/err.txt"; exit 1; }
awk 'length > 100 { print "FAIL: a progress line of " length " columns: " $0; bad = 1 } END { exit bad }' "$work/err.txt"
[[ $n -ge 4 ]] || { echo "FAIL: $n progress lines, want >= 4 (5 repeats of 0.3 s, --progress-interval 0.01):"; cat "$work/err.txt"; exit 1; }
if grep -q $'\r' "$work/err.txt"; then echo "FAIL: carriage return on a non-terminal"; exit 1; fi
echo "ok: $n plain progress lines"

# The default interval (10 s) prints nothing for a run this short.
"$bin" "${run[@]}" > /dev/null 2> "$work/err-default.txt"
if grep -q "progress:" "$work/err-default.txt"; then echo "FAIL: progress line within 10 s"; exit 1; fi

"$bin" "${run[@]}" --progress-interval 0.1 --quiet > "$work/out-quiet.txt" 2> "$work/err-quiet.txt"
if grep -q "progress\|done" "$work/err-quiet.txt"; then echo "FAIL: --quiet printed progress:"; cat "$work/err-quiet.txt"; exit 1; fi
[[ $(grep -cx 'dpd-fluid rho=3/rc=1/s=0.5/N=8192 reorder=none,sort=0' "$work/out-quiet.txt") -eq 1 ]] || { echo "FAIL: --quiet lost the table"; exit 1; }
echo "ok: --quiet prints no progress"

# A validation case announces its total (srd-momentum: every collision).
"$bin" validate --filter srd-momentum --backend cpu --param L=8 --param collisions=300 --progress-interval 0.1 \
  > /dev/null 2> "$work/err-val.txt"
grep -qE '^  progress: srd-momentum: [0-9]+ of 775 steps \([0-9.]+%\), .* about [0-9.]+ (s|min) left$' \
  "$work/err-val.txt" || { echo "FAIL: no validate progress line with the total:"; cat "$work/err-val.txt"; exit 1; }
echo "ok: validate progress names its total"

# On a terminal: a live line with a bar, redrawn with carriage returns.
if command -v script > /dev/null; then
  script -qec "$(printf '%q ' "$bin" "${run[@]}") 2>&1 >/dev/null" /dev/null > "$work/tty.txt" || true
  # (the label is cut to the terminal's width: script(1)'s may be narrow)
  grep -q $'\r  dpd-fluid rho=3/rc=1/[^\r]* \\[#*-*\\] ' "$work/tty.txt" ||
    { echo "FAIL: no live progress bar on a terminal:"; cat -v "$work/tty.txt" | head -5; exit 1; }
  echo "ok: live progress bar on a terminal"
  # A terminal 60 columns wide: every redraw fits (the bar goes, the label is cut, ~).
  script -qec "stty cols 60; $(printf '%q ' "$bin" "${run[@]}") 2>&1 >/dev/null" /dev/null > "$work/tty60.txt" || true
  widest=$(sed 's/\x1b\[K//g' "$work/tty60.txt" | tr '\r' '\n' | grep -v '^  done ' |
             awk '{ if (length > w) w = length } END { print w + 0 }')
  [[ $widest -le 59 ]] || { echo "FAIL: a live line of $widest columns on a 60-column terminal:"; cat -v "$work/tty60.txt" | head -3; exit 1; }
  # (how much of the label is left depends on the width of the counts)
  grep -q $'\r  dpd-[^\r]*~ [0-9]' "$work/tty60.txt" ||
    { echo "FAIL: the label was not cut to the 60-column terminal:"; cat -v "$work/tty60.txt" | head -3; exit 1; }
  echo "ok: the live line fits a 60-column terminal ($widest columns)"
fi
