// Tests' tables of known potentials (meso/tables/bonded_table.hpp): the samples of
// V = k/2 (x - x0)^2 and F = -dV/dx on n even points over [lo, hi], as a
// bond (x = r) or angle (x = theta in radians) table. Both backends' table
// tests compare tabulated terms against the analytic ones they sample.
#pragma once

#include <cstdint>
#include <vector>

#include "meso/tables/bonded_table.hpp"

namespace meso::testing {

inline BondedTable harmonic_table(TableKind kind, double k, double x0, double lo, double hi, uint32_t n) {
  std::vector<double> x(n), v(n), f(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = lo + (hi - lo) * i / (n - 1);
    v[i] = 0.5 * k * (x[i] - x0) * (x[i] - x0);
    f[i] = -k * (x[i] - x0);
  }
  return bonded_table_from_samples(kind == TableKind::bond ? "bond" : "angle", kind, x, v, f, n);
}

}  // namespace meso::testing
