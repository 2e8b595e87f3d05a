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


KINDS = ("benchmark", "validation", "scaling", "google-benchmark")


def kind_of(doc):
    """"benchmark", "validation", "scaling", "google-benchmark", or None for
    JSON that is not a result. Files written before the schema carried
    "kind" are recognised by their shape."""
    if not isinstance(doc, dict):
        return None
    if "kind" in doc:
        return doc["kind"] if doc["kind"] in KINDS else None
    if "results" in doc and "provenance" in doc:
        return "benchmark"
    if "cases" in doc and "provenance" in doc:
        return "validation"
    if "benchmarks" in doc and "context" in doc:
        return "google-benchmark"
    return None


# Per kind: the list of entries, what each entry must be, and the block of
# provenance. The report reads these fields before any figure is chosen.
_SHAPE = {
    "benchmark": ("results", "provenance", {"name": str, "backend": str, "N": int, "tps_median": (int, float)}),
    "validation": ("cases", "provenance", {"name": str, "data": dict}),
    "scaling": ("points", "provenance", {"ranks": int}),
    "google-benchmark": ("benchmarks", "context", {"name": str}),
}


def malformed(doc, kind):
    """Why doc, recognised as a result of `kind`, cannot be read as one (None
    when it can): the fields the report relies on, checked before any is
    used, so that a foreign or hand-edited file is named instead of failing
    somewhere in a figure."""
    entries, block, fields = _SHAPE[kind]
    if not isinstance(doc.get(block), dict):
        return f"its \"{block}\" is not an object"
    items = doc.get(entries)
    if not isinstance(items, list):
        return f"its \"{entries}\" is not a list"
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            return f"{entries}[{i}] is not an object"
        for field, types in fields.items():
            value = item.get(field)
            if not isinstance(value, types) or isinstance(value, bool):
                return f"{entries}[{i}].{field} is missing or not a {getattr(types, '__name__', 'number')}"
    return None


def result_paths(paths):
    """The files given, and every result file below the directories given
    (sorted; the report.json of `mesobench report` and the headline table,
    headline.json of scripts/headline_numbers.py, excluded)."""
    for p in paths:
        if not os.path.isdir(p):
            yield p
            continue
        for d, dirs, files in os.walk(p):
            dirs.sort()
            for f in sorted(files):
                path = os.path.join(d, f)
                # Regular files only: a FIFO or device named *.json (report /) would block or never end.
                if f.endswith(SUFFIXES) and f not in ("report.json", "headline.json") and os.path.isfile(path):
                    yield path
