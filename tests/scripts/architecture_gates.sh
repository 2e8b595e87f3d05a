#!/usr/bin/env bash
# The table of validation gates in ARCHITECTURE.md ("Validation cases", the
# rows between <!-- gates:begin --> and <!-- gates:end -->) against the cases
# the program registers, as `mesobench list` prints them ("validate: <name>"
# lines): the registry itself, so a case whose registration the linker
# dropped is missing too. Fails naming every case documented but not
# registered, registered but not documented, and documented twice.
#
# A row reads: | `name` | checks | reference |, or | `a`, `b` | ... | for a
# folder with two cases.
#
# Usage: tests/scripts/architecture_gates.sh <mesobench> [repository root]
set -euo pipefail
export LC_ALL=C  # one collation for sort, uniq and comm
mesobench=${1:?usage: architecture_gates.sh <mesobench> [repository root]}
root=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
doc=$root/ARCHITECTURE.md
fail=0
die() { echo "architecture_gates: $*" >&2; exit 1; }

[[ -f $doc ]] || die "no ARCHITECTURE.md under $root"

# The documented names: every `name` in the first column of the block's rows.
documented=$(awk '
  /<!-- gates:begin -->/ { inside = 1; begun = 1; next }
  /<!-- gates:end -->/   { inside = 0; ended = 1; next }
  inside && /^\| *`/ {
    split($0, f, "|")
    n = split(f[2], names, ",")
    for (i = 1; i <= n; ++i) { name = names[i]; gsub(/^[ \t]*`|`[ \t]*$/, "", name); print name }
  }
  END { if (!begun || !ended) print "MISSING-MARKERS" }
' "$doc")
[[ $documented != *MISSING-MARKERS* ]] || die "ARCHITECTURE.md has no <!-- gates:begin --> ... <!-- gates:end --> block"
[[ -n $documented ]] || die "the gates block of ARCHITECTURE.md has no rows (each starts with | \`name\` |)"

registered=$("$mesobench" list | sed -n 's/^validate: //p' | sort)
[[ -n $registered ]] || die "$mesobench list printed no \"validate: <name>\" line: is the registry empty?"

list() {  # list MESSAGE NAMES
  if [[ -n $2 ]]; then
    echo "architecture_gates: $1:"
    sed 's/^/  /' <<< "$2"
    fail=1
  fi
}
list "cases listed twice in ARCHITECTURE.md" "$(sort <<< "$documented" | uniq -d)"
documented=$(sort -u <<< "$documented")
list "documented in ARCHITECTURE.md but not registered" "$(comm -23 <(echo "$documented") <(echo "$registered"))"
list "registered but not in ARCHITECTURE.md's gate table" "$(comm -13 <(echo "$documented") <(echo "$registered"))"

if ((fail)); then exit 1; fi
echo "architecture_gates: ok ($(wc -l <<< "$registered") registered gates, each documented in ARCHITECTURE.md)"
