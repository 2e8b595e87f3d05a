// The operations of the MPCD solvent (HOOMD-blue's mpcd::Integrator:
// streaming method, collision method, sorter), composed by MpcdSimulation
// (meso/mpcd_simulation.hpp):
//
//   mpcd/stream        r += v dt_c (+ the body force: v += g dt_c, r gets
//                      the g dt_c^2 / 2 term), wrapped with image counts
//   mpcd/sort          the solvent in cell order (variant reorder=cell,
//                      every `sort` collisions), tags travel along
//   mpcd/collide/srd   grid shift, cell list, cell properties (momentum,
//   mpcd/collide/at    mass, kinetic energy), the SRD rotation (optionally
//                      with the cell thermostat) or the AT rule
//
// Every backend that provides these takes the solvent with
// Backend::set_mpcd and gives it back with Backend::get_mpcd.
#pragma once

#include <cstdint>

#include "meso/ops/operation.hpp"

namespace meso {

class MpcdStreamOp : public Operation {
 public:
  // One collision period dt_c of free streaming.
  virtual void stream() = 0;
};

class MpcdSortOp : public Operation {
 public:
  virtual void sort() = 0;
};

class MpcdCollideOp : public Operation {
 public:
  // The collision numbered `step` (1, 2, ...): keys the grid shift, the
  // axes and the thermostat or AT draws.
  virtual void collide(uint64_t step) = 0;
};

}  // namespace meso
