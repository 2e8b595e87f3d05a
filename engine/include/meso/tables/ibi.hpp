// Iterative Boltzmann inversion of pair potentials (Reith, Pütz &
// Müller-Plathe, J. Comput. Chem. 24, 1624 (2003); GALAMOST's numerical
// potentials are fitted this way): from a target radial distribution
// g_t(r), start at the potential of mean force V_0 = -kT ln g_t and correct
//
//   V_{i+1}(r) = V_i(r) + alpha kT ln(g_i(r) / g_t(r))
//
// with g_i the distribution that V_i gives. The potentials live on the
// g(r) bins; pair_table_from_ibi turns one into a PairPotentialTable
// (meso/tables/pair_potential_table.hpp) for a run. docs/tables.md describes the
// loop and its choices.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "meso/tables/pair_potential_table.hpp"
#include "meso/analysis/rdf.hpp"

namespace meso {

// A pair potential sampled on the bins of a g(r), r increasing.
struct BinnedPotential {
  std::vector<double> r;
  std::vector<double> v;
};

// V_0 = -kT ln g_t where g_t > g_floor. Towards short r, where the target
// is (near) zero, the potential is continued as a repulsive wall: from the
// first bin r_0 with g_t > g_floor inwards, V grows with the slope it has at
// r_0 (at least `wall_slope`) plus a quadratic term wall_slope / r_0 (r_0 - r)^2,
// so a run never samples it. Beyond the last bin V is shifted to 0 at the
// last bin (the table's cutoff). Throws InputError for fewer than 4 bins,
// bins not increasing, a target with no bin above g_floor, or kT <= 0.
BinnedPotential potential_of_mean_force(const Rdf& target, double kT, double g_floor = 1e-3,
                                        double wall_slope = 50.0);

// One IBI step on the bins where both g and the target exceed g_floor (the
// wall stays as it is), then shifted to 0 at the last bin. alpha in (0, 1].
void ibi_update(BinnedPotential& v, const Rdf& g, const Rdf& target, double kT, double alpha = 1.0,
                double g_floor = 1e-3);

// The integrated absolute difference of two distributions on the same bins,
// relative to the target: sum |g - g_t| dr / sum g_t dr (the convergence
// measure of the closed-loop gate).
double rdf_difference(const Rdf& g, const Rdf& target);

// The table of a binned potential over its bins (the wall included, so the
// table reaches the first bin): F = -dV/dr by central differences (one-
// sided at the ends), on `points` grid points uniform in r^2; its cutoff is
// the last bin. With r_in > 0 (below the first bin) the table reaches down
// to r_in, V continued linear in r^2 from the first two bins so that the
// force falls to 0 at r = 0: for soft beads that overlap (a DPD-type melt
// reaches r near 0, where a table that starts at the first bin would stop
// the run).
PairPotentialTable pair_table_from_ibi(std::string name, const BinnedPotential& v, uint32_t points,
                                       double r_in = 0.0);

// F = -dV/dr on the bins, by central differences (one-sided at the ends).
std::vector<double> ibi_forces(const BinnedPotential& v);

// The potential as a table file section (docs/tables.md: LAMMPS's format):
// `keyword`, "N points RSQ r_1 r_n", and one "index r V F" line per point of
// pair_table_from_ibi(keyword, v, points, r_in)'s r^2 grid (V and F of its spline),
// at 17 significant digits. Reading it back gives that table again (a clamped
// spline is fixed by its values and end slopes): a run with the file runs
// the potential the IBI loop measured. (The bins alone would not do: on the
// r^2 grid of as many points, the short distances get few intervals.)
void write_ibi_table(std::ostream& out, const std::string& keyword, const BinnedPotential& v, uint32_t points,
                     double r_in = 0.0);

// A value as the tables and distributions above are written: a subnormal
// (magnitude below 2.2e-308) as 0. The readers take numbers through
// std::stod, which refuses a subnormal as out of range, and a potential, a
// force or a probability that small is 0 in every sum it enters.
double written_value(double x);

}  // namespace meso
