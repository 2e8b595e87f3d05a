// Tabulated pair forces on the GPU (GALAMOST's numerical potentials,
// Algorithm 2: a cubic spline in z = r^2, no square root): pair_force.cuh's
// kernel with the table evaluator (table_force.cu) over the shared
// physics::table_pair_force (engine/include/meso/physics/table_force.hpp),
// the CUDA twin of reference/src/md/pair_table.cpp. The spline is evaluated
// in the arithmetic of the storage (fp64 for double, fp32 for mixed and
// single, from an fp32 copy of the coefficients), as the LJ pairs.
//
// A pair closer than its table's r_min is outside the table: the kernel
// records the smallest such (z, table) by atomicMin of a 64-bit key (the
// fp32 bits of z, which order as unsigned integers for z >= 0, over the
// table index) and stops the loop (ctl->abort); the host names the table and
// the distance (the operation's raise_if_stopped), as the reference does
// after its pass.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/device_views.cuh"
#include "md/pair_force.cuh"
#include "meso/physics/body_force.hpp"
#include "meso/physics/table_force.hpp"

namespace meso::cuda {

constexpr unsigned long long kNoTableFault = ~0ull;

template <class P>
using TablePairReal = BuildReal<typename P::S4>;

template <class P>
struct TableForceArgs {
  ParticleView<typename P::S4> p;
  NlistView nl;
  Box box;
  const int32_t* table_of;  // ntypes x ntypes: the table of a type pair, -1 none
  const physics::TableView<TablePairReal<P>>* views;  // one per table, coefficients on the device
  uint32_t ntypes;
  const double* type_mass;
  physics::BodyForce body;
  double dt;
  StepControl* ctl;
  unsigned long long* fault;  // the closest pair below its table (kNoTableFault: none)
  double* partials;           // 2 per block (energy, virial) when sums
  bool fuse;                  // second half-step folded into the kernel (finish_particle)
  bool fuse_base_pred;        // its base v(t + dt/2) is in vel_pred
  uint32_t tpp = 1;           // threads per particle (variant axis tpp)
};

uint32_t table_force_blocks(uint32_t n, uint32_t tpp);

template <class P>
void compute_table_forces(const TableForceArgs<P>& a, bool sums, cudaStream_t s);

}  // namespace meso::cuda
