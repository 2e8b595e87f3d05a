// The MPCD solvent on the device (HOOMD-blue's mpcd::ParticleData and
// CellList; Howard, Panagiotopoulos & Nikoubashman, CPC 230, 10 (2018)):
// 4-vectors in the storage precision of the precision axis, as HOOMD-MPCD
// stores them,
//
//   pos   x, y, z, type             (fp32 in mixed/single: relative to the
//                                    box centre, which is the origin)
//   vel   vx, vy, vz, cell index    (the cell of the last collision, cached
//                                    by the cell list for the collide kernel)
//   tag, image
//
// and one scratch pool that holds, in turn, the cell list and cell
// properties of a collision and the keys and gather buffer of a sort. They
// are never live together: the collision rebuilds its cell list from the
// current positions, and the sort runs between streaming and the collision.
// Sharing the pool keeps the solvent within its memory budget (about 72
// bytes a particle in mixed at rho = 10 with sorting, 68 without).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "device_views.cuh"
#include "meso/cuda/device_buffer.hpp"
#include "meso/mpcd.hpp"

namespace meso::cuda {

template <class S4>
struct MpcdView {
  S4* pos;  // x, y, z, type
  S4* vel;  // vx, vy, vz, cell index (exact in fp32 below 2^24 cells)
  uint32_t* tag;
  Image* image;
  uint32_t n;
};

// The cell list of one collision and the properties derived from it: the
// members of cell c are members[c * cap .. c * cap + count[c]) in ascending
// particle index; props[2c] = {u_cm, factor}, props[2c + 1] = {rotation axis
// (SRD) or the cell's mean AT noise, 0}. overflow: the largest count seen
// beyond cap (0: none); the kernels after the cell list return when set.
struct MpcdCellView {
  uint32_t* count;
  uint32_t* members;
  Double4* props;
  uint32_t* overflow;
  uint32_t ncells;
  uint32_t cap;
};

// fp32 storage: a wrapped fp64 coordinate just below lo + L can round up to
// lo + L (and just above lo to below lo when lo is not a float). Folds the
// stored value once more so that the stored position stays in [lo, lo + L),
// as the cell binning and MpcdSystem::validate require.
__host__ __device__ inline void fold_stored1(float& x, int32_t& im, double lo, double len) {
  if (double(x) >= lo + len) {
    x = float(double(x) - len);
    ++im;
  } else if (double(x) < lo) {
    x = float(double(x) + len);
    --im;
  }
}
template <class S4>
__host__ __device__ inline void fold_stored(S4& r, Image& img, const Box& box) {
  if constexpr (sizeof(r.x) == 4) {
    const Vec3d lo = box.lo(), L = box.lengths();
    fold_stored1(r.x, img.x, lo.x, L.x);
    fold_stored1(r.y, img.y, lo.y, L.y);
    fold_stored1(r.z, img.z, lo.z, L.z);
  }
}

template <class S4>
class CudaMpcd {
 public:
  CudaMpcd() = default;
  ~CudaMpcd();
  CudaMpcd(const CudaMpcd&) = delete;
  CudaMpcd& operator=(const CudaMpcd&) = delete;

  // Copies the (validated) solvent in; refuses grids whose cell index the
  // storage cannot hold exactly (fp32: 2^24 cells) with an InputError.
  void load(const MpcdSystem& sys, cudaStream_t s);
  // The solvent in double precision, in tag order (waits for the stream).
  void get(MpcdParticles& out, cudaStream_t s) const;
  std::size_t bytes() const;

  MpcdSystem sys;  // box and parameters; its particles are cleared once loaded
  physics::MpcdGrid grid{};
  uint32_t n = 0;
  bool loaded = false;
  uint32_t cap = 0;  // cell-list capacity, grown on overflow
  // The pool holds the cell list of the last collision (false after a load
  // or a sort, which reuse the pool).
  bool cells_valid = false;

  DeviceBuffer<S4> pos, vel;
  DeviceBuffer<uint32_t> tag;
  DeviceBuffer<Image> image;
  DeviceBuffer<uint32_t> overflow;  // one word
  uint32_t* h_overflow = nullptr;   // its pinned mirror

  MpcdView<S4> view() { return {pos.data(), vel.data(), tag.data(), image.data(), n}; }
  // The cell list at the current cap, laid out at the start of the pool
  // (grown to fit; the previous contents are lost).
  MpcdCellView cells();
  static std::size_t cells_bytes(uint32_t ncells, uint32_t cap);
  // At least `bytes` of scratch (grown to fit; the contents are lost).
  unsigned char* scratch(std::size_t bytes);
  std::size_t scratch_bytes() const { return pool_.size(); }

 private:
  DeviceBuffer<unsigned char> pool_;
};

// Offsets in the pool are rounded up to 256 bytes (cudaMalloc's alignment).
inline std::size_t align256(std::size_t b) { return (b + 255) / 256 * 256; }

}  // namespace meso::cuda
