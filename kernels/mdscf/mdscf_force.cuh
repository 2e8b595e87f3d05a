// Kernels of the CUDA MD-SCF field ("field/mdscf", mdscf_force.cu; the
// method is meso/core/mdscf_field.hpp, the formulas meso/physics/mdscf.hpp, the
// reference reference/src/mdscf/mdscf_force.cpp).
//
// A field update is a chain of kernels (density -> filter -> potential and
// energy -> filter -> gradient) followed, every step, by the force
// interpolation. The chain is captured into the step graph and replayed
// every step, but the host does not know the step number there: each kernel
// of the chain asks MdscfGate::due() on the device (ctl->step % update_every
// == 0, or the forced update of an initial compute, or no update yet) and
// returns at once when the field is not due. Every thread of a launch
// reaches the same answer (it depends on global words only, which no kernel
// of the chain changes), so block-wide barriers after the gate are safe.
//
// Density assignment, the `density` variant axis:
//   gather  (mdscf_density_gather.cu): particles binned by grid cell, one
//           thread per vertex sums the weights of the 8 cells around it;
//   scatter (mdscf_density_scatter.cu): one thread per particle adds its 8
//           weights with fp64 atomics.
// Both write phi_K(v) = sum_i w_i(v) / (h_x h_y h_z rho0), per present type.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/device_views.cuh"
#include "meso/physics/mdscf.hpp"
#include "meso/physics/vec3.hpp"
#include "core/step_control.cuh"

namespace meso::cuda {

// Block size of every MD-SCF kernel (the fixed-order energy sum and the
// gather's tile scan are written for it).
constexpr uint32_t kMdscfBlock = 256;
// Most present types a field may have: per-vertex loops keep one value per
// type in a local array of this size (DPPC/water has 5).
constexpr uint32_t kMdscfMaxTypes = 32;

// The field's device words: how many updates ran (snapshot(), and the
// "no update yet" rule of the gate), the energy of the last update, and the
// last-block counter of the energy sum (reset by the block that uses it).
struct MdscfState {
  unsigned long long updates;
  double energy;
  unsigned int counter;
  unsigned int pad;
  Vec3d lo;  // the grid's origin since the last update (shifted with grid_shift)
};

// lo is the box's lower corner; the kernels place the grid at state->lo,
// which the first kernel of each update sets (lo, or lo + the update's
// random shift).
struct MdscfGrid {
  physics::GridShape g;
  Vec3d lo, h;
  double per_particle;  // 1 / (h_x h_y h_z rho0): phi of one particle's whole weight
  __host__ __device__ uint32_t nv() const { return g.size(); }
};

// Whether this launch updates the field: the reference's rule
// (r.initial || no update yet || step % update_every == 0) with the step
// from the device's StepControl; never after an abort (every kernel of the
// step returns then, and the host finishes the failed step afterwards).
struct MdscfGate {
  const StepControl* ctl;
  const MdscfState* state;
  uint32_t update_every;
  bool force;  // the initial compute (r.initial): update whatever the step
  __device__ bool due() const {
    if (ctl->abort) return false;
    return force || state->updates == 0 || ctl->step % update_every == 0;
  }
};

// What the density kernels read of the particles: position (type in w), and
// the slot of each type in the composition list (UINT32_MAX: absent).
template <class S4>
struct MdscfParticles {
  const S4* pos;
  uint32_t n;
  const uint32_t* slot_of_type;
};

// The gather variant's cell list over the MD-SCF grid cells (cell c has
// vertex c as its lower corner): a counting sort, members[start[c] ..
// start[c + 1]) in ascending particle index. count is all zero between
// updates (the scan clears it), start[ncells] = n (set once).
struct MdscfCellList {
  uint32_t* key;        // n: the cell of each particle
  uint32_t* slot;       // n: its rank among the cell's arrivals (atomic, any order)
  uint32_t* count;      // ncells
  uint32_t* start;      // ncells + 1
  uint32_t* members;    // n
  uint32_t* tile_sums;  // mdscf_scan_tiles(ncells)
  unsigned int* counter;  // last-block counter of the tile scan
};

// Tiles of kMdscfBlock cells in the gather's scan.
inline uint32_t mdscf_scan_tiles(uint32_t ncells) { return (ncells + kMdscfBlock - 1) / kMdscfBlock; }

// phi[a * nv + v] for the na present types (gather: written; scatter:
// zeroed, then accumulated). Enqueue only; gated by `gate`.
template <class S4>
void mdscf_density_gather(const MdscfParticles<S4>& p, const MdscfGrid& grid, const MdscfCellList& cells,
                          double* phi, uint32_t na, const MdscfGate& gate, cudaStream_t s);
template <class S4>
void mdscf_density_scatter(const MdscfParticles<S4>& p, const MdscfGrid& grid, double* phi, uint32_t na,
                           const MdscfGate& gate, cudaStream_t s);

}  // namespace meso::cuda
