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

// Cell of every particle on the grid shifted by `shift` (cached in vel.w),
// atomic insertion into the ncells x cap rows, rows sorted ascending. An
// overflow records the largest count in *c.overflow and writes nothing out
// of bounds.
template <class S4>
void mpcd_build_cells(MpcdView<S4> p, const physics::MpcdGrid& grid, const Vec3d& shift,
                      const MpcdCellView& c, cudaStream_t s);

struct MpcdCollideArgs {
  uint64_t step;  // the collision number: keys axes, thermostat and AT draws
  uint32_t seed;
  double mass, kT;
  double cos_a, sin_a;  // SRD rotation angle
  double at_scale;      // AT: sqrt(kT / m), the Maxwellian width per component
  bool thermostat;      // SRD: Maxwell-Boltzmann cell thermostat
  bool at;              // the MPC-AT rule instead of SRD
};

// Per cell: momentum and mass summed over its members in a fixed order (and
// the kinetic energy about u_cm with the thermostat, the AT draws for AT),
// then u_cm and the rotation axis and thermostat factor (SRD) or the mean
// AT draw, into c.props.
template <class S4>
void mpcd_cell_properties(MpcdView<S4> p, const MpcdCellView& c, const MpcdCollideArgs& a,
                          cudaStream_t s);
// Per particle: v = u_cm + factor R(v - u_cm) (SRD) or
// u_cm + sqrt(kT/m) (xi - mean xi) (AT), in fp64, stored in S4.
template <class S4>
void mpcd_collide_velocities(MpcdView<S4> p, const MpcdCellView& c, const MpcdCollideArgs& a,
                             cudaStream_t s);

// The solvent in cell order (unshifted grid) through the shared radix sort
// and gather (sort_permute.cuh); `scratch` holds mpcd_sort_bytes<S4>(n).
template <class S4>
std::size_t mpcd_sort_bytes(uint32_t n);
template <class S4>
void mpcd_sort(MpcdView<S4> p, const physics::MpcdGrid& grid, unsigned char* scratch,
               cudaStream_t s);

}  // namespace meso::cuda
