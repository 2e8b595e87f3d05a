// MD-SCF density, density=scatter: one thread per particle adds its 8
// cloud-in-cell weights to the grid with fp64 atomicAdd (native on sm_90),
// the straightforward GPU form of the reference's scatter
// (reference/src/mdscf/mdscf_force.cpp, step 1). The order in which the atomics
// land is not fixed, so phi agrees with gather and the reference to
// round-off but is not bitwise reproducible from run to run; gather
// (mdscf_density_gather.cu) is.
#include <cstddef>

#include "mdscf/mdscf_force.cuh"
#include "meso/cuda/check.hpp"

namespace meso::cuda {
namespace {

__global__ void scatter_zero_kernel(MdscfGate gate, double* __restrict__ phi, uint64_t total) {
  if (!gate.due()) return;
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < total) phi[t] = 0.0;
}

template <class S4>
__global__ void scatter_density_kernel(MdscfGate gate, MdscfParticles<S4> p, MdscfGrid grid,
                                       double* __restrict__ phi) {
  if (!gate.due()) return;
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  const S4 r = ldg4(p.pos + i);
  const physics::CicStencil s = physics::cic_stencil(xyz(r), gate.state->lo, grid.h, grid.g);
  double* f = phi + std::size_t(p.slot_of_type[type_of(r)]) * grid.nv();
#pragma unroll
  for (int c = 0; c < 8; ++c) atomicAdd(f + s.vertex[c], s.weight[c] * grid.per_particle);
}

}  // namespace

template <class S4>
void mdscf_density_scatter(const MdscfParticles<S4>& p, const MdscfGrid& grid, double* phi, uint32_t na,
                           const MdscfGate& gate, cudaStream_t s) {
  const uint64_t total = uint64_t(na) * grid.nv();
  scatter_zero_kernel<<<uint32_t((total + kMdscfBlock - 1) / kMdscfBlock), kMdscfBlock, 0, s>>>(gate, phi,
                                                                                                total);
  MESO_CUDA_CHECK(cudaGetLastError());
  if (p.n == 0) return;
  scatter_density_kernel<S4><<<(p.n + kMdscfBlock - 1) / kMdscfBlock, kMdscfBlock, 0, s>>>(gate, p, grid, phi);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void mdscf_density_scatter<Double4>(const MdscfParticles<Double4>&, const MdscfGrid&, double*,
                                             uint32_t, const MdscfGate&, cudaStream_t);
template void mdscf_density_scatter<float4>(const MdscfParticles<float4>&, const MdscfGrid&, double*,
                                            uint32_t, const MdscfGate&, cudaStream_t);

}  // namespace meso::cuda
