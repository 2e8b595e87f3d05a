// Tabulated bond and angle potentials (GALAMOST's numerical potentials for
// bonded terms; docs/tables.md): read from table files in LAMMPS's
// bond_style table and angle_style table formats, resampled onto a uniform
// grid of r (bonds) or theta (angles) and interpolated by a clamped cubic
// spline (meso/tables/cubic_spline.hpp) that the shared evaluators
// (meso/physics/bonded_table.hpp) read.
//
//   KEYWORD
//   N 101 [FP fplo fphi] [EQ x0]     FP and EQ are read and not used: the
//                                    spline's end slopes are the end
//                                    entries' -F, and EQ is for minimizers
//   1 r V F                          bond: r >= 0, F = -dV/dr
//   1 theta V F                      angle: theta in degrees, from 0 to 180
//                                    exactly, F = -dV/dtheta (energy per
//                                    radian, as LAMMPS)
//
// x strictly increasing; a table of evenly spaced entries keeps its own
// points, others are resampled onto as many evenly spaced points by the
// cubic Hermite through V and -F.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "meso/physics/table_force.hpp"

namespace meso {

enum class TableKind { bond, angle };

struct BondedTable {
  std::string name;    // the keyword
  std::string source;  // the file, for messages
  TableKind kind = TableKind::bond;
  double x_min = 0.0, dx = 0.0;  // r, or theta in radians
  uint32_t intervals = 0;
  std::vector<double> coeff;  // c0 c1 c2 c3 per interval

  double x_max() const { return x_min + double(intervals) * dx; }
  physics::TableView<double> view() const;
  // V and dV/dx at x in [x_min, x_max] (InputError outside).
  double energy(double x) const;
  double derivative(double x) const;
};

// The table of samples (x_i, V_i, F_i = -dV/dx) on `points` evenly spaced
// points from x_0 to x_last (the samples themselves when evenly spaced).
BondedTable bonded_table_from_samples(std::string name, TableKind kind, const std::vector<double>& x,
                                      const std::vector<double>& v, const std::vector<double>& f, uint32_t points);

// Every table of a file of `kind`; InputError naming `source`, the line and
// the field for what read_pair_tables refuses, a bond r < 0, an angle
// outside [0, 180] degrees or not spanning all of it, an N-line option
// other than FP lo hi and EQ x0.
std::vector<BondedTable> read_bonded_tables(std::istream& in, const std::string& source, TableKind kind);
// The table `keyword` of the file at `path` (InputError naming the file and
// the keywords it has when it has no such table).
BondedTable read_bonded_table_file(const std::string& path, const std::string& keyword, TableKind kind);

}  // namespace meso
