#!/usr/bin/env python3
"""Plot the dpd-temperature validation (`mesobench validate --filter
dpd-temperature --json FILE`): the kinetic temperature time series of each run
and the block means against dt with the dt -> 0 extrapolation and kT.

    scripts/plot_dpd_temperature.py results/validation/dpd-temperature-long.json.xz -o out.png
"""
import argparse
import json
import sys

from result_files import open_json
from validation_provenance import provenance_line


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    try:
        with open_json(args.json) as f:
            doc = json.load(f)
        case = next(c for c in doc["cases"] if c["name"] == "dpd-temperature")
    except (OSError, StopIteration, KeyError, json.JSONDecodeError) as e:
        print(f"plot_dpd_temperature: cannot read {args.json}: {e}", file=sys.stderr)
        return 2

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = case["data"]["runs"]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for r in runs:
        ax1.plot(r["time"], r["temperature"], lw=0.5, alpha=0.7,
                 label=f'{r["integrator"]} dt={r["dt"]:g}: {r["temperature_mean"]:.5f} ± {r["temperature_sem"]:.5f}')
    ax1.axhline(case["reference"], color="k", lw=1)
    ax1.set_xlabel("time (DPD units)")
    ax1.set_ylabel("kinetic temperature")
    ax1.set_title(f'N = {case["data"]["N"]}, rho = 3, a = 25, gamma = 4.5 ({doc["form"]} form)')
    ax1.legend(fontsize=7)

    labelled = set()
    for r in runs:
        label = "Groot-Warren λ=0.65" if r["integrator"] == "gw" else "velocity Verlet"
        ax2.errorbar([r["dt"]], [r["temperature_mean"]], yerr=[r["temperature_sem"]], marker="o",
                     capsize=3, color="C0" if r["integrator"] == "gw" else "C3",
                     label=None if label in labelled else label)
        labelled.add(label)
    ax2.errorbar([0.0], [case["measured"]], yerr=[case["uncertainty"]], marker="s", color="C2",
                 capsize=3, label=f'extrapolated: {case["measured"]:.5f} ± {case["uncertainty"]:.5f}')
    gw = sorted((r["dt"], r["temperature_mean"]) for r in runs if r["integrator"] == "gw")
    ax2.plot([0.0] + [g[0] for g in gw], [case["measured"]] + [g[1] for g in gw], "C0--", lw=0.8)
    ax2.axhline(case["reference"], color="k", lw=1, label="kT")
    ax2.axhspan(case["reference"] - case["tolerance"], case["reference"] + case["tolerance"],
                color="k", alpha=0.08, label="gate (4 SEM)")
    ax2.set_xlabel("dt")
    ax2.set_ylabel("<T>")
    ax2.set_title("PASS" if case["passed"] else "FAIL")
    ax2.legend(fontsize=7)
    fig.text(0.01, 0.01, provenance_line(doc), fontsize=6, color="0.4")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
