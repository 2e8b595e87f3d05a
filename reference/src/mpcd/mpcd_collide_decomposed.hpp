// Internal to the reference MPCD collision: the collision of the solvent on
// one of several ranks (mpcd_collide_decomposed.cpp), which the
// "mpcd/collide/srd" and "mpcd/collide/at" operations (mpcd_collide.cpp) run
// when a communicator splits the solvent over ranks.
#pragma once

#include <cstdint>
#include <vector>

#include "meso/core/mpcd.hpp"
#include "meso/ops/communicator.hpp"
#include "meso/physics/vec3.hpp"
#include "meso/reference/mpcd_collide.hpp"

namespace meso::reference::mpcd_detail {

// Per-collision arrays, kept between collisions (their capacity is reused).
struct DecomposedScratch {
  std::vector<uint32_t> cell, start, members, fill;
  std::vector<double> p1;
  std::vector<int64_t> p2, p3;
  std::vector<MpcdCellProps> props;
  std::vector<Vec3d> at_mean;
};

// One collision of the solvent on one of several ranks, with the rank's own
// MD particles of the embed_types (`md`: its local particles, every one
// inside its domain; null: none), bitwise that of one rank;
// mpcd_collide_decomposed.cpp says how.
template <class Real>
void mpcd_collide_decomposed(CpuMpcd<Real>& s, MpcdRule rule, uint64_t step, const Communicator& comm,
                             DecomposedScratch& x, const MpcdEmbedded<Real>* md = nullptr);

}  // namespace meso::reference::mpcd_detail
