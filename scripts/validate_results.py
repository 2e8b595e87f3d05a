#!/usr/bin/env python3
"""Check result files against the results schema (docs/results.schema.json,
described in docs/results.md). Directories are searched recursively for
*.json, *.json.xz and *.json.gz; report.json files of `mesobench report`
and the headline table (headline.json) are skipped. Prints one line per failing file (its path, the JSON path of the
first error and the message) and a summary.

    scripts/validate_results.py results/            # every committed result
    scripts/validate_results.py out.json val.json   # fresh output

Exit codes: 0 all valid, 1 a file is invalid or unreadable, 2 bad usage,
77 the jsonschema module is missing (Debian: python3-jsonschema, which
scripts/install-deps.sh installs).
"""
import argparse
import json
import lzma
import os
import sys

from result_files import load, result_paths

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "docs", "results.schema.json")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", help="result files or directories")
    ap.add_argument("--schema", default=SCHEMA)
    ap.add_argument("-v", "--verbose", action="store_true", help="also list the valid files and their kind")
    args = ap.parse_args()
    try:
        import jsonschema
    except ImportError:
        print("validate_results: the jsonschema module is missing (apt-get install python3-jsonschema)",
              file=sys.stderr)
        return 77
    with open(args.schema) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    branches = {name: jsonschema.Draft202012Validator({**schema["$defs"][name], "$defs": schema["$defs"]})
                for name in ("benchmark", "validation", "scaling", "morphology", "google_benchmark", "tune", "ibi")}
    bad = n = 0
    for path in result_paths(args.paths):
        n += 1
        try:
            doc = load(path)
        except (OSError, ValueError, lzma.LZMAError, EOFError) as e:
            print(f"{path}: unreadable: {e}")
            bad += 1
            continue
        errors = list(validator.iter_errors(doc))
        if not errors:
            if args.verbose:
                kind = next(k for k, v in branches.items() if v.is_valid(doc))
                print(f"{path}: ok ({kind})")
            continue
        bad += 1
        # oneOf hides the reason: report the first error of the branch the
        # file was meant to be (the one with the fewest errors).
        best = min(branches.items(), key=lambda kv: len(list(kv[1].iter_errors(doc))))
        err = next(iter(sorted(best[1].iter_errors(doc), key=lambda e: list(e.absolute_path))), errors[0])
        where = "/".join(str(p) for p in err.absolute_path) or "(top)"
        print(f"{path}: invalid as {best[0]}: at {where}: {err.message[:300]}")
    if n == 0:
        print("validate_results: no result files found", file=sys.stderr)
        return 2
    print(f"{n - bad} of {n} result file(s) valid against {os.path.relpath(args.schema)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
