// The state the CPU reference operations share (OpenMM's platform data): the
// system and run parameters, the particles in the storage precision, the
// Groot-Warren prediction, TEA signatures, the cell list and the neighbor
// list; and the MPCD solvent (CpuMpcd) beside them. The CpuBackend owns it;
// each operation holds a reference to it.
#pragma once

#include <cstdint>
#include <vector>

#include "meso/run/backend.hpp"
#include "meso/core/error.hpp"
#include "meso/core/mpcd.hpp"
#include "meso/reference/cell_list.hpp"
#include "meso/reference/mpcd_collide.hpp"
#include "meso/reference/neighbor_list.hpp"
#include "meso/core/system.hpp"
#include "meso/run/variant.hpp"

namespace meso::reference {

// The MPCD solvent of the reference (set by CpuBackend::set_mpcd): its own
// arrays beside the MD particles, since the solvent has one mass, no force
// field and its own cell grid (meso/core/mpcd.hpp). Storage in Real (double, or
// float for precision=single); all arithmetic in double.
template <class Real>
struct CpuMpcd {
  bool loaded = false;
  Box box;
  MpcdParams params;
  physics::MpcdGrid grid{};
  std::vector<Vec3<Real>> pos;  // wrapped into [-L/2, L/2)
  std::vector<Vec3<Real>> vel;
  std::vector<uint32_t> type;
  std::vector<uint32_t> tag;
  std::vector<Image> image;
  // The cells of the last collision (shifted grid) or sort (unshifted); the
  // cell of each particle is cells.cell_of_particle().
  MpcdCellList cells;
  // Cell properties of the last collision, before it acted (per cell of
  // `cells`): what the CUDA cell-property kernel is compared against.
  std::vector<MpcdCellProps> props;

  std::size_t size() const { return pos.size(); }
  // Operations may be created before set_mpcd (they hold a reference to
  // this); running one on no solvent is an input error, named.
  void require_loaded(const char* op) const {
    if (!loaded) throw_input_error("operation '", op, "' needs a solvent: call set_mpcd first");
  }
  // Copies a (validated) solvent in, converted to Real (cpu_backend.cpp).
  void assign(const MpcdSystem& sys);
  // The particles in tag order, in double (cpu_backend.cpp).
  void copy_out(MpcdParticles& out) const;
};

template <class Real>
struct CpuContext {
  System sys;
  RunParams params;
  Variant variant;
  ParticleData<Real> p;
  // Velocities the dissipative forces use instead of v (Groot-Warren's
  // prediction); empty when forces read v itself.
  std::vector<Vec3<Real>> v_pred;
  std::vector<uint32_t> signature;  // TEA signatures (rng=tea)
  CellList cells;
  NeighborList nlist;
  CpuMpcd<Real> mpcd;  // the solvent; loaded == false until set_mpcd

  // Cell width and list radius: the largest cutoff plus the Verlet skin.
  double r_list() const { return sys.max_rcut() + params.skin; }
};

}  // namespace meso::reference
