// Particle reordering (the `reorder` axis, applied every `sort=N` steps at a
// neighbor-list rebuild): space-filling-curve keys, a radix sort, and a
// gather of every per-particle array. Tags travel with the particles, so
// results in tag order are unchanged by any reordering.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/device_views.cuh"
#include "meso/run/variant.hpp"

namespace meso::cuda {

struct ReorderScratch {
  unsigned long long* keys_in;
  unsigned long long* keys_out;
  uint32_t* vals_in;
  uint32_t* perm;  // sorted values: new slot k takes old particle perm[k]
  void* temp;
  size_t temp_bytes;
  void* gather;  // n * max(sizeof(S4), sizeof(Image)) bytes
};
size_t reorder_temp_bytes(uint32_t n);

// Computes keys, sorts and permutes pos, vel, force, vel_pred, tag, image,
// signature and the orientational arrays of rot (those that exist). Resets
// ctl->list.steps_since_sort.
template <class S4>
void reorder_particles(ReorderKind kind, ParticleView<S4> p, RotationalView<S4> rot, const CellGrid& grid,
                       const ReorderScratch& sc, StepControl* ctl, cudaStream_t s);

}  // namespace meso::cuda
