"""Reading result files (docs/results.md) for the scripts: plain or
compressed JSON, the kind of a result, and every result below a directory."""
import gzip
import json
import lzma
import os

SUFFIXES = (".json", ".json.xz", ".json.gz")


def open_json(path):
    if path.endswith(".xz"):
        return lzma.open(path, "rt")
    if path.endswith(".gz"):
        return gzip.open(path, "rt")
    return open(path)


def load(path):
    with open_json(path) as f:
        return json.load(f)


def kind_of(doc):
    """"benchmark", "validation", "scaling", "google-benchmark", or None for
    JSON that is not a result. Files written before the schema carried
    "kind" are recognised by their shape."""
    if not isinstance(doc, dict):
        return None
    if "kind" in doc:
        return doc["kind"]
    if "results" in doc and "provenance" in doc:
        return "benchmark"
    if "cases" in doc and "provenance" in doc:
        return "validation"
    if "benchmarks" in doc and "context" in doc:
        return "google-benchmark"
    return None


def result_paths(paths):
    """The files given, and every result file below the directories given
    (sorted; the report.json of `mesobench report` excluded)."""
    for p in paths:
        if not os.path.isdir(p):
            yield p
            continue
        for d, dirs, files in os.walk(p):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(SUFFIXES) and f != "report.json":
                    yield os.path.join(d, f)
