#!/usr/bin/env bash
# `mesobench report`: on the small sample cut from committed results
# (tests/data/report-sample/), every figure whose data is there exists, is a
# PNG of real size, and has the expected axes and series (report.json records
# what each saved figure shows); figures without data are skipped with a line
# on the page; bad input exits 2 and writes nothing.
# Usage: report.sh <mesobench> <source dir>. Exit 77 (skip) without matplotlib.
set -euo pipefail
B=$1 S=$2
bin=$B
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
source "$S/tests/cli/expect_refused.sh"

# Bad input first: none of these may create the output directory.
expect_refused "does not exist" report "$T/no-such-dir" -o "$T/out"
mkdir "$T/empty"
expect_refused "holds no results" report "$T/empty" -o "$T/out"
mkdir -p "$T/notes" && echo hello > "$T/notes/keep.txt"
expect_refused "is not an earlier mesobench report" report "$S/tests/data/report-sample" -o "$T/notes"
[[ -f "$T/notes/keep.txt" ]] || { echo "report touched an unrelated directory" >&2; exit 1; }
# mesobench without python3 on PATH, and with a matplotlib that fails to import.
printf '#!/bin/bash\nPATH=/nonexistent exec %q "$@"\n' "$B" > "$T/no-python" && chmod +x "$T/no-python"
mkdir "$T/fake" && echo 'raise ImportError("matplotlib hidden by the test")' > "$T/fake/matplotlib.py"
printf '#!/bin/bash\nPYTHONPATH=%q exec %q "$@"\n' "$T/fake" "$B" > "$T/no-mpl" && chmod +x "$T/no-mpl"
bin=$T/no-python expect_refused "python3 is not on PATH" report "$S/tests/data/report-sample" -o "$T/out"
bin=$T/no-mpl expect_refused "cannot import matplotlib" report "$S/tests/data/report-sample" -o "$T/out"
[[ ! -e "$T/out" ]] || { echo "a refused report wrote $T/out" >&2; exit 1; }

if ! python3 -c 'import matplotlib, numpy' 2>/dev/null; then
  echo "matplotlib missing: figures not checked"
  exit 77
fi
"$B" report "$S/tests/data/report-sample" -o "$T/out" > "$T/report.log"
python3 - "$T/out" "$T/report.log" <<'PY'
import json, os, sys
out, log = sys.argv[1:3]
# One "wrote FILE" line per file written, with its final path (never the
# temporary directory the report is built in), and nothing else on stdout.
lines = open(log).read().splitlines()
wrote = sorted(l.split()[1].rstrip(":") for l in lines)
assert all(l.startswith("wrote ") for l in lines), lines
assert wrote == sorted(f"{out}/{f}" for f in os.listdir(out)), (wrote, sorted(os.listdir(out)))
assert not any(".tmp-" in l for l in lines), lines
rep = json.load(open(f"{out}/report.json"))
figs = {f["file"]: f for f in rep["figures"]}
# file -> [(xlabel, ylabel, series that must be in the legend)] per axes with data
want = {
    "throughput.png": [("N (particles)", "million particle-steps per second (median)",
                        ["cpu double rho=3/rc=1/s=0.5 (Intel(R) Xeon(R) Processor x16)",
                         "cuda double rho=3/rc=1/s=0.5 (NVIDIA H200)", "cuda mixed rho=3/rc=1/s=0.5 (NVIDIA H200)"])],
    "speedup.png": [("N (particles)", "speedup (GPU TPS / CPU reference TPS)",
                     ["double rho=3 rc=1", "mixed rho=3 rc=1"])],
    "nlist.png": [("N (particles)", "neighbor-list build time (ms)", ["ballot rho=3", "atomic rho=3"])],
    "fast-math.png": [("function", "ns per call per SM (median)", ["libm", "fast"])],
    "precision.png": [("workload", "steps per second (median, best variant)", ["double", "mixed"])],
    "speed-of-light.png": [("fraction of the measured device copy bandwidth", "kernel",
                            ["achieved / copy bandwidth", "measured copy bandwidth"])],
    "nve-drift.png": [("t (tau)", "(E(t) - E(0)) / N  (eps)", ["shift double (cuda)", "xplor double (cuda)"])] * 2,
    "srd-momentum.png": [("time (dt_c = 0.1)", "total momentum", ["px", "py", "pz", "bound"]),
                         ("time", "kinetic temperature", ["SRD"])],
    "poiseuille-viscosity.png": [("x (gradient direction)", "u_z (centre-of-mass frame)", ["parabola per half"]),
                                 ("time", "flow amplitude (<u_z> lower - upper half) / 2", ["production"]),
                                 ("run", "eta", ["gate"])],
    # The LAMMPS peer beside ours and HOOMD-blue's published LJ figure (lj-liquid).
    "peers.png": [("N (particles)", "million particle-steps per second (median)", ["lammps 20250722 CPU ("]),
                  ("N (particles)", "million particle-steps per second (median)",
                   ["lammps 20250722 CPU (", "HOOMD-blue 0.11.3, GTX Titan (GK110) (published)"])],
    # The wall gates: srd-slit-poiseuille's profile, the slip at its walls, its residual.
    "walls-slit.png": [("z (a)", "u_x", ["parabola fitted to 16 bins", "walls"]),
                       ("distance from the wall (a)", "u_x", ["no-slip plane: b = 0.187", "|b| allowed: 0.25 a"]),
                       ("z (a)", "u_x - parabola", ["u_x - parabola"])],
    "poiseuille-transient.png": [("z (gradient direction)", "u_x", []),
                                 ("published time T", "relative L2 difference", ["L2 / u_steady"]),
                                 ("x", "u_z", [])],
}
assert set(figs) == set(want), f"figures {sorted(figs)} != expected {sorted(want)}"
for name, axes in want.items():
    path = f"{out}/{name}"
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", f"{name} is not a PNG"
    # An empty 7 x 4.5 in axes is about 2 kB at the report's 72 dpi and 64 colours.
    assert os.path.getsize(path) > 3000, f"{name} is nearly empty ({os.path.getsize(path)} bytes)"
    got = figs[name]["axes"]
    assert len(got) == len(axes), f"{name}: {len(got)} axes, want {len(axes)}"
    for a, (x, y, series) in zip(got, axes):
        assert (a["xlabel"], a["ylabel"]) == (x, y), f"{name}: axes ({a['xlabel']!r}, {a['ylabel']!r}) != ({x!r}, {y!r})"
        for s in series:
            assert any(l.startswith(s) for l in a["series"]), f"{name}: no series {s!r} in {a['series']}"
    assert figs[name]["sources"], f"{name}: no source files named"
# Our own variants' figures leave the peer out (it is no mesobench variant).
for name in ("throughput.png", "speedup.png", "precision.png", "speed-of-light.png"):
    assert not any("lammps" in l for a in figs[name]["axes"] for l in a["series"]), (name, figs[name]["axes"])
    assert "bench/peers-lammps-cpu.json" not in figs[name]["sources"], (name, figs[name]["sources"])
assert "bench/peers-lammps-cpu.json" in figs["peers.png"]["sources"], figs["peers.png"]["sources"]
skipped = {s["section"] for s in rep["skipped"]}
for s in ("Weak scaling", "Strong scaling", "DPPC density profiles", "DPD temperature against dt",
          "Poiseuille profile and viscosity (SRD)", "Couette flow under Lees-Edwards shear (SRD, DPD)"):
    assert s in skipped, f"{s} not reported as skipped: {sorted(skipped)}"
page = open(f"{out}/README.md").read()
for name in want:
    assert f"]({name})" in page, f"the page does not link {name}"
assert page.count("*Skipped:") == len(rep["skipped"])
print(f"report ok: {len(figs)} figures with the expected axes and series, {len(skipped)} skipped with a line")
PY
echo "report wrote lines ok"
# A second report replaces the first as a whole.
"$B" report "$S/tests/data/report-sample/bench" -o "$T/out" > /dev/null
[[ ! -e "$T/out/nve-drift.png" ]] || { echo "the second report kept a stale figure" >&2; exit 1; }
[[ -e "$T/out/speedup.png" ]]
echo "report replaced"

# Data safety: -o '' once deleted the working directory's contents; the
# working directory, a directory above it, and an earlier report that holds a
# user's file are refused, and nothing in them is touched.
mkdir -p "$T/cwd/sub" && echo precious > "$T/cwd/keep.txt"
(cd "$T/cwd" && expect_refused "-o '' is invalid" report "$S/tests/data/report-sample" -o "")
(cd "$T/cwd" && expect_refused "is the working directory" report "$S/tests/data/report-sample" -o .)
(cd "$T/cwd/sub" && expect_refused "is the working directory or above it" report "$S/tests/data/report-sample" -o ..)
[[ -f "$T/cwd/keep.txt" && -d "$T/cwd/sub" ]] || { echo "report touched the working directory" >&2; exit 1; }
echo "mine" > "$T/out/my-notes.txt"
expect_refused "holds files an earlier report did not write (my-notes.txt)" \
  report "$S/tests/data/report-sample" -o "$T/out"
[[ -f "$T/out/my-notes.txt" && -f "$T/out/speedup.png" ]] || { echo "report touched a user's file" >&2; exit 1; }
rm "$T/out/my-notes.txt"
# The results directory itself (it holds results the report did not write).
cp -r "$S/tests/data/report-sample/bench" "$T/results-copy"
"$B" report "$T/results-copy" -o "$T/results-copy/report" > /dev/null
expect_refused "give a new or empty directory" report "$T/results-copy" -o "$T/results-copy"
[[ -d "$T/results-copy/report" ]] || { echo "report removed the results directory" >&2; exit 1; }
echo "report output refusals ok"

# Scaling results without the time split (as a hand-written file has): a
# synthetic pair of kind "scaling" files, valid against the schema, checks
# that the weak and strong figures are drawn when such results appear.
mkdir "$T/scaling"
python3 - "$S" "$T/scaling" <<'PY'
import json, sys
src, out = sys.argv[1:3]
prov = json.load(open(f"{src}/tests/data/report-sample/bench/step-mixed.json"))["provenance"]
for mode, pts in (("weak", [(1, 262144, 1500.0), (2, 524288, 1450.0), (4, 1048576, 1400.0)]),
                  ("strong", [(1, 1048576, 1500.0), (2, 1048576, 2800.0), (4, 1048576, 5000.0)])):
    json.dump({"kind": "scaling", "schema_version": 1, "provenance": prov, "mode": mode, "workload": "dpd-fluid",
               "backend": "cuda", "variant": "", "points": [{"ranks": r, "N": n, "tps_median": t} for r, n, t in pts]},
              open(f"{out}/{mode}.json", "w"))
PY
rc=0; python3 "$S/scripts/validate_results.py" "$T/scaling" > /dev/null || rc=$?
[[ $rc -eq 0 || $rc -eq 77 ]] || { echo "the synthetic scaling files do not follow the schema" >&2; exit 1; }
"$B" report "$T/scaling" -o "$T/scaling-report" > /dev/null
python3 - "$T/scaling-report" <<'PY'
import json, sys
rep = json.load(open(f"{sys.argv[1]}/report.json"))
figs = {f["file"]: f["axes"] for f in rep["figures"]}
assert set(figs) == {"scaling-weak.png", "scaling-strong.png"}, sorted(figs)
for name, axes in figs.items():
    assert [a["ylabel"] for a in axes] == ["steps per second (median)", "parallel efficiency"], axes
    assert all(a["xlabel"] == "ranks (GPUs)" for a in axes), axes
    assert axes[0]["series"] == ["dpd-fluid cuda (NVIDIA H200)"], axes
    # Weak scaling of dpd-fluid has a published efficiency beside it.
    published = ["Tang & Karniadakis 2014: near-linear, 1M per node, 1024 nodes"] if name == "scaling-weak.png" else []
    assert axes[1]["series"] == ["dpd-fluid cuda (NVIDIA H200)"] + published, axes
print("scaling figures drawn from kind \"scaling\" results, the published efficiency beside the weak one")
PY

# A user's own `run --json` on the CPU is drawn (the throughput figure), not
# skipped because no GPU result is beside it.
mkdir "$T/mine"
"$B" run --backend cpu --filter 'dpd-fluid/.*/rho=3/rc=1/.*N=8192$' --repeats 1 --min-time 0.01 \
  --warmup-time 0 --quiet --json "$T/mine/cpu.json" > /dev/null
"$B" report "$T/mine" -o "$T/mine-report" > /dev/null
python3 - "$T/mine-report" <<'PY'
import json, sys
rep = json.load(open(f"{sys.argv[1]}/report.json"))
figs = {f["file"]: f for f in rep["figures"]}
assert list(figs) == ["throughput.png"], sorted(figs)
axes = figs["throughput.png"]["axes"]
assert [a["title"] for a in axes] == ["dpd-fluid"], axes
assert len(axes[0]["series"]) == 1 and axes[0]["series"][0].startswith("cpu double rho=3/rc=1/s=0.5 ("), axes
assert figs["throughput.png"]["sources"] == ["cpu.json"], figs["throughput.png"]["sources"]
print("a CPU-only run --json is drawn")
PY

# Files that are no result, or not the result they look like, never end in a
# traceback: a JSON nested deeper than Python's parser goes is refused naming
# it (exit 2, nothing written); a result whose entries are not objects and a
# foreign file with a "kind" are listed or ignored; a FIFO named *.json is
# not opened (it would block).
mkdir "$T/odd"
cp "$S/tests/data/report-sample/bench/cpu-same-host.json" "$T/odd/"
python3 -c 'print("[" * 100000 + "]" * 100000)' > "$T/odd/deep.json"
expect_refused "$T/odd/deep.json: JSON nested too deeply" report "$T/odd" -o "$T/odd-report"
[[ ! -e "$T/odd-report" ]] || { echo "a refused report wrote $T/odd-report" >&2; exit 1; }
ls "$T" | grep -q '^odd-report\.' && { echo "a refused report left its temporary directory" >&2; exit 1; }
rm "$T/odd/deep.json"
echo '{"kind": "benchmark", "provenance": {}, "results": [7]}' > "$T/odd/broken.json"
echo '{"kind": {"not": "a result"}, "results": 1}' > "$T/odd/package.json"
mkfifo "$T/odd/pipe.json"
timeout 120 "$B" report "$T/odd" -o "$T/odd-report" > /dev/null
python3 - "$T/odd-report" <<'PY'
import json, sys
rep = json.load(open(f"{sys.argv[1]}/report.json"))
assert rep["unreadable"] == ["broken.json"], rep["unreadable"]
assert rep["counts"] == {"benchmark": 1}, rep["counts"]
page = open(f"{sys.argv[1]}/README.md").read()
assert "`broken.json`: not a valid benchmark result: results[0] is not an object" in page, page
print("odd files listed or ignored")
PY

# An output the file system refuses: exit 2 naming -o, no traceback, and no
# temporary directory left behind. /sys refuses new directories even to root;
# a read-only directory refuses everyone else.
if [[ -d /sys ]] && ! mkdir /sys/mesobench-report-probe 2>/dev/null; then
  expect_refused "cannot write -o '/sys/mesobench-report' (in /sys): " \
    report "$S/tests/data/report-sample" -o /sys/mesobench-report
else
  rmdir /sys/mesobench-report-probe 2>/dev/null || true
fi
mkdir -p "$T/ro/earlier" && chmod 555 "$T/ro/earlier" "$T/ro"
if [[ $(id -u) -ne 0 ]]; then
  expect_refused "-o '$T/ro/new' cannot be created: directory $T/ro is not writable" \
    report "$S/tests/data/report-sample" -o "$T/ro/new"
  expect_refused "-o '$T/ro/earlier' is not writable" report "$S/tests/data/report-sample" -o "$T/ro/earlier"
  [[ -z $(ls -A "$T/ro/earlier") && ! -e "$T/ro/new" ]] || { echo "a refused report wrote into $T/ro" >&2; exit 1; }
fi
chmod 755 "$T/ro/earlier" "$T/ro"
echo "unwritable outputs refused"
