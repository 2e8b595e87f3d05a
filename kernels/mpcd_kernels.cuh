// The enqueue functions of the MPCD solvent's kernels (one file each, beside
// the CPU reference by stem): streaming (mpcd_stream.cu), the cell list
// (mpcd_cell_list.cu), cell properties and the collision (mpcd_collide.cu),
// the cell-order sort (mpcd_sort.cu). None waits for the stream.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "meso/box.hpp"
#include "meso/physics/body_force.hpp"
#include "meso/physics/srd.hpp"
#include "mpcd_context.cuh"

namespace meso::cuda {

// r += dt v + dt^2 g / 2, v += dt g (g: the body force's acceleration, on
// particles of mass m, at the position before the move; none when
// inactive), wrapped into the box with image counts.
template <class S4>
void mpcd_stream(MpcdView<S4> p, const Box& box, double dt, double mass,
                 const physics::BodyForce& bf, cudaStream_t s);

// The next collision: w->step += 1 and its grid shift (zero without
// grid_shift), on the device.
void mpcd_advance_step(MpcdStepWord* w, uint32_t seed, double cell_size, bool grid_shift,
                       cudaStream_t s);

// Cell of every particle on the grid shifted by w->shift (cached in vel.w),
// then the CSR cell list: counts, their exclusive scan, members (in no fixed
// order within a cell). Cannot overflow.
template <class S4>
void mpcd_build_cells(MpcdView<S4> p, const MpcdEmbedView<S4>& md, const physics::MpcdGrid& grid,
                      const MpcdStepWord* w, const MpcdCellView& c, cudaStream_t s);

struct MpcdCollideArgs {
  const MpcdStepWord* w;  // the collision number: keys axes, thermostat and AT draws
  uint32_t seed;
  double mass, kT;
  double cos_a, sin_a;  // SRD rotation angle
  bool thermostat;      // SRD: Maxwell-Boltzmann cell thermostat
  bool at;              // the MPC-AT rule instead of SRD
};

// The collision of every cell (one fused kernel): momentum and mass as
// order-independent fixed-point sums over its members (and the kinetic
// energy about u_cm with the thermostat, the random momenta for AT), then
// per member (solvent and embedded MD) v = u_cm + factor R(v - u_cm) (SRD)
// or u_cm + sqrt(kT/m_j) xi_j - mean random velocity (AT), in fp64, stored
// in S4.
template <class S4>
void mpcd_collide(MpcdView<S4> p, const MpcdEmbedView<S4>& md, const MpcdCellView& c,
                  const MpcdCollideArgs& a, cudaStream_t s);

// The solvent in cell order (unshifted grid) through the shared radix sort
// and gather (sort_permute.cuh); `scratch` holds mpcd_sort_bytes<S4>(n).
template <class S4>
std::size_t mpcd_sort_bytes(uint32_t n);
template <class S4>
void mpcd_sort(MpcdView<S4> p, const physics::MpcdGrid& grid, unsigned char* scratch,
               cudaStream_t s);

}  // namespace meso::cuda
