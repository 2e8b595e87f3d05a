#!/usr/bin/env python3
"""Reads janus-assembly runs at several time steps: is the ordering converged in dt?

    scripts/janus_dt_convergence.py RUN.json ... [--gate]

The rules are those validation/janus-assembly/README.md states ("Convergence
in the time step"), written before the experiment ran. Each file is a
`mesobench validate --filter janus-assembly --json` result (plain or .xz);
every run in it is one series of the local order Q(t). Runs pair by
integrator and seed, each step against the next smaller one (a factor 2 in
the experiment); a step is converged when its Q(t) stays within
B = max(0.05, D) of the smaller step's at every sample of either (linear
between samples) up to the shorter run's end, where D is
the largest difference two seeds make at one step, and when both runs hold
the bulk at kT within 3% with at most 4 fast particles in any sample.

--seeds: the second experiment (README, "The second experiment, and how it is
read"): several seeds a step; per run t70, the first time Q reaches 0.7
(linear between samples), and the plateau, the mean Q from t = 300 to 400;
the largest step against the next smaller one: every run reaches 0.7, the
mean t70 and the mean plateaus differ by at most 3 combined standard errors
of the means (the plateaus by at most max(0.05, that)), every run's bulk at
kT within 3% with at most 4 fast particles.

--gate: instead, each run against the gate at the converged step (local
order >= 0.7 and facing >= 0.5 at the end, the bulk temperature from
t_end / 10 on within 3% of kT, the fast particles summed over the samples
within 4 Poisson standard errors of dt = 0.002's rate; until seeds 21-23
failed it, at most 4 in any sample).
Exit status: 0 when every step pair is converged (or, with --gate, every
run passes), 1 otherwise, 2 for bad input.
"""
import argparse
import bisect
import math
import sys

from result_files import load

BAND = 0.05         # the smallest band for |Q_dt - Q_dt/2|
UNRESOLVED = 0.15   # a seed-to-seed difference beyond this: one seed a step cannot tell
T_TOL = 0.03        # bulk temperature within 3% of kT
MAX_HOT = 4         # fast particles (> 6 sqrt(kT/m)) in any sample; Maxwell-Boltzmann: 0.002
SETTLE_T = 20.0     # the temperature is averaged from here on in the comparison
GATE_Q = 0.7        # the gate's local order at t_end
GATE_FACING = 0.5   # and facing fraction
HOT_RATE = 59.0 / (127.0 * 24000.0)  # --gate: fast particles per particle and sample at dt = 0.002
PLATEAU = (300.0, 400.0)  # --seeds: the plateau's window
SEEDS_Z = 3.0       # --seeds: combined standard errors allowed between the steps' means


class Run:
    def __init__(self, path, data, run):
        self.path, self.seed = path, run["seed"]
        self.integrator, self.dt, self.kT = data["integrator"], data["dt"], data["kT"]
        self.t_end = data["time_end"]
        self.n = data.get("N", 24000)
        s = run["samples"]
        self.t = [round(x["time"], 6) for x in s]
        self.q = [x["local_order"] for x in s]
        self.facing = [x["facing"] for x in s]
        self.bulk = [x["bulk_temperature"] for x in s]
        self.hot = [x["hot"] for x in s]

    def q_at(self, t):
        """Q at time t, linear between the samples (the runs' sample times differ)."""
        k = min(max(bisect.bisect_left(self.t, t), 1), len(self.t) - 1)
        t0, t1 = self.t[k - 1], self.t[k]
        w = (t - t0) / (t1 - t0) if t1 > t0 else 1.0
        return self.q[k - 1] + w * (self.q[k] - self.q[k - 1])

    def bulk_mean(self, t_from):
        v = [b for t, b in zip(self.t, self.bulk) if t >= t_from]
        return sum(v) / len(v) if v else float("nan")

    def temperature_ok(self, t_from):
        return abs(self.bulk_mean(t_from) / self.kT - 1.0) <= T_TOL

    def first_reaching(self, q):
        return next((t for t, x in zip(self.t, self.q) if x >= q), None)


def runs_of(paths):
    out = []
    for p in paths:
        try:
            doc = load(p)
            data = doc["cases"][0]["data"]
            out += [Run(p, data, r) for r in data["runs"]]
        except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
            print("janus_dt_convergence: %s is not a janus-assembly result (%s)" % (p, e), file=sys.stderr)
            sys.exit(2)
    return out


def max_difference(a, b):
    """The largest |Q_a - Q_b| at the samples of either run up to the shorter
    one's end, and how many such times."""
    end = min(a.t[-1], b.t[-1])
    times = sorted({t for t in a.t + b.t if t <= end})
    return max(abs(a.q_at(t) - b.q_at(t)) for t in times), len(times)


def seed_spread(runs):
    """D: the largest difference between two seeds at one step (None without two)."""
    d = None
    for i, a in enumerate(runs):
        for b in runs[i + 1:]:
            if (a.integrator, a.dt) == (b.integrator, b.dt) and a.seed != b.seed:
                x, _ = max_difference(a, b)
                d = x if d is None else max(d, x)
    return d


def end_time(runs, dt):
    """The gate's t_end at step dt: twice the time Q first reaches 0.7 (the later
    run's), rounded up to 100, at least 300; None when the runs cannot tell."""
    at = [r for r in runs if r.dt == dt]
    reached = [r.first_reaching(GATE_Q) for r in at]
    if not any(t is not None for t in reached):
        return None
    t07 = max(t for t in reached if t is not None)
    # A run that ended after that time without reaching 0.7 contradicts it.
    if any(t is None and r.t_end >= t07 for t, r in zip(reached, at)):
        return None
    return max(300, 100 * math.ceil(2 * t07 / 100 - 1e-9))


def convergence(runs):
    d = seed_spread(runs)
    band = max(BAND, d or 0.0)
    print("seed-to-seed difference D = %s; band B = %.3f" % ("%.3f" % d if d is not None else "none (one seed a step)",
                                                               band))
    if d is not None and d > UNRESOLVED:
        print("D > %.2f: one seed a step cannot resolve a dependence on dt: not settled" % UNRESOLVED)
        return 1
    converged = {}
    rows = []
    for integ, seed in sorted({(r.integrator, r.seed) for r in runs}):
        chain = sorted((r for r in runs if (r.integrator, r.seed) == (integ, seed)), key=lambda r: -r.dt)
        for big, small in zip(chain, chain[1:]):
            diff, n = max_difference(big, small)
            t_ok = big.temperature_ok(SETTLE_T) and small.temperature_ok(SETTLE_T)
            hot = max(max(big.hot), max(small.hot))
            ok = diff <= band and t_ok and hot <= MAX_HOT
            converged[(integ, big.dt)] = converged.get((integ, big.dt), True) and ok
            rows.append("%-10s %5d %8g %8g %8.3f %7d %6.3f/%.3f %5d  %s" % (
                integ, seed, big.dt, small.dt, diff, n, big.bulk_mean(SETTLE_T), small.bulk_mean(SETTLE_T), hot,
                "converged" if ok else "NOT converged"))
    if not converged:
        print("janus_dt_convergence: no two steps of one integrator and seed to compare", file=sys.stderr)
        sys.exit(2)
    print("%-10s %5s %8s %8s %8s %7s %13s %5s  %s" % ("integrator", "seed", "dt", "smaller", "max|dQ|", "samples",
                                                     "bulk T", "fast", "verdict"))
    print("\n".join(rows))
    for integ in sorted({k[0] for k in converged}):
        steps = sorted((dt for i, dt in converged if i == integ), reverse=True)
        # A step counts only when every smaller step compared is converged too.
        good = [dt for k, dt in enumerate(steps) if all(converged[(integ, s)] for s in steps[k:])]
        if not good:
            print("%s: no step converged" % integ)
            continue
        t_end = end_time([r for r in runs if r.integrator == integ], good[0])
        print("%s: the gate's step %g; t_end %s" % (integ, good[0], t_end if t_end is not None else
                                                    "not settled (Q does not reach %.1f in these runs)" % GATE_Q))
    return 0 if all(converged.values()) else 1


def crossing(r, q):
    """The first time Q reaches q, linear between the samples (None if never)."""
    for k, x in enumerate(r.q):
        if x >= q:
            if k == 0:
                return r.t[0]
            t0, t1, q0 = r.t[k - 1], r.t[k], r.q[k - 1]
            return t0 + (t1 - t0) * (q - q0) / (x - q0)
    return None


def mean_se(v):
    m = sum(v) / len(v)
    if len(v) < 2:
        return m, float("nan")
    return m, math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1) / len(v))


def seeds(runs):
    by = {}
    for r in runs:
        by.setdefault((r.integrator, r.dt), []).append(r)
    print("%-10s %8s %5s %8s %8s %8s %5s" % ("integrator", "dt", "seed", "t70", "plateau", "bulk T", "fast"))
    stats, ok_runs = {}, {}
    for (integ, dt), rs in sorted(by.items(), key=lambda kv: (kv[0][0], -kv[0][1])):
        t70s, plats, good = [], [], True
        for r in sorted(rs, key=lambda r: r.seed):
            t70 = crossing(r, GATE_Q)
            w = [q for t, q in zip(r.t, r.q) if PLATEAU[0] <= t <= PLATEAU[1]]
            plat = sum(w) / len(w) if w else float("nan")
            t_ok, hot = r.temperature_ok(SETTLE_T), max(r.hot)
            good = good and t70 is not None and bool(w) and t_ok and hot <= MAX_HOT
            t70s.append(t70 if t70 is not None else float("nan"))
            plats.append(plat)
            print("%-10s %8g %5d %8s %8.3f %8.3f %5d%s" % (integ, dt, r.seed, "%.1f" % t70 if t70 is not None else "never",
                                                       plat, r.bulk_mean(SETTLE_T), hot, "" if t_ok and hot <= MAX_HOT
                                                       else "  (bulk T or fast particles out of bounds)"))
        stats[(integ, dt)] = (mean_se(t70s), mean_se(plats), t70s)
        ok_runs[(integ, dt)] = good and len(rs) >= 2
    rc = 1
    for integ in sorted({k[0] for k in stats}):
        steps = sorted((dt for i, dt in stats if i == integ), reverse=True)
        for dt in steps:
            (tm, ts), (pm, ps), _ = stats[(integ, dt)]
            print("%s dt %g: t70 %.1f +- %.1f, plateau %.3f +- %.3f over %d seeds%s" % (
                integ, dt, tm, ts, pm, ps, len(by[(integ, dt)]), "" if ok_runs[(integ, dt)] else
                "  (a run out of bounds, or fewer than two seeds)"))
        if len(steps) < 2:
            print("%s: one step only: nothing to compare" % integ)
            continue
        big, small = steps[0], steps[1]
        (tb, sb), (pb, qb), _ = stats[(integ, big)]
        (tsm, ssm), (psm, qsm), _ = stats[(integ, small)]
        dt70, bt70 = abs(tb - tsm), SEEDS_Z * math.hypot(sb, ssm)
        dpl, bpl = abs(pb - psm), max(BAND, SEEDS_Z * math.hypot(qb, qsm))
        print("dt %g against %g: |t70 difference| %.1f against %.1f; |plateau difference| %.3f against %.3f" % (
            big, small, dt70, bt70, dpl, bpl))
        # A run that never orders, or leaves the bulk's bounds, settles nothing (the
        # README's rule); otherwise the larger step when the means agree, else the smaller.
        if not (ok_runs[(integ, big)] and ok_runs[(integ, small)]):
            print("%s: not settled (a run does not reach %.1f or leaves the bounds)" % (integ, GATE_Q))
            continue
        chosen = big if dt70 <= bt70 and dpl <= bpl else small
        t_end = max(300, 100 * math.ceil(2 * max(stats[(integ, chosen)][2]) / 100 - 1e-9))
        print("%s: the gate's step %g (%s); t_end %d" % (
            integ, chosen, "converged against %g" % small if chosen == big else
            "the smallest step run with several seeds, not shown converged", t_end))
        rc = 0 if chosen == big else 1
    return rc


def gate(runs):
    print("gate: at t_end local order >= %.1f, facing >= %.1f; bulk T from t_end/10 within %d%% of kT; fast"
          " particles summed within 4 Poisson SE of %.3g a particle and sample" % (GATE_Q, GATE_FACING,
                                                                                round(100 * T_TOL), HOT_RATE))
    print("%-10s %8s %5s %6s %7s %7s %7s %9s  %s" % ("integrator", "dt", "seed", "t_end", "local", "facing",
                                                   "bulk T", "fast/lim", "result"))
    failed = 0
    for r in runs:
        t_ok = r.temperature_ok(r.t_end / 10)
        expected = HOT_RATE * r.n * len(r.hot)
        limit = expected + 4.0 * math.sqrt(expected)
        ok = r.q[-1] >= GATE_Q and r.facing[-1] >= GATE_FACING and t_ok and sum(r.hot) <= limit
        failed += not ok
        print("%-10s %8g %5d %6g %7.3f %7.3f %7.3f %4d/%4.1f  %s" % (r.integrator, r.dt, r.seed, r.t_end, r.q[-1],
                                                                   r.facing[-1], r.bulk_mean(r.t_end / 10),
                                                                   sum(r.hot), limit, "pass" if ok else "FAIL"))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--gate", action="store_true")
    mode.add_argument("--seeds", action="store_true")
    a = ap.parse_args()
    runs = runs_of(a.results)
    return gate(runs) if a.gate else seeds(runs) if a.seeds else convergence(runs)


if __name__ == "__main__":
    sys.exit(main())
