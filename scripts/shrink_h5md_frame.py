#!/usr/bin/env python3
"""A mesobench H5MD file made small enough to commit as test data:

    scripts/shrink_h5md_frame.py IN.h5 OUT.h5 [--digits 3]

OUT holds the same layout, attributes and values, except that positions are
kept to DIGITS decimals (HDF5's scale-offset filter, which every HDF5
library reads back without being told) and every per-particle dataset is
compressed (gzip after the byte shuffle): a frame of 12000 DPD beads goes
from 820 kB to about 85 kB. vesicle-formation's committed frame was made so
(validation/vesicle-formation/vesicle_frame_test.cpp). OUT must not exist.
"""
import argparse
import os
import sys


def filters(name, dtype, digits):
    """The filters of a per-particle dataset (particles/trajectory/*/value)."""
    if dtype.kind == "f" and name == "particles/trajectory/position/value":
        return {"scaleoffset": digits, "compression": "gzip"}
    if dtype.kind == "i":
        return {"scaleoffset": 0, "compression": "gzip"}
    return {"compression": "gzip", "shuffle": True}


def copy_group(h5py, src, dst, digits, done=None):
    """src's attributes and members into dst, the per-particle values
    written again with filters, everything else copied as it is, each object
    once: a dataset hard-linked under several names (H5MD's shared step and
    time) is linked again, not copied (and a deleted dataset's space is not
    given back by HDF5, so nothing is written twice)."""
    done = {} if done is None else done
    for k, v in src.attrs.items():
        dst.attrs[k] = v
    for name, obj in src.items():
        path = obj.name.lstrip("/")
        addr = h5py.h5o.get_info(obj.id).addr
        if addr in done:
            dst[name] = done[addr]
            continue
        if isinstance(obj, h5py.Group):
            copy_group(h5py, obj, dst.create_group(name), digits, done)
        elif path.startswith("particles/trajectory/") and path.endswith("/value") and \
                not path.startswith("particles/trajectory/box/"):
            new = dst.create_dataset(name, data=obj[...], dtype=obj.dtype, maxshape=obj.maxshape,
                                     chunks=obj.chunks, **filters(path, obj.dtype, digits))
            for k, v in obj.attrs.items():
                new.attrs[k] = v
        elif obj.chunks:  # an extensible series (step, time, box): chunks of what it holds
            new = dst.create_dataset(name, data=obj[...], dtype=obj.dtype, maxshape=obj.maxshape,
                                     chunks=tuple(max(1, n) for n in obj.shape))
            for k, v in obj.attrs.items():
                new.attrs[k] = v
        else:
            src.copy(obj, dst, name=name)
        done[addr] = dst[name]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inp", metavar="IN.h5")
    ap.add_argument("out", metavar="OUT.h5")
    ap.add_argument("--digits", type=int, default=3, help="decimals kept of the positions (3)")
    a = ap.parse_args()
    if not 1 <= a.digits <= 9:
        sys.exit(f"shrink_h5md_frame.py: --digits {a.digits} is invalid: 1 to 9")
    if os.path.lexists(a.out):
        sys.exit(f"shrink_h5md_frame.py: {a.out} exists: not replaced")
    try:
        import h5py
    except ImportError:
        sys.exit("shrink_h5md_frame.py: needs h5py (scripts/requirements.txt)")
    try:
        src = h5py.File(a.inp, "r")
    except OSError as e:
        sys.exit(f"shrink_h5md_frame.py: {a.inp}: not an HDF5 file ({e})")
    with src, h5py.File(a.out, "w-", libver=("v110", "v110")) as dst:
        copy_group(h5py, src, dst, a.digits)
    print(f"wrote {a.out} ({os.path.getsize(a.out)} bytes)")


if __name__ == "__main__":
    main()
