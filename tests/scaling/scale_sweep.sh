#!/bin/bash
# mesobench scale end to end on CPU ranks (label mpi): a weak and a strong
# sweep through mpirun, their summaries checked against the results schema
# and for the efficiency definition; a walled fluid's grid; the Slurm scripts
# it emits; bad input.
# Usage: scale_sweep.sh MESOBENCH WORKDIR
set -euo pipefail
MB=$1
W=$2
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
rm -rf "$W"
mkdir -p "$W"
extra=()
[ "$(id -u)" = 0 ] && extra=(--mpirun-args "--bind-to none")
fail() { echo "FAIL: $*" >&2; exit 1; }

"$MB" scale --mode weak --workload dpd-fluid --ranks 1,2 --per-rank 3000 --steps 20 --warmup 5 --repeats 2 \
  --backend cpu --out "$W/weak" "${extra[@]}"
"$MB" scale --mode strong --workload lj-liquid --ranks 1,2,4 --total 4000 --param rho=0.5 --steps 10 --warmup 5 \
  --repeats 2 --backend cpu --out "$W/strong" "${extra[@]}"
# The MPCD solvent: a step is a collision; N is the cubic box of whole cells
# nearest to 4000 per rank at rho = 10 (7^3 and 9^3 cells).
"$MB" scale --mode weak --workload srd-fluid --ranks 1,2 --per-rank 4000 --steps 10 --warmup 2 --repeats 2 \
  --backend cpu --out "$W/srd" "${extra[@]}"

python3 - "$W/weak/summary.json" "$W/strong/summary.json" "$W/srd/summary.json" <<'PY'
import json, sys
weak, strong, srd = (json.load(open(p)) for p in sys.argv[1:4])
sizes = {"dpd-fluid": lambda p: 3000 * p["ranks"], "lj-liquid": lambda p: 4000,
         "srd-fluid": lambda p: {1: 3430, 2: 7290}[p["ranks"]]}
for d, mode, ranks in ((weak, "weak", [1, 2]), (strong, "strong", [1, 2, 4]), (srd, "weak", [1, 2])):
    assert d["kind"] == "scaling" and d["mode"] == mode, d.get("kind")
    assert [p["ranks"] for p in d["points"]] == ranks, [p["ranks"] for p in d["points"]]
    base = d["points"][0]
    for p in d["points"]:
        s = p["split"]
        assert all(s[k] >= 0 for k in ("compute", "pack", "copy", "mpi_wait")), s
        # The split adds up to the step (compute is the remainder, never negative).
        total = s["compute"] + s["pack"] + s["copy"] + s["mpi_wait"]
        assert abs(total - p["seconds_per_step"]) <= 1e-9 + 1e-6 * p["seconds_per_step"] or s["compute"] == 0, (total, p)
        # Weak: particle-steps per second per rank relative to the first
        # point (TPS itself when N grows exactly with the ranks).
        if mode == "strong":
            e = (p["tps_median"] / base["tps_median"]) / (p["ranks"] / base["ranks"])
        else:
            e = (p["tps_median"] * p["N"] / p["ranks"]) / (base["tps_median"] * base["N"] / base["ranks"])
        assert abs(p["efficiency"] - e) < 1e-12, (p["efficiency"], e)
        assert p["local_particles_min"] <= p["local_particles_max"]
        n = p["N"]
        assert n == sizes[d["workload"]](p), (d["workload"], mode, n)
    assert base["efficiency"] == 1.0
    assert d["points"][1]["migrations"] >= 1
print("summaries ok")
PY
python3 "$ROOT/scripts/validate_results.py" "$W/weak" "$W/strong" "$W/srd"

# Slit walls on ranks: the grid keeps z whole (10 x 10 x 12: without the
# walls two ranks would split z, 1x1x2), and the walled fluid runs.
"$MB" scale --mode strong --workload dpd-channel --ranks 2 --total 3000 --steps 10 --warmup 2 --repeats 1 \
  --backend cpu --out "$W/channel" "${extra[@]}"
python3 - "$W/channel/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["workload"] == "dpd-channel" and [p["grid"] for p in d["points"]] == ["2x1x1"], d["points"]
PY

# Slurm scripts: one per point and submit-all.sh, nothing run.
"$MB" scale --mode strong --workload dpd-fluid --ranks 2,8 --total 24000 --backend cuda --emit slurm "$W/jobs" \
  --partition gpu --time 00:10:00 --tasks-per-node 4
for r in 2 8; do
  f="$W/jobs/point-r$r.sbatch"
  [ -f "$f" ] || fail "no $f"
  grep -q "^#SBATCH --ntasks=$r$" "$f" || fail "$f: ntasks"
  grep -q "^#SBATCH --gpus-per-task=1$" "$f" || fail "$f: gpus-per-task"
  grep -q "^#SBATCH --partition=gpu$" "$f" || fail "$f: partition"
  grep -q "^#SBATCH --time=00:10:00$" "$f" || fail "$f: time"
  grep -q "scale-point --workload dpd-fluid --n 24000 " "$f" || fail "$f: command"
done
grep -q "^#SBATCH --nodes=2$" "$W/jobs/point-r8.sbatch" || fail "8 ranks at 4 per node need 2 nodes"
grep -q "dependency=afterany" "$W/jobs/submit-all.sh" || fail "submit-all.sh has no summary job"
[ ! -e "$W/jobs/point-r2.json" ] || fail "--emit ran a point"

# Bad input: exit 2 and a message naming the value.
expect_refused() {
  local what=$1 pattern=$2; shift 2
  set +e
  out=$("$@" 2>&1)
  rc=$?
  set -e
  [ $rc = 2 ] || fail "$what: exit $rc, not 2: $out"
  echo "$out" | grep -q -- "$pattern" || fail "$what: message '$out' does not say '$pattern'"
}
expect_refused "weak without --per-rank" "needs --per-rank" "$MB" scale --mode weak --workload dpd-fluid --ranks 1,2 --total 10
expect_refused "bad rank list" "'x' is not a rank count" "$MB" scale --mode weak --ranks 1,x --per-rank 100
expect_refused "thin domains" "thinner than the ghost layer\|no grid of 64 ranks" \
  "$MB" scale --mode strong --workload dpd-fluid --ranks 64 --total 300 --backend cpu --out "$W/thin"
expect_refused "grid that does not fit" "1 wide along x" \
  "$MB" scale --mode strong --workload dpd-fluid --ranks 10 --total 3000 --grid 10x1x1 --backend cpu --out "$W/thin"
expect_refused "MD-SCF workload" "not decomposed over ranks yet" \
  "$MB" scale --mode strong --workload mdscf-dppc --ranks 1,2 --total 3000 --backend cpu --out "$W/thin"
expect_refused "Lees-Edwards on ranks" "Lees-Edwards shear is not decomposed over ranks yet" \
  "$MB" scale --mode strong --workload dpd-fluid --ranks 1,2 --total 3000 --backend cpu --param shear_rate=0.1 \
  --out "$W/sheared"
expect_refused "slit walls across z" "rank grid 1x1x2 splits z, the axis normal to the slit walls" \
  "$MB" scale --mode strong --workload dpd-channel --ranks 2 --total 3000 --grid 1x1x2 --backend cpu --out "$W/thin"
expect_refused "MPCD domains under two cells" "two cells of an MPCD solvent" \
  "$MB" scale --mode strong --workload srd-fluid --ranks 2 --total 270 --backend cpu --out "$W/thin"
[ ! -e "$W/thin" ] || fail "a refused sweep left $W/thin behind"
echo "scale sweep ok"
