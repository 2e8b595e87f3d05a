// DPD force kernel: one thread per particle over its full neighbor list (the
// pair-force driver of pair_force.cuh with the DPD evaluator), calling the
// shared evaluator (engine/include/meso/physics/dpd_force.hpp) and the shared
// pair noise (engine/include/meso/physics/pair_noise.hpp). Variant axes: precision (policy
// P), pow (libm | fast), rng (philox | tea), fuse (second velocity-Verlet
// half-step folded into the kernel, Shkurti et al.'s BRAHMS fusion), noise
// (fp64 | fp32 Gaussian transform), gather (split arrays | split arrays with
// the masked traversal: dpd_force_masked.cu | one record per particle:
// dpd_force_record.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/device_views.cuh"
#include "meso/physics/body_force.hpp"
#include "meso/physics/dpd_force.hpp"
#include "meso/physics/pair_noise.hpp"
#include "md/pair_force.cuh"

namespace meso::cuda {

// The pair's unit Gaussian, by the noise axis: fp64 (the Box-Muller of the
// pow axis: libm or fast log/cospi) or fp32 (pair_noise.hpp's fp32 transform
// of the same words; its error is stated there).
template <class BM>
struct NoiseF64 {
  __device__ __forceinline__ static double philox(uint32_t ti, uint32_t tj, uint64_t step,
                                                  uint32_t seed) {
    return physics::pair_gaussian_philox(ti, tj, step, seed, BM{});
  }
  __device__ __forceinline__ static double tea(uint32_t ti, uint32_t si, uint32_t tj, uint32_t sj,
                                               const physics::TeaPairKey& k) {
    return physics::pair_gaussian_tea(ti, si, tj, sj, k, BM{});
  }
};
struct NoiseF32 {
  __device__ __forceinline__ static float philox(uint32_t ti, uint32_t tj, uint64_t step,
                                                 uint32_t seed) {
    return physics::pair_gaussian_philox_f32(ti, tj, step, seed);
  }
  __device__ __forceinline__ static float tea(uint32_t ti, uint32_t si, uint32_t tj, uint32_t sj,
                                              const physics::TeaPairKey& k) {
    return physics::pair_gaussian_tea_f32(ti, si, tj, sj, k);
  }
};

struct DpdForceConfig {
  bool fast_math = false;  // pow=fast: fastpow and fast-log/fast-cos Box-Muller
  bool tea = false;        // rng=tea
  bool fuse = false;       // fuse=on
  bool sums = false;       // energy and virial per block into partials
  bool predicted = false;  // dissipation from vel_pred (Groot-Warren, or fused velocity Verlet)
  bool fp32_noise = false; // noise=fp32 (fp32 storage only)
  bool record = false;     // gather=record: a.rec packed from the arrays, then the record kernel
  bool masked = false;     // gather=masked: pair_force.cuh's masked traversal
  uint32_t tpp = 1;        // gather=record: lanes per particle (1, 2, 4)
};

// gather=record: what every pair of the DPD kernel loads about a neighbour,
// in one aligned record of 8 storage words (32 bytes in fp32 storage: one
// L2 sector, where the split arrays cost a sector each for position,
// velocity and tag): the position, key = tag << 8 | type, the velocity the
// dissipation reads (v, or the prediction), and the TEA signature (0 for
// philox). key and sig are raw bits in a storage word. Packed before every
// force evaluation (pack_dpd_records), so a record never outlives a step.
// Limits: tags below 2^24 and at most 256 types (checked by the operation).
template <class T>
struct alignas(8 * sizeof(T)) DpdRecord {
  T x, y, z, key;
  T vx, vy, vz, sig;
};
template <class S4>
using DpdRecordOf = DpdRecord<decltype(S4{}.x)>;
constexpr uint32_t kRecordMaxTag = 1u << 24;
constexpr uint32_t kRecordMaxTypes = 256;

template <class S4>
struct DpdForceArgs {
  ParticleView<S4> p;
  NlistView nl;
  Box box;
  const physics::DpdPairParams* params;  // ntypes x ntypes
  const double* type_mass;
  uint32_t ntypes;
  physics::BodyForce body;
  double dt;
  double inv_sqrt_dt;
  uint32_t seed;
  const StepControl* ctl;  // step number and TEA key of the step in progress
  double* partials;        // 2 per block (energy, virial) when sums
  bool fuse_base_pred;     // fuse=on with velocity Verlet: v(t + dt/2) is in vel_pred
  DpdRecordOf<S4>* rec = nullptr;  // gather=record: n records
  double shear_rate = 0.0;  // Lees-Edwards (gather=split and masked on full rows): 0 without shear
};

template <class P>
void compute_dpd_forces(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& cfg,
                        cudaStream_t s);
// gather=masked: dpd_force_masked.cu.
template <class P>
void compute_dpd_forces_masked(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& cfg,
                               cudaStream_t s);
// gather=record: pack the records (pack_dpd_records), then the record kernel.
template <class P>
void compute_dpd_forces_record(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& cfg,
                               cudaStream_t s);

// nlist=half (dpd_force_half.cu): the half rows' pairs into h's fixed-point
// sums, then every particle finished from them (pair_force_half.cuh); the
// split traversal, with every other axis of cfg but gather and tpp.
struct HalfForceSums;
template <class P>
void compute_dpd_forces_half(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& cfg,
                             const HalfForceSums& h, cudaStream_t s);

// nlist=cells (dpd_force_cells.cu): the pairs of each particle's half
// stencil of cells (pair_force_cells.cuh: cp) into h, then every particle
// finished as with half rows; tpp from cp, every other axis of cfg but gather.
struct CellPairArgs;
template <class P>
void compute_dpd_forces_cells(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& cfg,
                              const CellPairArgs& cp, const HalfForceSums& h, cudaStream_t s);

// nlist=cluster (dpd_force_cluster.cu): the split evaluator over cluster-pair
// tiles (pair_force_cluster.cuh), with every other axis of cfg but gather
// and tpp.
template <class P>
void compute_dpd_forces_cluster(const DpdForceArgs<typename P::S4>& a, const DpdForceConfig& cfg,
                                cudaStream_t s);

// kForceBlock (the block size of every launch above) and reduce_partials
// (the second stage of the energy/virial sums) are declared in pair_force.cuh.

}  // namespace meso::cuda
