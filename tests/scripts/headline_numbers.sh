#!/usr/bin/env bash
# docs/headline-numbers.md is what scripts/headline_numbers.py writes from the
# committed results (regenerated here into a temporary directory), and every
# TPS or collisions/s figure of 4-5 digits that README.md quotes is on it.
# Usage: headline_numbers.sh <source dir>.
set -euo pipefail
S=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

python3 "$S/scripts/headline_numbers.py" --results "$S/results" -o "$T/headline-numbers.md" > /dev/null
if ! diff -u "$S/docs/headline-numbers.md" "$T/headline-numbers.md"; then
  echo "docs/headline-numbers.md is stale: run scripts/headline_numbers.py and commit it" >&2
  exit 1
fi

# A README figure such as "1625 TPS", "20,739 TPS" or "10814 collisions/s".
status=0
while read -r figure; do
  number=${figure%% *}
  number=${number//,/}
  if ! grep -Eq "(^|[^0-9.])${number} (TPS|collisions/s)" "$T/headline-numbers.md"; then
    echo "README.md quotes '$figure', which docs/headline-numbers.md does not hold" >&2
    status=1
  fi
done < <(grep -Eo '(^|[^0-9.,])[0-9]{1,2},?[0-9]{3} (TPS|collisions/s|collision steps per second)' "$S/README.md" \
           | sed -E 's/^[^0-9]//; s/collision steps per second/collisions\/s/')
# The generated page itself fits 100 columns outside its link lines.
if awk 'length > 100 && !/\]\(/' "$S/docs/headline-numbers.md" | grep -q .; then
  echo "docs/headline-numbers.md has lines over 100 columns" >&2
  status=1
fi
exit $status
