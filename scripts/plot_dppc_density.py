#!/usr/bin/env python3
"""Plot the dppc-density validation (`mesobench validate --filter dppc-density
--json FILE`) like GALAMOST's Fig. 5: number density of N, P, G, C and W
beads against the distance from the bilayer centre, this run (solid, with
its block errors as bands) and, for a GPU long form, the CPU reference run
(dashed), with the gate values in the title.

    scripts/plot_dppc_density.py dppc.json -o dppc-density.png
"""
import argparse
import json
import sys

from result_files import open_json
from validation_provenance import provenance_line

TYPES = (("N", "C0", "N (choline)"), ("P", "C1", "P (phosphate)"), ("G", "C2", "G (glycerol)"),
         ("C", "C3", "C (tails)"), ("W", "C4", "W (water)"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    try:
        with open_json(args.json) as f:
            doc = json.load(f)
        case = next(c for c in doc["cases"] if c["name"] == "dppc-density")
        data = case["data"]
        prof = data["profile"]
    except (OSError, StopIteration, KeyError, json.JSONDecodeError) as e:
        print(f"plot_dppc_density: cannot read {args.json}: {e}", file=sys.stderr)
        return 2

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.8))
    z = prof["z_nm"]
    for name, colour, label in TYPES:
        m = prof["density"][name]["mean"]
        s = prof["density"][name]["sem"]
        ax.plot(z, m, color=colour, label=f"{label}, {prof['backend']}")
        ax.fill_between(z, [a - 2 * b for a, b in zip(m, s)], [a + 2 * b for a, b in zip(m, s)],
                        color=colour, alpha=0.25, lw=0)
        if "reference_profile" in data:
            r = data["reference_profile"]
            ax.plot(r["z_nm"], r["density"][name]["mean"], color=colour, ls="--", lw=1.0,
                    label=f"{name}, {r['backend']} reference" if name == "W" else None)
    gates = data["gates"]
    ax.set_xlabel("z - z_centre (nm)")
    ax.set_ylabel("number density (nm$^{-3}$)")
    ax.set_xlim(min(z), max(z))
    ax.legend(fontsize=7, ncol=2, loc="upper center")
    status = "PASS" if case["passed"] else "FAIL"
    ax.set_title(f"dppc-density ({doc.get('form', '?')} form, {status}): D_PP = {gates[0]['measured']:.2f} "
                 f"+- {gates[0]['sem']:.2f} nm (exp. D_HH 3.83), bulk W {gates[2]['measured']:.2f} nm$^{{-3}}$",
                 fontsize=9)
    fig.text(0.01, 0.005, provenance_line(doc), fontsize=6)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(args.output, dpi=130)
    return 0


if __name__ == "__main__":
    sys.exit(main())
