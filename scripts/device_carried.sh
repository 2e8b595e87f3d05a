# Sourced by the device scripts that run carried binaries: unpacks
# .carry/bins.tar.xz, or $BINS (built here with -DCMAKE_CUDA_ARCHITECTURES=90), into
# $BIN, puts the carried RE2 on the library path, and defines MB (mesobench),
# part NAME (is NAME in $PARTS?), stamp MESSAGE (a timed line in
# $O/status.txt), counts LOG (of a GoogleTest log), aniso_tests KT,
# sanitize KT FILTER, and mps_start / mps_stop. Needs O (the output folder) and PARTS set.
mkdir -p "$O"
BIN=${BIN_DIR:-/tmp/meso-bin}
mkdir -p "$BIN" && tar xJf "${BINS:-.carry/bins.tar.xz}" -C "$BIN"
export LD_LIBRARY_PATH="$PWD/.deps/re2/lib:${LD_LIBRARY_PATH:-}"
MB=$BIN/mesobench
PARTS=" $PARTS "
part() { [[ $PARTS == *" $1 "* ]]; }
stamp() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$O/status.txt"; }
# "N ok, N skipped, N failed" of a GoogleTest log.
counts() { echo "$(grep -c '\[       OK \]' "$1") ok, $(grep -c '\[  SKIPPED \]' "$1") skipped, $(grep -c '\[  FAILED  \]' "$1") failed"; }
{ nvidia-smi -L; date -u; } > "$O/device.txt" 2>&1
# aniso_tests KT: kernels_test's CudaAniso* first, then every test.
aniso_tests() {
  timeout 300 "$1" --gtest_color=no --gtest_filter='CudaAniso*' > "$O/aniso-tests.log" 2>&1
  stamp "CudaAniso* rc=$? $(counts "$O/aniso-tests.log")"
  timeout 400 "$1" --gtest_color=no > "$O/kernels-test.log" 2>&1
  stamp "kernels_test rc=$? $(counts "$O/kernels-test.log")"
}
# sanitize KT FILTER: compute-sanitizer memcheck and racecheck (MESO_TEST_VARIANT=graphs=off) of FILTER.
sanitize() {
  timeout 300 compute-sanitizer --tool memcheck --error-exitcode 1 "$1" --gtest_color=no --gtest_filter="$2" \
    > "$O/memcheck.log" 2>&1
  stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$O/memcheck.log" | tail -1)"
  MESO_TEST_VARIANT=graphs=off timeout 300 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 1 \
    "$1" --gtest_color=no --gtest_filter="$2" > "$O/racecheck.log" 2>&1
  stamp "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$O/racecheck.log" | tail -1)"
}
# mps_start: the MPS daemon, so that processes side by side share the GPU's SMs instead of
# time-slicing (stamped; left off when it will not start). mps_stop ends it if it runs.
mps_start() {
  command -v nvidia-cuda-mps-control > /dev/null || return 0
  export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
  mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY
  nvidia-cuda-mps-control -d && stamp "MPS on" || unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
}
mps_stop() { [[ -z ${CUDA_MPS_PIPE_DIRECTORY:-} ]] || echo quit | nvidia-cuda-mps-control; }
