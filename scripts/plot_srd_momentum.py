#!/usr/bin/env python3
"""Plot the srd-momentum validation (`mesobench validate --filter srd-momentum
--json FILE`; several files, e.g. double and mixed, go on one figure): the
total momentum components against time with the round-off bound, as in
Howard, Panagiotopoulos & Nikoubashman (CPC 2018), and the kinetic
temperature.

    scripts/plot_srd_momentum.py double.json mixed.json -o srd-momentum.png
"""
import argparse
import json
import sys

from result_files import open_json
from validation_provenance import provenance_line


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    cases = []
    try:
        for path in args.json:
            with open_json(path) as f:
                doc = json.load(f)
            cases.append((doc, next(c for c in doc["cases"] if c["name"] == "srd-momentum")))
    except (OSError, StopIteration, KeyError, json.JSONDecodeError) as e:
        print(f"plot_srd_momentum: cannot read {path}: {e}", file=sys.stderr)
        return 2

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(cases), 2, figsize=(11, 3.6 * len(cases)), squeeze=False)
    for (doc, case), (ax1, ax2) in zip(cases, axes):
        d = case["data"]
        for comp, colour in (("px", "C0"), ("py", "C1"), ("pz", "C2")):
            ax1.plot(d["time"], d[comp], lw=0.8, color=colour, label=comp)
        bound = case["tolerance"]
        ax1.axhline(bound, color="k", lw=0.8, ls="--", label="bound")
        ax1.axhline(-bound, color="k", lw=0.8, ls="--")
        ax1.set_xlabel("time (dt_c = %g)" % d["dt"])
        ax1.set_ylabel("total momentum")
        ax1.set_title(f'{d["precision"]}, N = {d["N"]}, {doc.get("backend", "")} '
                      f'({"PASS" if case["passed"] else "FAIL"})')
        ax1.legend(fontsize=7)
        ax2.plot(d["time"], d["temperature"], lw=0.8, label="SRD")
        if d.get("thermostat_temperature"):
            t = d["thermostat_temperature"]
            ax2.plot(d["time"][1:len(t) + 1], t, lw=0.6, alpha=0.7, label="cell thermostat")
        ax2.axhline(d["kT"], color="k", lw=0.8)
        ax2.set_xlabel("time")
        ax2.set_ylabel("kinetic temperature")
        ax2.legend(fontsize=7)
    fig.text(0.01, 0.005, provenance_line(cases[0][0]), fontsize=6)
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    fig.savefig(args.output, dpi=130)
    return 0


if __name__ == "__main__":
    sys.exit(main())
