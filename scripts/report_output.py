"""Where `mesobench report` may write (scripts/report_results.py): a new or
empty directory, or an earlier report, of which it replaces only the files
that report wrote. Its report.json lists them with their SHA-256 ("written"):
a report.json without them (written by hand or by something else) or a file
changed since is not trusted, and its files are kept unless --force. Nothing
that report.json does not list is ever removed."""
import hashlib
import json
import os
import sys


def file_digest(path):
    """The SHA-256 of a file's bytes, in hex."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def _manifest(out):
    try:
        with open(os.path.join(out, "report.json")) as f:
            return json.load(f)
    except (OSError, ValueError, RecursionError):
        return None


def untrusted_files(out):
    """The files of out's report.json that this report did not write as they
    are now: every listed file when report.json records no digests, else
    those whose bytes differ from the digest recorded (an empty list: all
    verified)."""
    rep = _manifest(out)
    names = sorted((report_files(out) or set()) - {"report.json"})
    written = rep.get("written") if isinstance(rep, dict) else None
    if not isinstance(written, dict) or not set(names) <= set(written):
        return ["report.json"]
    changed = []
    for n in names:
        p = os.path.join(out, n)
        if not os.path.lexists(p):
            continue  # removed since: nothing to delete
        if os.path.islink(p) or not os.path.isfile(p) or file_digest(p) != written[n]:
            changed.append(n)
    return changed


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


def check_output(out, force=False):
    """Why out cannot take a report (None when it can). A report replaces only
    an earlier report: a directory holding anything the report did not write,
    the working directory or one above it, and a file are refused; so is an
    earlier report whose report.json or files this report did not write as
    they are (untrusted_files), unless force."""
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
    changed = [] if force else untrusted_files(out)
    if changed:
        shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
        return (f"holds a report.json or files that mesobench report did not write as they are ({shown}); "
                "give a new or empty directory, or --force to replace them")
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
