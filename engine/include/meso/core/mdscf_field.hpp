// The hybrid particle-field (MD-SCF) part of a System: the grid, the
// interaction table and the compressibility of the mean field whose
// gradient replaces the intermolecular pair forces (Milano & Kawakatsu
// 2009; GALAMOST sec. "MD-SCF"; the potential and grid pieces are in
// meso/physics/mdscf.hpp, the operation "field/mdscf" in each backend).
//
// Per field update (every `update_every` steps, and before the first step):
//   0. with grid_shift, the grid moves by a random offset in [0, h);
//   1. phi_K(v)  = rho_K(v) / rho0 by cloud-in-cell, per type K present
//                  (the composition list: absent types carry no field);
//   2. with filter_sigma > 0, phi~_K = G * phi_K, G a periodic Gaussian of
//      width sigma (separable, truncated at 4 sigma, taps normalised so
//      the particle count is kept exactly);
//   3. w_K(v)    = sum_L chi_KL phi~_L + inv_kappa (sum_L phi~_L - 1);
//   4. V_K       = G * w_K with the filter (the functional derivative of
//                  the filtered energy, HylleraasMD's form), w_K without;
//   5. grad V_K at every vertex by central differences.
// Every step: F_i = -sum_c w_c grad V_K(v_c) over the 8 vertices of the
// particle's grid cell, with its cloud-in-cell weights w_c.
// Energy (reported with thermo, from the last update):
//   E = rho0 h^3 sum_v [ 1/2 sum_KL chi_KL phi~_K phi~_L
//                        + inv_kappa/2 (sum_K phi~_K - 1)^2 ].
// The field's virial is not computed (pressure of an MD-SCF run leaves the
// field term out; docs/mdscf.md).
#pragma once

#include <cstdint>
#include <vector>

#include "meso/core/box.hpp"

namespace meso {

struct MdscfField {
  uint32_t nx = 0, ny = 0, nz = 0;  // grid vertices per axis; nx == 0: no field
  std::vector<double> chi;          // ntypes x ntypes, symmetric, energy units (kT chi)
  double inv_kappa = 0.0;           // 1/kappa, energy units
  double rho0 = 0.0;                // reference total number density (1/length^3)
  uint32_t update_every = 1;        // steps between field updates
  double filter_sigma = 0.0;        // Gaussian filter width (length); 0: none
  // Shift the grid by a random offset in [0, h) per axis at every update
  // (physics::mdscf_grid_shift, keyed by the step and RunParams::seed), so
  // that no sub-grid position is preferred; off: the grid's first vertex
  // stays at the box's lower corner (GALAMOST, OCCAM).
  bool grid_shift = false;

  bool enabled() const { return nx > 0; }
  // Grid spacing along each axis for `box`.
  Vec3d spacing(const Box& box) const {
    const Vec3d L = box.lengths();
    return {L.x / nx, L.y / ny, L.z / nz};
  }
  // The grid with the spacing closest to h (at least 4 vertices per axis).
  static void grid_for(const Box& box, double h, uint32_t& nx, uint32_t& ny, uint32_t& nz);
  // Throws InputError naming the bad value: fewer than 4 vertices on an
  // axis, a chi table that is not ntypes x ntypes, not symmetric or not
  // finite, inv_kappa < 0, rho0 <= 0, update_every == 0, sigma < 0 or a
  // filter wider than half the box.
  void validate(const Box& box, uint32_t ntypes) const;
};

}  // namespace meso
