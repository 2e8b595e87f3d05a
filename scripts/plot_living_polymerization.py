#!/usr/bin/env python3
"""Plot the living-polymerization gate (`mesobench validate --filter
living-polymerization --json FILE`): the free monomers of every run against
the attempts, with the rate equation; and at each tested conversion the
chains by monomers added against the Poisson distribution of their mean
(the chi-square's merged bins), with the standardised residuals.

    scripts/plot_living_polymerization.py lp.json -o lp.png
"""
import argparse
import json
import sys

from result_files import load


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", help="the validate JSON holding the living-polymerization case")
    ap.add_argument("-o", "--output", required=True, help="the picture (png, pdf, svg)")
    args = ap.parse_args()
    try:
        doc = load(args.json)
        case = next(c for c in doc["cases"] if c["name"] == "living-polymerization")
        data = case["data"]
        attempts, predicted = data["attempts_curve"], data["predicted_free_monomers"]
        curves, dists, gates = data["curves"], data["distributions"], data["gates"]
    except (OSError, KeyError, StopIteration, json.JSONDecodeError) as e:
        print(f"plot_living_polymerization: cannot read {args.json}: {e}", file=sys.stderr)
        return 2
    import matplotlib
    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 1 + len(dists), figsize=(4.5 * (1 + len(dists)), 3.8))
    m0 = predicted[0]
    for c in curves:
        ax[0].plot(attempts, [1 - m / m0 for m in c["free_monomers"][: len(attempts)]], lw=1, alpha=0.7,
                   label=f"seed {c['seed']}")
    ax[0].plot(attempts, [1 - m / m0 for m in predicted], "k--", lw=1.5, label="rate equation")
    ax[0].set(xlabel="attempts", ylabel="conversion", title=f"{doc.get('form', '')} form, {data['runs']} runs")
    ax[0].legend(fontsize=8)
    tests = [g for g in gates if "p_value" in g]
    for k, (d, t) in enumerate(zip(dists, tests)):
        a = ax[1 + k]
        x = d.get("first", list(range(len(d["observed"]))))
        a.bar(x, d["observed"], width=0.8, color="tab:blue", alpha=0.6, label="chains")
        a.plot(x, d["expected"], "k.-", lw=1, label="Poisson (merged bins)")
        a.set(xlabel="monomers added (first of each merged bin)", ylabel="chains",
              title=f"conversion {t['conversion']:.3f}: chi2 {t['chi_square']:.1f} / {t['dof']}, "
                    f"p = {t['p_value']:.2g}")
        a.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"plot_living_polymerization: wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
