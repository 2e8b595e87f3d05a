#!/usr/bin/env python3
"""Generate the polynomial coefficients of engine/include/meso/physics/fast_math.hpp.

Each polynomial is a near-minimax (Chebyshev) fit, computed with mpmath at 50
digits, of the *remainder* left after the leading terms, which the header
carries in extra precision itself:

  log:   log(m) = 2 s + 2 s^3 Q(s^2),   s = (m-1)/(m+1), m in [sqrt(2)/2, sqrt(2))
  exp2:  2^f    = 1 + f (ln 2 + f R(f)),               f in [-0.502, 0.502]
  sinpi: sin(pi t) = t (pi + t^2 S(t^2)),              t in [-0.5, 0.5]
  rcp:   1/v ~ quadratic seed for Newton,              v = m + 1 in [1.707, 2.415]

Run:  python3 scripts/fast_math_coeffs.py   (needs mpmath)
It prints C++ hex-float constants (exact) and the fit errors; paste them into
the header if a degree is changed. Hex floats avoid any decimal round-trip.
"""
from mpmath import mp, mpf, chebyfit, log, sqrt, atanh, sin, pi, exp

mp.dps = 50
LN2 = log(2)
SQRT2 = sqrt(2)
ZMAX = ((SQRT2 - 1) / (SQRT2 + 1)) ** 2 * mpf("1.002")  # s^2 at the reduction edges, + margin


def Q(z):
    if z == 0:
        return mpf(1) / 3
    s = sqrt(z)
    return (atanh(s) / s - 1) / z


def R(f):
    if abs(f) < mpf("1e-25"):
        return LN2**2 / 2
    return (exp(f * LN2) - 1 - f * LN2) / f**2


def S(w):
    if w == 0:
        return -pi**3 / 6
    s = sqrt(w)
    return (sin(pi * s) / s - pi) / w


def hexd(x):
    return float(x).hex()


def emit(name, f, interval, degree, scale_note):
    coeffs, err = chebyfit(f, interval, degree + 1, error=True)
    print(f"// {name}: degree {degree} on [{mp.nstr(interval[0], 6)}, {mp.nstr(interval[1], 6)}],"
          f" max |fit error| {mp.nstr(err, 3)} ({scale_note})")
    # chebyfit lists the highest degree first; print constant term first.
    for k, c in enumerate(reversed(coeffs)):
        print(f"inline constexpr double k{name}{k} = {hexd(c)};  // {mp.nstr(c, 17)}")
    print()


def split(name, x):
    hi = mpf(float(x))
    lo = x - hi
    print(f"inline constexpr double k{name}Hi = {hexd(hi)};  // {mp.nstr(hi, 17)}")
    print(f"inline constexpr double k{name}Lo = {hexd(lo)};  // {mp.nstr(lo, 17)}")


split("Ln2", LN2)
split("Log2e", 1 / LN2)
split("Pi", pi)
print()
emit("LogQ", Q, [mpf(0), ZMAX], 7, "times 2|s|^3 <= 0.0101")
emit("Exp2R", R, [mpf("-0.502"), mpf("0.502")], 10, "times f^2 <= 0.252")
emit("SinpiS", S, [mpf(0), mpf("0.25")], 7, "times |t|^3 <= 0.125")
emit("Rcp", lambda v: 1 / v, [SQRT2 / 2 + 1 - mpf("0.001"), SQRT2 + 1 + mpf("0.001")], 2,
     "absolute; relative <= 2.42x")
