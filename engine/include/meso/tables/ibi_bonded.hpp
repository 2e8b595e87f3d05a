// Iterative Boltzmann inversion of bond and angle potentials (the bonded
// half of GALAMOST's bottom-up coarse-graining; meso/tables/ibi.hpp has the pair
// half): distributions of a bond type's lengths or an angle type's angles,
// their Boltzmann inversion with the Jacobian of the coordinate,
//
//   V_0(x) = -kT ln(P_t(x) / J(x)),   J = r^2 (bonds), sin theta (angles),
//
// the update V_{i+1} = V_i + alpha kT ln(P_i / P_t) (the Jacobian cancels),
// and the tables of the potentials (meso/tables/bonded_table.hpp).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "meso/tables/bonded_table.hpp"
#include "meso/core/box.hpp"
#include "meso/tables/ibi.hpp"
#include "meso/core/particle_data.hpp"
#include "meso/core/topology.hpp"

namespace meso {

// A normalised distribution (sum p dx = 1) on bins of width dx centred at x.
struct BondedDistribution {
  TableKind kind = TableKind::bond;
  std::vector<double> x, p;
  double dx = 0.0;
};

// Accumulates the lengths of every bond of one type (or the angles of
// every angle of one type, in radians) over configurations.
class BondedHistogram {
 public:
  // Bins of [lo, hi) (angles: radians within [0, pi]); InputError for an
  // empty range or bins < 1.
  BondedHistogram(TableKind kind, uint32_t type, double lo, double hi, int bins);
  // One configuration: p holds the particles, any order, tags 0 .. N-1.
  void add(const Box& box, const ParticleData<double>& p, const Topology& t);
  // The distribution of the values inside [lo, hi) (InputError when none).
  BondedDistribution result() const;
  uint64_t samples() const { return inside_; }

 private:
  TableKind kind_;
  uint32_t type_;
  double lo_, dx_;
  std::vector<double> count_;
  uint64_t inside_ = 0;
  std::vector<uint32_t> index_of_tag_;
};

// V_0 = -kT ln(P / J) where P > floor x max P; beyond the first and last such
// bins a wall continues it as potential_of_mean_force's does (the slope at
// the edge, at least wall_slope, plus a quadratic term), so runs stay inside.
// InputError for fewer than 4 bins, kT <= 0, or fewer than 3 bins above the floor.
BinnedPotential bonded_potential_of_mean_force(const BondedDistribution& target, double kT,
                                               double floor = 1e-3, double wall_slope = 50.0);
// One IBI step where both P and the target exceed floor x their maximum.
void ibi_update(BinnedPotential& v, const BondedDistribution& p, const BondedDistribution& target, double kT,
                double alpha = 1.0, double floor = 1e-3);
// sum |P - P_t| dx / sum P_t dx over the bins (same bins required).
double distribution_difference(const BondedDistribution& p, const BondedDistribution& target);
// The table of a potential on the bins: F = -dV/dx by central differences;
// the end bins' lines continue it to theta = 0 and pi (angles), to r = 0.001
// and twice the last bin (bonds).
BondedTable bonded_table_from_ibi(std::string name, TableKind kind, const BinnedPotential& v, uint32_t points);

// A bond or angle target from a text file (meso/io/column_file.hpp): lines
// "x P", x the bin centres, uniform (r for bonds; theta in degrees within
// [0, 180] for angles), P in any normalisation (made sum P dx = 1; angles
// in radians). InputError naming the file and the line or bin for what the
// column reader refuses, fewer than 4 bins, centres that are not uniform to
// 1e-6 of a bin, a bond bin below r = 0, an angle bin outside [0, 180], or
// no P above 0.
BondedDistribution read_bonded_distribution_file(const std::string& path, TableKind kind);

// The table of bonded_table_from_ibi(keyword, kind, v, points) as a section
// of LAMMPS's bond_style or angle_style table file (meso/tables/bonded_table.hpp):
// "N points", then "index x V F" at its grid points (theta in degrees, F =
// -dV/dtheta per radian for angles) at 17 significant digits, so reading it
// back gives that table.
void write_bonded_ibi_table(std::ostream& out, const std::string& keyword, TableKind kind, const BinnedPotential& v,
                            uint32_t points);

}  // namespace meso
