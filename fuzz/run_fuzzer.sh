#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time from its committed seed
# corpus (ctest fuzz.<name>): exit 0 when it ends with no finding.
#   run_fuzzer.sh TARGET CORPUS_DIR SECONDS
# New inputs go to a scratch directory (the committed corpus is only read);
# a finding leaves its input as crash-*/leak-*/timeout-* in the scratch
# directory, whose path is printed: copy it into CORPUS_DIR once fixed.
set -euo pipefail
target=$1 corpus=$2 seconds=$3
scratch=$(mktemp -d "${TMPDIR:-/tmp}/meso-fuzz.XXXXXX")
mkdir "$scratch/new"
rc=0
# -timeout: a single input running 10 s is a hang; -rss_limit_mb: one using
# 2 GB is a memory blow-up (both are findings, as a crash is).
(cd "$scratch" && "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
  -print_final_stats=1 "$scratch/new" "$corpus") || rc=$?
if ((rc != 0)); then
  echo "run_fuzzer: $(basename "$target") found a failing input (exit $rc); kept in $scratch:" >&2
  ls "$scratch" >&2
  exit 1
fi
rm -rf "$scratch"
