#!/usr/bin/env bash
# The table of operations in ARCHITECTURE.md ("Operations", the rows between
# <!-- operations:begin --> and <!-- operations:end -->) against the
# operations the backends register: every `OperationTable::add("<name>", ...)`
# in the registration files of reference/ (the cpu backend) and kernels/ (the
# cuda backend), i.e. the files there that use OperationTable<, and every
# pair style's file there (md/pair_<name>.cpp, .cu: pair_force/<name>). Fails naming
# every operation documented but not registered, registered but not
# documented, and every row whose cpu or cuda column disagrees with the
# registrations.
#
# A row reads: | `name` | interface | cpu | cuda | what it does |, with cpu
# and cuda "yes" or "no".
#
# Usage: tests/scripts/architecture_ops.sh [repository root]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root"
doc=ARCHITECTURE.md
fail=0
die() { echo "architecture_ops: $*" >&2; exit 1; }

[[ -f $doc ]] || die "no $doc under $root"

# The documented rows: name, cpu, cuda.
rows=$(awk '
  /<!-- operations:begin -->/ { inside = 1; begun = 1; next }
  /<!-- operations:end -->/   { inside = 0; ended = 1; next }
  inside && /^\| *`/ {
    n = split($0, f, "|")
    name = f[2]; gsub(/^[ \t]*`|`[ \t]*$/, "", name)
    cpu = f[4]; gsub(/[ \t]/, "", cpu)
    cuda = f[5]; gsub(/[ \t]/, "", cuda)
    print name, cpu, cuda
  }
  END { if (!begun || !ended) print "MISSING-MARKERS" }
' "$doc")
[[ $rows != *MISSING-MARKERS* ]] || die "$doc has no <!-- operations:begin --> ... <!-- operations:end --> block"
[[ -n $rows ]] || die "the operations block of $doc has no rows (each starts with | \`name\` |)"

bad_cells=$(awk '$2 !~ /^(yes|no)$/ || $3 !~ /^(yes|no)$/' <<< "$rows")
if [[ -n $bad_cells ]]; then
  echo "architecture_ops: rows of $doc whose cpu/cuda columns are not yes or no (name cpu cuda):"
  sed 's/^/  /' <<< "$bad_cells"
  fail=1
fi
dups=$(awk '{print $1}' <<< "$rows" | sort | uniq -d)
if [[ -n $dups ]]; then
  echo "architecture_ops: operations listed twice in $doc:"
  sed 's/^/  /' <<< "$dups"
  fail=1
fi

# The registered names of one backend directory.
registered() {
  local dir=$1 files
  files=$(grep -rlE --include='*.cpp' --include='*.cu' 'OperationTable<' "$dir" || true)
  [[ -n $files ]] || die "no registration file (one using OperationTable<) under $dir/"
  # shellcheck disable=SC2086
  {
    grep -ohE '\badd\("[^"]+"' $files | sed -E 's/^add\("//; s/"$//'
    # Pair styles register themselves by file name (cmake/PairStyles.cmake):
    # <dir>/.../md/pair_<name>.cpp or .cu is pair_force/<name>.
    find "$dir" -path '*/md/pair_*' \( -name '*.cpp' -o -name '*.cu' \) |
      sed -E 's#.*/pair_([a-z0-9_]+)\.(cpp|cu)$#pair_force/\1#'
  } | sort -u
}
cpu=$(registered reference)
cuda=$(registered kernels)
[[ -n $cpu ]] || die "found no add(\"...\") registration under reference/: has the registration moved?"
[[ -n $cuda ]] || die "found no add(\"...\") registration under kernels/: has the registration moved?"

documented=$(awk '{print $1}' <<< "$rows" | sort -u)
all=$(sort -u <<< "$cpu"$'\n'"$cuda")

list() {  # list MESSAGE NAMES
  if [[ -n $2 ]]; then
    echo "architecture_ops: $1:"
    sed 's/^/  /' <<< "$2"
    fail=1
  fi
}
list "documented in $doc but registered by no backend" "$(comm -23 <(echo "$documented") <(echo "$all"))"
list "registered but not documented in $doc" "$(comm -13 <(echo "$documented") <(echo "$all"))"

# The cpu and cuda columns against each backend's registrations.
columns=""
while read -r name c g; do
  grep -qxF "$name" <<< "$all" || continue  # reported above
  want_c=no; grep -qxF "$name" <<< "$cpu" && want_c=yes
  want_g=no; grep -qxF "$name" <<< "$cuda" && want_g=yes
  [[ $c == "$want_c" ]] || columns+="$name: cpu column says $c, reference/ registers it: $want_c"$'\n'
  [[ $g == "$want_g" ]] || columns+="$name: cuda column says $g, kernels/ registers it: $want_g"$'\n'
done <<< "$rows"
list "backend columns of $doc that disagree with the registrations" "${columns%$'\n'}"

if ((fail)); then exit 1; fi
echo "architecture_ops: ok ($(wc -l <<< "$documented") operations documented in $doc;" \
     "registered: cpu $(wc -l <<< "$cpu"), cuda $(wc -l <<< "$cuda"))"
