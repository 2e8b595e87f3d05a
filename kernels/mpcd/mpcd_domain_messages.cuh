// The MPCD solvent's migration on the device (mpcd_domain.cu's device
// path, --transport nccl): the record layout shared with the host path, and
// the enqueue functions of the fixed-capacity messages (mpcd_domain_messages.cu).
// Message layout: a header record whose first value is how many records
// follow, then room for `cap` records; the two messages of an axis (towards
// lo, then towards hi) lie back to back.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "domain/domain_storage.cuh"
#include "meso/ops/mpcd.hpp"
#include "mpcd/mpcd_context.cuh"

namespace meso::cuda {

inline constexpr uint32_t kMpcdRecord = MpcdDomainOp::kRecord;
// The migration kernels' block size, and the blocks of n threads.
inline constexpr uint32_t kMpcdMigrationBlock = 256;
namespace mpcd_migration {
inline uint32_t blocks(uint32_t n) { return (n + kMpcdMigrationBlock - 1) / kMpcdMigrationBlock; }
}  // namespace mpcd_migration

template <class S4>
__device__ inline void pack_record(const MpcdView<S4>& p, uint32_t i, double* __restrict__ o) {
  const S4 r = p.pos[i], v = p.vel[i];
  const Image im = p.image[i];
  o[0] = double(r.x), o[1] = double(r.y), o[2] = double(r.z);
  o[3] = double(v.x), o[4] = double(v.y), o[5] = double(v.z);
  o[6] = double(im.x), o[7] = double(im.y), o[8] = double(im.z);
  o[9] = double(type_of(r));
  o[10] = double(p.tag[i]);
}
template <class S4>
__device__ inline void unpack_record(const MpcdView<S4>& p, const double* __restrict__ r, uint32_t i) {
  // The sender's stored values: the conversion back is exact.
  p.pos[i] = make4<S4>(Vec3d{r[0], r[1], r[2]}, r[9]);
  p.vel[i] = make4<S4>(Vec3d{r[3], r[4], r[5]}, 0.0);
  p.image[i] = {int32_t(r[6]), int32_t(r[7]), int32_t(r[8])};
  p.tag[i] = uint32_t(r[10]);
}


// Appends i to list (*count entries so far) where `want`: one atomic a warp.
// Every lane of the warp calls it. Entries from `cap` on are counted, not
// stored (the caller grows the list and selects again).
__device__ __forceinline__ void append(bool want, uint32_t* __restrict__ list, uint32_t* __restrict__ count,
                                       uint32_t i, uint32_t cap = 0xffffffffu) {
  const unsigned mask = __ballot_sync(0xffffffffu, want);
  if (!mask) return;
  const unsigned lane = threadIdx.x & 31u;
  const int leader = __ffs(mask) - 1;
  uint32_t base = 0;
  if (int(lane) == leader) base = atomicAdd(count, uint32_t(__popc(mask)));
  base = __shfl_sync(0xffffffffu, base, leader);
  const uint32_t at = base + __popc(mask & ((1u << lane) - 1u));
  if (want && at < cap) list[at] = i;
}

// The words of one axis of a device migration (counts_, zeroed first).
enum Word : uint32_t {
  kLo,       // leavers towards lo (a larger count than the lists hold says they overflowed)
  kHi,       // towards hi
  kStrays,   // leavers beyond the neighbour they go to
  kHoles,    // holes below the kept count, and
  kMovers,   // stayers at or above it (as many)
  kSentLo,   // the leavers that leave (both 0 when either side overflowed)
  kSentHi,
  kKept,     // the count after they left
  kAxisWords
};
// The words of a whole migration, reported through the host's ring.
enum Acc : uint32_t { kMost, kStrayTotal, kOverflowTotal, kAccWords };

// One axis of a migration on the device, enqueued on st: the leavers of
// slab s selected, settled (none leave if either side exceeds cap: acc
// counts the overflow, faults[0] counts it and any strays), packed into the
// two messages at out, and their holes closed. w: kAxisWords, zeroed here;
// code: n words; list0, list1: cap; holes, movers: 2 cap.
template <class S4>
void mpcd_pack_messages(MpcdView<S4> v, const SlabArgs& s, uint32_t cap, uint8_t* code, uint32_t* list0,
                        uint32_t* list1, uint32_t* holes, uint32_t* movers, uint32_t* w, uint32_t* acc,
                        uint32_t* faults, double* out, cudaStream_t st);
// The leavers of slab s counted into w[kLo], w[kHi] (w zeroed here; code:
// n words), nothing moved.
template <class S4>
void mpcd_count_leavers(MpcdView<S4> v, const SlabArgs& s, uint8_t* code, uint32_t* w, cudaStream_t st);
// The two arrived messages at `in` appended at w[kKept], and *live set to the new count.
template <class S4>
void mpcd_unpack_messages(MpcdView<S4> v, const double* in, const uint32_t* w, uint32_t cap, uint32_t* live,
                          cudaStream_t st);

}  // namespace meso::cuda
