// The device side of domain decomposition (Tang & Karniadakis, CPC 2014,
// Alg. 6; HOOMD-blue's CommunicatorGPU): border selection by a flag per
// particle and a prefix-sum compaction of the flagged indices (CUB), and the
// packing and unpacking of the records a Communicator moves between ranks
// (meso/ops/domain_storage.hpp: kMigrateRecord, kGhostRecord and
// kUpdateRecord doubles). The operation that drives them is
// domain_storage_op.cu.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <memory_resource>

#include "core/device_views.cuh"
#include "core/pinned_memory.cuh"
#include "meso/cuda/check.hpp"
#include "meso/cuda/device_buffer.hpp"
#include "meso/ops/domain_storage.hpp"

namespace meso::cuda {

// One axis of the owned region (meso::DomainSlab, on the device).
struct SlabArgs {
  int axis;
  double lo, hi, length, width;
};

// Per particle i < n, a code: 0 stays, 1 leaves towards lo, 2 towards hi
// (the nearer side by the periodic offset, as the reference decides).
template <class S4>
void classify_leavers(const S4* pos, uint32_t n, const SlabArgs& s, uint8_t* code, cudaStream_t st);

// Per stored particle i < n_all, bit 0: within the ghost width of lo, bit 1:
// of hi; with one_neighbour (two ranks along the axis) either sets bit 0.
template <class S4>
void classify_ghosts(const S4* pos, uint32_t n_all, const SlabArgs& s, bool one_neighbour, uint8_t* code,
                     cudaStream_t st);

// Which codes a selection takes: (code & mask) == want, or != want with negate.
struct CodeMatch {
  uint8_t mask, want;
  bool negate;
};

// CUB scratch for a selection over up to n items.
std::size_t select_temp_bytes(uint32_t n);
// The indices i in [begin, end), ascending, whose code matches, into out;
// their number into *count (device). Stable: a prefix-sum compaction.
void select_indices(const uint8_t* code, uint32_t begin, uint32_t end, CodeMatch m, uint32_t* out,
                    uint32_t* count, void* temp, std::size_t temp_bytes, cudaStream_t st);

// At least n elements in b (the contents are lost when it grows, by a
// quarter more than asked, so that growth is rare).
template <class T>
void grow_buffer(DeviceBuffer<T>& b, std::size_t n) {
  if (b.size() < n) {
    DeviceBuffer<T> bigger(n + n / 4 + 256);
    b.swap(bigger);
  }
}

// The scratch of selections by code over up to n particles: the codes,
// CUB's scratch and two index lists.
inline void reserve_selection(uint32_t n, DeviceBuffer<uint8_t>& code, DeviceBuffer<unsigned char>& temp,
                              DeviceBuffer<uint32_t>& list0, DeviceBuffer<uint32_t>& list1) {
  if (code.size() < n) {
    grow_buffer(code, n);
    const std::size_t t = select_temp_bytes(uint32_t(code.size()));
    if (temp.size() < t) temp.resize(t > 0 ? t : 1);
  }
  grow_buffer(list0, n);
  grow_buffer(list1, n);
}

// Records of the particles list[0, m) into out (m x kMigrateRecord doubles):
// r, v, the prediction (v without one), image, type, tag.
template <class S4>
void pack_migrants(ParticleView<S4> p, const uint32_t* list, uint32_t m, double* out, cudaStream_t st);
// Records of list[0, m) with `size` doubles each: r and the velocity the
// forces read (vel_pred with from_pred), then type and tag when size is
// kGhostRecord.
template <class S4>
void pack_ghosts(ParticleView<S4> p, const uint32_t* list, uint32_t m, uint32_t size, bool from_pred, double* out,
                 cudaStream_t st);

// Moves particle from[k] into slot to[k], k < *count <= bound (closing the
// holes leavers left: every array a particle has); the count is read on the
// device, so no wait for it.
template <class S4>
void move_slots(ParticleView<S4> p, const uint32_t* from, const uint32_t* to, const uint32_t* count, uint32_t bound,
                cudaStream_t st);

// TEA: the signature of a particle is keyed by its tag and the velocity the
// forces read; unpacking writes it for the particles it stores (whitening
// of the run's seed; tea false: no signatures).
struct SignatureArgs {
  bool tea;
  bool from_pred;  // the forces read vel_pred
  uint32_t whitening;
};

// Ghost updates of fp32 storage (float4): the position and the velocity
// the forces read as six floats a particle, packed into the bytes of three
// doubles (DomainStorageOp::update_record), and their unpacking into slots
// [at, at + m). Exact: the floats are the stored values.
void pack_updates_f32(ParticleView<float4> p, const uint32_t* list, uint32_t m, bool from_pred, float* out,
                      cudaStream_t st);
void unpack_updates_f32(ParticleView<float4> p, const float* in, uint32_t m, uint32_t at, SignatureArgs sg,
                        cudaStream_t st);

// Migration records in[0, m) stored as local particles at slots [at, at + m).
template <class S4>
void unpack_migrants(ParticleView<S4> p, const double* in, uint32_t m, uint32_t at, SignatureArgs sg,
                     cudaStream_t st);
// Ghost (size kGhostRecord) or update (kUpdateRecord) records into slots
// [at, at + m): r and velocity (vel and vel_pred alike: the velocity the
// owner's forces read), type, tag, zero image and force for a new ghost.
template <class S4>
void unpack_ghosts(ParticleView<S4> p, const double* in, uint32_t m, uint32_t size, uint32_t at, SignatureArgs sg,
                   cudaStream_t st);

// An update message of list[0, m) (update_record() doubles a particle):
// six floats a particle for fp32 storage, six doubles otherwise; and its
// unpacking into slots [at, at + m).
template <class S4>
void pack_update_records(ParticleView<S4> p, const uint32_t* list, uint32_t m, bool from_pred, double* out,
                         cudaStream_t st) {
  if constexpr (std::is_same_v<S4, float4>)
    pack_updates_f32(p, list, m, from_pred, reinterpret_cast<float*>(out), st);
  else
    pack_ghosts<S4>(p, list, m, DomainStorageOp::kUpdateRecord, from_pred, out, st);
}
template <class S4>
void unpack_update_records(ParticleView<S4> p, const double* in, uint32_t m, uint32_t at, SignatureArgs sg,
                           cudaStream_t st) {
  if constexpr (std::is_same_v<S4, float4>)
    unpack_updates_f32(p, reinterpret_cast<const float*>(in), m, at, sg, st);
  else
    unpack_ghosts<S4>(p, in, m, DomainStorageOp::kUpdateRecord, at, sg, st);
}

}  // namespace meso::cuda
