// The bead-spring melt with every potential tabulated: GALAMOST's numerical
// potentials (pair on the r^2 grid, bonds and angles on their own grids) on
// the melt of meso/tables/ibi_melt.hpp. It is the system of the `table-melt`
// benchmark (chains of 50 beads, the double over single precision ratio)
// and of the `table-melt` validation case (GPU against CPU distributions).
//
// The tables are either the analytic melt's own potentials, tabulated, or
// read from files: those `mesobench ibi` writes for a melt (-o, --bond-output,
// --angle-output), or any in its formats (docs/tables.md).
#pragma once

#include <cstdint>
#include <string>

#include "meso/tables/bonded_table.hpp"
#include "meso/tables/ibi_melt.hpp"
#include "meso/tables/pair_potential_table.hpp"
#include "meso/core/system.hpp"

namespace meso {

// Table files of a melt: all three paths or none, one keyword for all.
struct MeltTableFiles {
  std::string pair, bond, angle;
  std::string keyword = "IBI";  // what `mesobench ibi` writes by default

  bool empty() const { return pair.empty() && bond.empty() && angle.empty(); }
};

struct TableMeltParams {
  BeadSpringMeltParams melt;  // the chains, box, start and analytic potentials
  // Grid points of each analytic table. 1000 points leave the pair energy
  // and force within 3e-4 kT and 0.08 kT/r_c (0.3% of a) of the formula
  // (continued below r_s), the bonds and angles within 1e-9 (MeltTables tests).
  uint32_t points = 1000;
  MeltTableFiles files;  // when not empty, the tables instead of the analytic ones

  void validate() const;  // InputError naming the bad value
};

// The analytic melt's potentials as tables of `points` points: the soft
// repulsion from kMeltTableRIn to rcut on the r^2 grid, the harmonic bond
// from 0.001 to bond_r0 + 1.5 (112 kT above its minimum at k = 100), the
// harmonic angle over 0 .. 180 degrees. Below r_s = kMeltPairInnerBelow
// rcut the pair potential continues as the quadratic in r^2 with its value
// and first two r^2-derivatives at r_s: the spline in r^2 cannot follow the
// soft repulsion's sqrt(r^2) to r = 0, where its slope in r^2 is infinite.
// There V(0) = 12.0 kT for 12.5 and F falls to 0 at r = 0 (a = 25); the
// analytic melt has pairs this close at about 1e-3 per bead.
inline constexpr double kMeltPairInnerBelow = 0.05;
PairPotentialTable analytic_melt_pair_table(const BeadSpringMeltParams& p, uint32_t points);
BondedTable analytic_melt_bond_table(const BeadSpringMeltParams& p, uint32_t points);
BondedTable analytic_melt_angle_table(const BeadSpringMeltParams& p, uint32_t points);

// `sys` (a melt of one bead type, one bond type and one angle type) with
// these tables in place of its pair, bond and angle potentials.
System with_melt_tables(System sys, PairPotentialTable pair, BondedTable bond, BondedTable angle);

// The melt of p.melt with the analytic tables, or the files' (read and
// checked here: InputError naming the file, line and field).
System make_table_melt(const TableMeltParams& p);

}  // namespace meso
