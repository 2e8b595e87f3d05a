#!/usr/bin/env bash
# One source of the headline figures (issue 58): results/headline.json,
# docs/headline-numbers.md and every generated block of the docs
# (<!-- headline: ID ... -->) are what scripts/headline_numbers.py writes from
# the committed results, the figures `mesobench report results/` draws agree
# with the table (--check), a doc whose block disagrees fails, and every TPS
# or collisions/s figure of 4-5 digits that README.md quotes is in the table.
# Usage: headline_numbers.sh <source dir>.
set -euo pipefail
S=$1
H=$S/scripts/headline_numbers.py
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if ! python3 "$H" --root "$S" --check; then
  echo "the headline table and the docs that quote it disagree: run scripts/headline_numbers.py" >&2
  exit 1
fi

# Not vacuous: a README whose block quotes another figure than the table fails,
# naming the file; so does a block that quotes a row the table lacks.
mkdir -p "$T/tree/docs"
ln -s "$S/results" "$T/tree/results"
cp "$S/docs/headline-numbers.md" "$T/tree/docs/"
sed 's/| 1690 TPS |/| 1625 TPS |/' "$S/README.md" > "$T/tree/README.md"
cmp -s "$S/README.md" "$T/tree/README.md" && { echo "README.md quotes no 1690 TPS row to alter" >&2; exit 1; }
python3 "$H" --root "$T/tree" --check 2> "$T/err" && { echo "an altered README figure passed" >&2; exit 1; }
grep -qx "README.md differs from the headline table: run scripts/headline_numbers.py" "$T/err"
printf '<!-- headline: no-such-row -->\n<!-- /headline -->\n' > "$T/tree/README.md"
python3 "$H" --root "$T/tree" --check 2> "$T/err" && { echo "a block of an unknown row passed" >&2; exit 1; }
grep -q "quotes no-such-row, which is not a headline row" "$T/err"
echo "headline table, its page and the docs' blocks agree; an altered block fails"

# A README figure such as "1625 TPS", "20,739 TPS" or "10814 collisions/s".
status=0
while read -r figure; do
  number=${figure%% *}
  number=${number//,/}
  if ! grep -Eq "(^|[^0-9.])${number} (TPS|collisions/s)" "$S/docs/headline-numbers.md"; then
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
