#!/usr/bin/env python3
"""Every negative control is shown to fail, in CI or in a committed result.

    scripts/controls_shown.py [--root DIR] (--mesobench PROGRAM | --list FILE)

Reads `mesobench list --controls` (a line a control, tab-separated: the case,
the control, where its rejection is shown: `ci`, `device` or `device-long`,
the knobs that make it as k=v joined by commas, and the committed result that
shows it; docs/testing.md, "Negative controls"). A control CI runs is shown
by CI (`validation.negative_controls`). Every other control must name a
result under the repository that
- exists, and is a validation result of its case;
- ran that control: the result's "control" names it, or, in a result made
  before `--control` existed, the result's knobs hold the control's;
- in the long form where the control is `device-long`;
- and rejected it: the case's control record says so, or its gate failed.
Exit status 0 when every control is shown, 1 naming each that is not, 2 for
bad input.
"""
import argparse
import os
import subprocess
import sys

from result_files import kind_of, load


def parse_knobs(text):
    knobs = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        knobs[key] = float(value)
    return knobs


def problems_of(case, control, where, knobs, shown, root):
    """Why the committed result does not show the control rejected (empty: it does)."""
    if where == "ci":
        return []
    if not shown:
        return ["no committed result shows it"]
    path = os.path.join(root, shown)
    if not os.path.isfile(path):
        return ["%s does not exist" % shown]
    try:
        doc = load(path)
    except (OSError, ValueError, EOFError) as e:
        return ["%s is not JSON (%s)" % (shown, e)]
    if kind_of(doc) != "validation":
        return ["%s is not a validation result" % shown]
    runs = [c for c in doc.get("cases", []) if isinstance(c, dict) and c.get("name") == case]
    if not runs:
        return ["%s holds no result of %s" % (shown, case)]
    out = []
    ran = runs[0].get("control") if isinstance(runs[0].get("control"), dict) else {}
    if doc.get("control") != control and ran.get("name") != control:
        params = doc.get("params") or {}
        if "control" in doc or not knobs or any(params.get(k) != v for k, v in knobs.items()):
            out.append("%s did not run control %s" % (shown, control))
    if where == "device-long" and doc.get("form") != "long":
        out.append("%s is not the long form" % shown)
    rejected = ran.get("rejected") is True or (not ran and runs[0].get("passed") is False)
    if not rejected:
        out.append("%s did not reject it (the gate passed)" % shown)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--mesobench", help="the program whose `list --controls` to read")
    src.add_argument("--list", help="a file holding that output")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    a = ap.parse_args()
    if a.mesobench:
        p = subprocess.run([a.mesobench, "list", "--controls"], capture_output=True, text=True)
        if p.returncode != 0:
            print("controls_shown: %s list --controls: exit %d" % (a.mesobench, p.returncode), file=sys.stderr)
            return 2
        text = p.stdout
    else:
        with open(a.list) as f:
            text = f.read()
    failed = total = 0
    for n, line in enumerate(text.splitlines(), 1):
        fields = line.split("\t")
        if len(fields) != 5 or fields[2] not in ("ci", "device", "device-long"):
            print("controls_shown: line %d is not case, control, where, knobs, result: %r" % (n, line[:100]),
                  file=sys.stderr)
            return 2
        case, control, where, knobs, shown = fields
        try:
            knob_values = parse_knobs(knobs)
        except ValueError:
            print("controls_shown: line %d: knobs %r" % (n, knobs[:100]), file=sys.stderr)
            return 2
        total += 1
        why = problems_of(case, control, where, knob_values, shown, a.root)
        failed += bool(why)
        for w in why:
            print("NOT SHOWN %s --control %s: %s" % (case, control, w))
    if total == 0:
        print("controls_shown: no control listed", file=sys.stderr)
        return 2
    print("controls_shown: %d controls, %d not shown" % (total, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
