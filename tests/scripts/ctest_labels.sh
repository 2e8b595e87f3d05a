#!/usr/bin/env bash
# `ctest -L validation` must select exactly the short gates: no full form
# (label `long`, hours on a CPU) and no GPU test may match it, and every
# full form must be reachable with `ctest -L long`.
# Usage: ctest_labels.sh <build dir>
set -euo pipefail
B=$1
short=$(ctest --test-dir "$B" -N -L validation | grep -E '^ +Test +#' || true)
long=$(ctest --test-dir "$B" -N -L long | grep -E '^ +Test +#' || true)
fail=0
if [ -z "$short" ]; then echo "ctest -L validation selects nothing"; fail=1; fi
if grep -q 'validation-long\.' <<< "$short"; then
  echo "ctest -L validation selects full forms:"; grep 'validation-long\.' <<< "$short"; fail=1
fi
if [ -z "$long" ]; then echo "ctest -L long selects nothing"; fail=1; fi
if grep -qv 'validation-long\.' <<< "$long"; then
  echo "ctest -L long selects tests that are not full forms:"; grep -v 'validation-long\.' <<< "$long"; fail=1
fi
echo "ctest -L validation: $(wc -l <<< "$short") tests; ctest -L long: $(wc -l <<< "$long") tests"
exit $fail
