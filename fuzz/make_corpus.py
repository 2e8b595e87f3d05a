#!/usr/bin/env python3
"""Writes the seed corpus of each fuzz target (fuzz/corpus/<target>/): a few
small valid inputs in each format, written from the formats' documentation
(checkpoints: engine/include/meso/io/checkpoint_file.hpp; topologies:
docs/topology.md; results: docs/results.md; variants and parameters:
docs/cli.md). Inputs a fuzzer found and that were fixed are kept beside
them as crash-* files; this script leaves those alone.

    python3 fuzz/make_corpus.py            # rewrites the seed-* files
"""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for c in data:
        h = ((h ^ c) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def string(s):
    return struct.pack("<I", len(s)) + s.encode()


def checkpoint(kind, n, step, lists=None, mpcd=False):
    """kind 1 (MD) or 2 (MPCD), n particles in a box of 10 around the origin."""
    body = struct.pack("<I", kind)
    for s in ("dpd-fluid" if not mpcd else "srd-fluid", "rho=3 dt=0.04 variant=precision=double", "cpu",
              "double"):
        body += string(s)
    body += struct.pack("<QQ", n, step)
    vec = lambda i, k: struct.pack("<3d", 0.5 * i - 1.0, 0.25 * k, -0.1 * i)
    if not mpcd:
        body += struct.pack("<2d", 0.0, 0.0)  # xi, eta
        for k in range(3):  # position, velocity, force
            body += b"".join(vec(i, k) for i in range(n))
    else:
        for k in range(2):  # position, velocity
            body += b"".join(vec(i, k) for i in range(n))
    body += b"".join(struct.pack("<3i", i, -i, 0) for i in range(n))  # image
    body += b"".join(struct.pack("<I", i % 2 if not mpcd else 0) for i in range(n))  # type
    body += b"".join(struct.pack("<I", i) for i in range(n))  # tag
    if not mpcd:
        body += struct.pack("<B", 1 if lists else 0)
        if lists:
            since_build, since_sort = lists
            body += b"".join(struct.pack("<I", n - 1 - i) for i in range(n))  # order
            body += b"".join(vec(i, 0) for i in range(n))  # build positions
            body += struct.pack("<II", since_build, since_sort)
    head = b"MESOCKPT" + struct.pack("<IQ", 1, len(body))
    return head + body + struct.pack("<Q", fnv1a64(body))


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


# The checkpoint fuzzer's first byte is its mode (odd: fix the checksum).
for mode in (0, 1):
    write("checkpoint", f"md-lists-{mode}", bytes([mode]) + checkpoint(1, 4, 120, lists=(7, 20)))
write("checkpoint", "md-no-sort", b"\x00" + checkpoint(1, 3, 50, lists=(3, 0xFFFFFFFF)))
write("checkpoint", "md-plain", b"\x00" + checkpoint(1, 5, 10))
write("checkpoint", "mpcd", b"\x00" + checkpoint(2, 6, 33, mpcd=True))
write("checkpoint", "foreign", b"\x00{\"step\": 1}\n")

write("topology", "chain", """# Kremer-Grest chain with a bending stiffness
bond_type  kg    fene     30 1.5 1.0 1.0
bond_type  soft  fene     20 2.0
bond_type  np    harmonic 1250 0.47
angle_type line  harmonic 25 180

bond  kg   0 1
bond  soft 1 2
bond  np   2 0
angle line 0 1 2
""")
write("topology", "windows", "bond_type s harmonic 1 1\r\nbond s 0 1\r\nangle_type a harmonic 2 90\r\nangle a 2 0 1\r\n")
write("topology", "types-only", "bond_type s harmonic 1 1 # nothing bonded\n")

bench_case = lambda name, tps: {"name": name, "tps_median": tps, "tps": [tps * 0.99, tps, tps * 1.01, tps]}
bench = lambda tps: json.dumps({"kind": "benchmark", "schema_version": 1, "results": [
    bench_case("dpd-fluid/step/cpu/precision=double/rho=3/rc=1/s=1/N=8192", tps),
    bench_case("lj-liquid/step/cpu/precision=double/rho=0.4/N=5000", 2 * tps)]})
write("results_json", "benchmark-pair", bench(100.0) + "\n---\n" + bench(90.0))
valid = lambda passed: json.dumps({"kind": "validation", "cases": [
    {"name": "srd-momentum", "measured": 1e-12, "passed": True},
    {"name": "dpd-temperature", "measured": 1.001, "passed": passed}]})
write("results_json", "validation-pair", valid(True) + "\n---\n" + valid(False))
write("results_json", "benchmark-self", bench(50.0))

write("variant_param", "defaults", "precision=double\nN=500\n")
write("variant_param", "every-axis",
      "nlist=tiled,cells=sorted,reorder=morton2,sort=100,pow=fast,precision=mixed,rng=tea,fuse=on,tpp=4,"
      "noise=fp32,gather=record\nrho=4\nrc=1.2\ndt=0.01\nintegrator=vv\nseed=7\n")
write("variant_param", "solvent", "reorder=cell,sort=25\nL=4\nrho=5\nangle=90\nrule=at\nthermostat=1\nshift=0\n")
write("variant_param", "dppc", "\nlipids=32\nwaters=800\nreplicate=2\ngrid=0.5\nsigma=0\nupdate=10\n")

write("topology", "listed-twice", "bond_type s harmonic 1 1\nangle_type a harmonic 2 90\n"
      "bond s 0 1\nbond s 1 0\nangle a 0 1 2\nangle a 2 1 0\n")

# The H5MD fuzzer's input describes a file (h5md_fuzzer.cpp): frame, frames,
# particles, rotational, then one mutation byte per dataset (0: keep).
write("h5md", "valid", bytes([0, 1, 6, 0]) + bytes(9) + bytes([1, 1, 1, 0, 0]))
write("h5md", "rotational", bytes([1, 1, 4, 1]) + bytes(9) + bytes([2, 0, 0, 1, 0]))
write("h5md", "rank-4-position", bytes([0, 0, 3, 0, 0, 0, 3, 2]) + bytes(5))
write("h5md", "nan-edges", bytes([0, 1, 5, 0, 0, 0, 0, 7, 2, 1, 0]) + bytes(3))

# The IBI fuzzer's first byte is its mode (ibi_files_fuzzer.cpp): 0-2 a g(r),
# bond or angle target, 3-5 a pair, bond or angle table (docs/tables.md).
g = "".join(f"{(i + 0.5) * 0.1:.6g} {0.0 if i < 8 else 1.0 + 0.5 * (i == 10):.6g}\n" for i in range(30))
write("ibi_files", "g", b"\x00" + g.encode())
bond = "".join(f"{0.3 + 0.05 * i:.6g} {max(0.0, 1.0 - abs(i - 8) / 8.0):.6g}\n" for i in range(17))
write("ibi_files", "bond", b"\x01" + bond.encode())
angle = "".join(f"{2.0 * i + 1.0:.6g} {1.0 + (i % 5):.6g}\n" for i in range(90))
write("ibi_files", "angle", b"\x02" + angle.encode())
write("ibi_files", "pair-table", b"\x03# pair\nIBI\nN 4 RSQ 0.5 2\n\n1 0.5 3 6\n2 1.0 1 2\n3 1.5 0.2 0.5\n"
      b"4 2.0 0 0\n")
write("ibi_files", "bond-table", b"\x04IBI\nN 3\n\n1 0.5 2 4\n2 0.75 0 0\n3 1.0 2 -4\n")
write("ibi_files", "angle-table", b"\x05IBI\nN 3\n\n1 0 1 0\n2 90 0 0\n3 180 1 0\n")

# Tuned tables (benchmarks/mesobench/tune.hpp), as `mesobench tune` writes them.
entry = lambda workload, n, choice: {"device": "cpu", "workload": workload, "backend": "cpu",
                                     "precision": "double", "N": n, "choice": choice, "tps": 120.5,
                                     "trials": [{"settings": choice, "tps": 120.5}], "date_utc": "2026-11-28",
                                     "git_commit": "166b1bf"}
write("tuned_table", "dpd", json.dumps({"format": "mesobench-tune-1", "entries": [
    entry("dpd-fluid", 8192, "sort=100,skin=0.3"), entry("lj-liquid", 5000, "skin=0.4")]}))
write("tuned_table", "empty", json.dumps({"format": "mesobench-tune-1", "entries": []}))
