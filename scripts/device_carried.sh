# Sourced by the device scripts that run carried binaries: unpacks
# .carry/bins.tar.xz (built here with -DCMAKE_CUDA_ARCHITECTURES=90) into
# $BIN, puts the carried RE2 on the library path, and defines MB (mesobench),
# part NAME (is NAME in $PARTS?), stamp MESSAGE (a timed line in
# $O/status.txt) and counts LOG (of a GoogleTest log). Needs O (the output folder) and PARTS set.
mkdir -p "$O"
BIN=/tmp/meso-bin
mkdir -p "$BIN" && tar xJf .carry/bins.tar.xz -C "$BIN"
export LD_LIBRARY_PATH="$PWD/.deps/re2/lib:${LD_LIBRARY_PATH:-}"
MB=$BIN/mesobench
PARTS=" $PARTS "
part() { [[ $PARTS == *" $1 "* ]]; }
stamp() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$O/status.txt"; }
# "N ok, N skipped, N failed" of a GoogleTest log.
counts() { echo "$(grep -c '\[       OK \]' "$1") ok, $(grep -c '\[  SKIPPED \]' "$1") skipped, $(grep -c '\[  FAILED  \]' "$1") failed"; }
{ nvidia-smi -L; date -u; } > "$O/device.txt" 2>&1
