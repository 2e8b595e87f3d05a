# Sourced by the CLI tests: expect_refused <needle> <args...> runs "$bin"
# with args and fails the test unless it exits 2 (input error) with a message
# containing needle.
expect_refused() {
  local needle=$1; shift
  local out rc=0
  out=$("$bin" "$@" 2>&1 >/dev/null) || rc=$?
  [[ $rc -eq 2 && "$out" == *"$needle"* ]] || { echo "FAIL (exit $rc): mesobench $* -> $out"; exit 1; }
  echo "ok: mesobench $* -> $needle"
}
