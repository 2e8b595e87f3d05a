"""Where `mesobench report` may write (scripts/report_results.py): a new or
empty directory, or an earlier report, of which it replaces only the files
that report wrote (its report.json lists them). Nothing else is ever
removed."""
import json
import os
import sys


def report_files(out):
    """The names an earlier report wrote into out (its page, report.json and
    the figures report.json lists), or None when out holds no report.json."""
    manifest = os.path.join(out, "report.json")
    if not os.path.isfile(manifest):
        return None
    try:
        with open(manifest) as f:
            rep = json.load(f)
        figures = [fig["file"] for fig in rep.get("figures", [])]
    except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None
    if not all(isinstance(n, str) and n and os.path.basename(n) == n for n in figures):
        return None
    return {"README.md", "report.json", *figures}


def check_output(out):
    """Why out cannot take a report (None when it can). A report replaces only
    an earlier report: a directory holding anything the report did not write,
    the working directory or one above it, and a file are refused."""
    here = os.path.realpath(os.getcwd())
    real = os.path.realpath(out)
    if here == real or here.startswith(real.rstrip(os.sep) + os.sep):
        return f"is the working directory or above it ({here})"
    if os.path.lexists(out) and not os.path.isdir(out):
        return "exists and is not a directory"
    if os.path.islink(out):
        return "is a symbolic link: give the directory itself"
    if not os.path.isdir(out) or not os.listdir(out):
        return None
    ours = report_files(out)
    if ours is None:
        return "exists and is not an earlier mesobench report (no report.json in it); give a new or empty directory"
    foreign = sorted(set(os.listdir(out)) - ours)
    if foreign:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        return f"holds files an earlier report did not write ({shown}); give a new or empty directory"
    return None


def remove_report(path, names):
    """Removes the files of an earlier report and then its directory: never
    anything else (a file that appeared meanwhile keeps the directory)."""
    for n in names:
        p = os.path.join(path, n)
        if os.path.isfile(p) and not os.path.islink(p):
            os.remove(p)
    try:
        os.rmdir(path)
    except OSError:
        print(f"report: kept {path}: it holds files an earlier report did not write", file=sys.stderr)


def writable(path):
    """Why the report cannot write into the existing directory path (None
    when it can)."""
    if not os.access(path, os.W_OK | os.X_OK):
        return "is not writable"
    return None
