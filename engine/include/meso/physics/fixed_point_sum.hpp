// Order-independent sums of the few terms of one MPCD cell (momentum,
// kinetic energy about the cell velocity, MPC-AT draws), written once for
// the CPU reference and the CUDA kernels.
//
// Why: a floating-point sum depends on the order of its terms, and the order
// in which a GPU cell list receives a cell's members is the order its
// atomics were served. Keeping each row sorted by tag made the sums
// reproducible but cost most of a collision. Instead every term is
// converted to a 64-bit integer multiple of 2^-shift and the integers are
// added: integer addition is exact and associative, so any order, any
// split over threads and any storage order (a sorted solvent or not) give
// the same bits, on every backend.
//
// The scale is per cell and per sum (block floating point): with
// |term| <= bound < 2^e and n terms, shift = 62 - k - e where n <= 2^k, so
// each scaled term is below 2^(62 - k) in magnitude and the sum below 2^62:
// it cannot overflow. Each term is rounded once, by at most 2^(e + k - 63),
// and the sum once more when it becomes a double: for a cell of n <= 32 the
// error is below 2^(e - 53), one rounding of the largest term, i.e. what a
// single fp64 addition would cost. Very crowded cells (n ~ 10^6) lose
// precision in proportion to n^2 relative to the largest term; MPCD cells
// hold ~rho = 10.
//
// Non-finite bounds (a NaN or an infinite velocity) make the sum NaN rather
// than an integer conversion with undefined result.
#pragma once

#include <cmath>
#include <cstdint>

#include "meso_hd.hpp"

namespace meso::physics {

// The scale exponent for n terms of magnitude at most `bound` (finite).
MESO_HD int fixed_point_shift(double bound, uint32_t n) {
  int e = 0;
  frexp(bound, &e);  // bound = f 2^e with f in [1/2, 1) (e = 0 for bound = 0)
  int k = 0;
  while (k < 32 && (uint64_t{1} << k) < uint64_t{n}) ++k;
  return 62 - k - e;
}

// x (|x| <= the bound the shift was made for) as a multiple of 2^-shift,
// rounded to nearest (exact: ldexp only moves the exponent).
MESO_HD int64_t to_fixed_point(double x, int shift) {
  return static_cast<int64_t>(llrint(ldexp(x, shift)));
}

// A sum of fixed-point terms back as a double (one rounding).
MESO_HD double from_fixed_point(int64_t q, int shift) { return ldexp(static_cast<double>(q), -shift); }

MESO_HD bool finite_bound(double bound) { return bound <= 1.7976931348623157e308; }  // false for NaN

}  // namespace meso::physics
