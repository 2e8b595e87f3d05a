// Tabulated pair potentials (GALAMOST's numerical potentials; docs/tables.md):
// read from a table file, resampled onto a uniform grid of z = r^2 and
// interpolated there by a cubic spline, whose coefficients the shared
// evaluator (meso/physics/table_force.hpp) reads on every backend.
//
// File format: LAMMPS's pair_style table, so that tables written for LAMMPS
// (or by IBI tools for it) load unchanged:
//
//   # comment                     ('#' starts a comment anywhere)
//   KEYWORD                       one table per keyword section
//   N 500 R 0.8 2.5               N entries; optional R lo hi (uniform in r)
//                                 or RSQ lo hi (uniform in r^2)
//   1 0.80 3.26 71.6              index r V(r) F(r) = -dV/dr, N lines,
//   2 0.80341 3.02 66.1           r strictly increasing
//   ...
//
// Interpolation: a cubic Hermite in r through each sample's V and F (exact
// for cubics in r) gives V at `points` grid points uniform in z from r_1^2 to
// r_N^2 (the table's own samples when it is RSQ); a clamped cubic spline in
// z (end slopes dV/dz = -F / (2 r)) through them gives the coefficients.
// Both steps are fourth order in the spacing for V, third for the force:
// with 2000 points on [0.8, 2.5] the tabulated LJ of the tests is within
// 1.6e-7 of the analytic energy and 2.9e-4 of the force (where |F| reaches
// 1100), and 500 points are 250 and 63 times worse.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "meso/core/pair_style.hpp"
#include "meso/physics/table_force.hpp"

namespace meso {

struct PairPotentialTable {
  std::string name;    // the keyword
  std::string source;  // where it came from (file name), for messages
  double r_min = 0.0, r_max = 0.0;
  double z_min = 0.0, dz = 0.0;
  uint32_t intervals = 0;
  std::vector<double> coeff;  // c0 c1 c2 c3 per interval

  physics::TableView<double> view() const;
  // The interpolated V(r) and F(r) = -dV/dr, r_min <= r < r_max (throws
  // InputError outside): what the evaluator computes, for tests and tools.
  double energy(double r) const;
  double force(double r) const;
};

// The clamped cubic spline in z through v[k] at z_min + k dz (k = 0 .. n,
// n >= 1) with dV/dz = slope_lo and slope_hi at the ends.
PairPotentialTable spline_on_rsq_grid(std::string name, double z_min, double dz, const std::vector<double>& v,
                                      double slope_lo, double slope_hi);

// Samples (r_i, V_i, F_i), r strictly increasing and positive, resampled as
// the header says onto `points` (>= 2) grid points uniform in z.
PairPotentialTable table_from_samples(std::string name, const std::vector<double>& r, const std::vector<double>& v,
                                      const std::vector<double>& f, uint32_t points);

// The tabulated pair style "table": the tables, and per type pair the index
// of its table (-1: the pair does not interact). A table's r_max is its
// pair's cutoff.
class TabulatedPairs final : public PairStyle {
 public:
  TabulatedPairs(std::vector<PairPotentialTable> t, PairTable<int32_t> of)
      : tables(std::move(t)), table_of(std::move(of)) {}

  std::vector<PairPotentialTable> tables;
  PairTable<int32_t> table_of;

  const char* name() const override { return "table"; }
  double max_rcut() const override;
  void validate(uint32_t ntypes, bool rotational) const override;
  std::unique_ptr<PairStyle> clone() const override { return std::make_unique<TabulatedPairs>(*this); }
};

// Every table of a file in the format above, each on a z grid of as many
// points as it has entries. Throws InputError naming `source`, the line and
// the field: a missing or malformed N line, an index out of sequence, a
// value that is not a finite number, r not positive or not increasing, an r
// off the grid its R or RSQ declares (1e-6 relative), fewer or more entries
// than N, a keyword twice.
std::vector<PairPotentialTable> read_pair_tables(std::istream& in, const std::string& source);
// The table `keyword` of the file at `path` (InputError naming the file
// and the keywords it has when it has no such table).
PairPotentialTable read_pair_table_file(const std::string& path, const std::string& keyword);

}  // namespace meso
