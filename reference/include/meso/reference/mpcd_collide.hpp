// Reference MPCD collision (operations "mpcd/collide/srd" and
// "mpcd/collide/at"): random grid shift, cell list, cell properties, then the
// SRD rotation (Malevanets & Kapral, J. Chem. Phys. 110, 8605 (1999)),
// optionally with the Maxwell-Boltzmann cell thermostat (Huang et al., PRE 91,
// 013310 (2015)), or the MPC-AT rule (Allahyarov & Gompper, PRE 66, 036702
// (2002)). The formulas are meso/physics/srd.hpp; this file decides only the
// order in which cells and particles are visited.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "meso/core/mpcd.hpp"
#include "meso/ops/operation.hpp"
#include "meso/physics/lees_edwards.hpp"
#include "meso/physics/srd.hpp"
#include "meso/physics/vec3.hpp"

namespace meso::reference {

// The solvent binned into the (shifted) MPCD grid, as a CSR counting sort:
// the members of cell c are particles()[cell_start()[c] .. cell_start()[c+1]).
// Chosen over HOOMD-blue's fixed-capacity cell matrix because it can never
// overflow (nothing to grow, nothing dropped) and is obviously correct; the
// CUDA cell list is compared with it cell by cell as sets of particles.
//
// Within a cell the members are in ascending storage index. The order does
// not matter to the collision: the cell sums are order-independent fixed-point
// sums (meso/physics/fixed_point_sum.hpp), so a run with mpcd/sort and one
// without are bitwise the same trajectory (tests/reference/mpcd_test.cpp), and
// the CUDA cell list, filled by atomics in no fixed order, sums alike.
template <class Real>
struct MpcdEmbedded;

class MpcdCellList {
 public:
  static constexpr uint32_t kNoCell = 0xffffffffu;
  // Bins the n solvent particles and, when md is given, the MD particles
  // that join the collision as members n + i (MD particle i); the others
  // get kNoCell. With Lees-Edwards shear (le, solvent only), a particle
  // beyond the shifted grid's first or last layer joins the cells across
  // the z face as its sheared image (physics::srd_le_image).
  template <class Real>
  void build(const physics::MpcdGrid& grid, const Vec3<Real>* pos, std::size_t n,
             const Vec3d& shift, const MpcdEmbedded<Real>* md = nullptr,
             const physics::LeesEdwards* le = nullptr);

  uint32_t num_cells() const { return static_cast<uint32_t>(cell_start_.size()) - 1u; }
  const Vec3d& shift() const { return shift_; }
  const std::vector<uint32_t>& cell_start() const { return cell_start_; }
  const std::vector<uint32_t>& particles() const { return particles_; }
  // Global cell index (MpcdGrid::cell_of under shift()) of each particle.
  const std::vector<uint32_t>& cell_of_particle() const { return cell_of_; }
  uint32_t count(uint32_t c) const { return cell_start_[c + 1] - cell_start_[c]; }
  // With shear: the image (+1, -1, 0) each particle joined its cell as;
  // empty without.
  const std::vector<int8_t>& image_of_particle() const { return image_; }
  // With shear: the velocity gdot L_z of the upper image along x.
  double image_jump() const { return jump_; }

 private:
  Vec3d shift_{0.0, 0.0, 0.0};
  std::vector<uint32_t> cell_start_{0u};
  std::vector<uint32_t> particles_;
  std::vector<uint32_t> cell_of_;
  std::vector<int8_t> image_;
  double jump_ = 0.0;
};

// What a collision reads of a cell (HOOMD-blue's CellThermoCompute): its
// mass, momentum and the kinetic energy of the velocities relative to the
// cell's centre of mass, sum m |v - u|^2 / 2 (summed in a second pass over the
// relative velocities, not as sum m v^2 / 2 - M u^2 / 2, which cancels).
// Empty cells: all zero.
struct MpcdCellProps {
  uint32_t n = 0;
  double mass = 0.0;
  double max_mass = 0.0;  // of one member (the AT draws' bound)
  Vec3d momentum{0.0, 0.0, 0.0};
  double ke_rel = 0.0;

  Vec3d velocity() const {  // u_cm; zero for an empty cell
    return n == 0 ? Vec3d{0.0, 0.0, 0.0} : (1.0 / mass) * momentum;
  }
};

template <class Real>
struct CpuMpcd;
template <class Real>
struct CpuContext;

// The MD particles that join a collision (solute coupling, HOOMD-blue's
// embedded group): those whose type is in `types`, with their own masses.
template <class Real>
struct MpcdEmbedded {
  const Vec3<Real>* pos = nullptr;
  Vec3<Real>* vel = nullptr;
  const uint32_t* type = nullptr;
  const uint32_t* tag = nullptr;
  std::size_t n = 0;
  const double* type_mass = nullptr;
  uint32_t types = 0;

  bool joins(std::size_t i) const { return type[i] < 32u && ((types >> type[i]) & 1u) != 0u; }
  double mass_of(std::size_t i) const { return type_mass[type[i]]; }
};

// The properties of every cell of `cells`: fixed-point sums of the fp64
// per-particle terms (physics::mpcd_cell_sums), independent of the members'
// order and bitwise what the CUDA kernels compute.
template <class Real>
void mpcd_cell_properties(const CpuMpcd<Real>& s, const MpcdCellList& cells,
                          std::vector<MpcdCellProps>& out, const MpcdEmbedded<Real>* md = nullptr);

// One collision under an explicit grid shift (tests use it to place the grid;
// the operation draws it): bins s.cells, stores s.props, applies `rule`.
template <class Real>
void mpcd_collide(CpuMpcd<Real>& s, MpcdRule rule, uint64_t step, const Vec3d& shift,
                  const MpcdEmbedded<Real>* md = nullptr);

// The collision numbered `step`: shift physics::srd_grid_shift(step, seed, a)
// when params.grid_shift, else none.
template <class Real>
void mpcd_collide(CpuMpcd<Real>& s, MpcdRule rule, uint64_t step,
                  const MpcdEmbedded<Real>* md = nullptr);

// The "mpcd/collide/srd" and "mpcd/collide/at" operations.
template <class Real>
std::unique_ptr<Operation> make_mpcd_collide(CpuContext<Real>& c, MpcdRule rule);

}  // namespace meso::reference
