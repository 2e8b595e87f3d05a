#!/usr/bin/env python3
"""Plot an iterative Boltzmann inversion (`mesobench ibi --json FILE`): the
target g(r) and each iteration's, the potential of each iteration, and the
integrated difference |g - g_target| / g_target against the iteration.

    scripts/plot_ibi.py ibi.json -o ibi.png
"""
import argparse
import json
import sys

from result_files import open_json


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    try:
        with open_json(args.json) as f:
            doc = json.load(f)
        if doc.get("kind") != "ibi":
            raise KeyError(f"kind is {doc.get('kind')!r}, not 'ibi'")
        r, target, its = doc["r"], doc["g_target"], doc["iterations"]
    except (OSError, KeyError, json.JSONDecodeError) as e:
        print(f"plot_ibi: cannot read {args.json}: {e}", file=sys.stderr)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 3, figsize=(13, 3.8))
    cmap = plt.get_cmap("viridis")
    n = len(its)
    for k, it in enumerate(its):
        c = cmap(k / max(1, n - 1))
        ax[0].plot(r, it["g"], color=c, lw=1, label=f"iteration {it['iteration']}")
        ax[1].plot(r, it["v"], color=c, lw=1)
    ax[0].plot(r, target, "k--", lw=1.5, label="target")
    ax[0].set(xlabel="r", ylabel="g(r)", title="g(r)")
    ax[0].legend(fontsize=7)
    vmin = min(min(it["v"]) for it in its)
    ax[1].set(xlabel="r", ylabel="V(r)", title="potential", ylim=(vmin - 0.2, max(1.0, -vmin)))
    ax[2].semilogy([it["iteration"] for it in its], [it["difference"] for it in its], "o-")
    ax[2].set(xlabel="iteration", ylabel="integrated |g - g_t| / g_t", title="convergence")
    p = doc.get("parameters", {})
    fig.suptitle(f"mesobench ibi: {doc['target']}, rho {p.get('rho')}, kT {p.get('kT')}, N {p.get('N')} "
                 f"({doc['provenance'].get('git_commit', '?')})", fontsize=9)
    fig.tight_layout()
    out = args.output if args.output.endswith(".png") else args.output + ".png"
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
