// The MPCD solvent on the device (HOOMD-blue's mpcd::ParticleData and
// CellList; Howard, Panagiotopoulos & Nikoubashman, CPC 230, 10 (2018)):
// 4-vectors in the storage precision of the precision axis, as HOOMD-MPCD
// stores them,
//
//   pos   x, y, z, type             (fp32 in mixed/single: relative to the
//                                    box centre, which is the origin)
//   vel   vx, vy, vz, unused        (HOOMD caches the cell index here; the
//                                    CSR cell list keeps it in a compact
//                                    array instead, which moves 4 bytes a
//                                    particle rather than a dirtied 16-byte
//                                    vector)
//   tag, image
//
// and one scratch pool that holds, in turn, the cell list and cell
// collision (12 bytes a particle) and the keys
// and gather buffer of a sort. They
// are never live together: the collision rebuilds its cell list from the
// current positions, and the sort runs between streaming and the collision.
// Sharing the pool keeps the solvent within its memory budget (about 72
// bytes a particle in mixed at rho = 10 with sorting, 52 without).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "core/device_views.cuh"
#include "meso/cuda/device_buffer.hpp"
#include "meso/core/mpcd.hpp"

namespace meso::cuda {

// n: the particles, or (several ranks, --transport nccl) a bound on them,
// with the count itself on the device at *live: a migration there moves
// particles in and out without the host learning how many
// (CudaMpcd::count_on_device). Kernels over particles launch over n and
// stop at solvent_count().
template <class S4>
struct MpcdView {
  S4* pos;  // x, y, z, type
  S4* vel;  // vx, vy, vz, unused
  uint32_t* tag;
  Image* image;
  uint32_t n;
  const uint32_t* live = nullptr;
};
template <class S4>
__device__ __forceinline__ uint32_t solvent_count(const MpcdView<S4>& p) {
  return p.live ? *p.live : p.n;
}

// The collision number and its grid shift, on the device: the collision's
// kernels read them from here, so that one captured graph serves every
// collision (mpcd_advance_step advances them at the start of each).
struct MpcdStepWord {
  unsigned long long step;
  double shift[3];
};

// The MD particles that join a collision (solute coupling, HOOMD-blue's
// embedded group): the CUDA context's MD arrays (pos.w = type), masses per
// type, the embed_types mask; members n_solvent + i of the cell list are MD
// particle i (cell kMpcdNoCell when not of the embedded types). n = 0: no
// solute.
inline constexpr uint32_t kMpcdNoCell = 0xffffffffu;
template <class S4>
struct MpcdEmbedView {
  const S4* pos = nullptr;
  S4* vel = nullptr;
  const uint32_t* tag = nullptr;
  const double* type_mass = nullptr;
  uint32_t n = 0;
  uint32_t types = 0;
};

// The cell list of one collision (CSR, mpcd_cell_list.cu): the members of
// cell c are members[start[c] .. start[c] + count[c]) in no fixed order;
// for member j (solvent particles, then embedded MD particles) cell[j] is
// its cell and slot[j] its place in it. scan_temp: CUB's scratch for the
// scan.
struct MpcdCellView {
  uint32_t* count;
  uint32_t* start;
  uint32_t* cell;
  uint32_t* slot;
  uint32_t* members;
  void* scan_temp;
  std::size_t scan_temp_bytes;
  uint32_t ncells;
};

// CUB's scratch for the exclusive scan of ncells counts.
std::size_t mpcd_scan_temp_bytes(uint32_t ncells);

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
  // `graph_epoch`: the context's (CudaContext::invalidate_graphs). A load,
  // and arrays or a pool that move, advance it, so that every captured graph
  // holding their pointers (the collision's, the step's) recaptures.
  explicit CudaMpcd(uint64_t* graph_epoch) : graph_epoch_(graph_epoch) {}
  CudaMpcd(const CudaMpcd&) = delete;
  CudaMpcd& operator=(const CudaMpcd&) = delete;

  // Copies the (validated) solvent in; refuses grids of 2^32 cells or more
  // (32-bit cell indices) with an InputError.
  void load(const MpcdSystem& sys, cudaStream_t s);
  // The solvent in double precision, in tag order (waits for the stream).
  void get(MpcdParticles& out, cudaStream_t s) const;
  // The number of particles (waits for the stream when it is on the device).
  uint32_t count(cudaStream_t s) const;
  std::size_t bytes() const;

  MpcdSystem sys;  // box and parameters; its particles are cleared once loaded
  physics::MpcdGrid grid{};
  uint32_t n = 0;  // the particles, or a bound on them while count_on_device
  bool loaded = false;
  // Several ranks through device links: the count is live[0], n bounds it
  // (the solvent's "mpcd/domain" sets this, and keeps the bound).
  bool count_on_device = false;
  // live[1] counts the migrations that left a particle on the wrong rank.
  DeviceBuffer<uint32_t> live;  // two words, set by load
  std::size_t scan_bytes = 0;  // CUB's scratch for the cell list's scan
  // MD particles the cell list makes room for (the collide operation sets it
  // before each collision; 0 without solute).
  uint32_t n_md = 0;
  // The pool holds the cell list of the last collision (false after a load
  // or a sort, which reuse the pool).
  bool cells_valid = false;
  std::size_t scan_bytes_for(uint32_t ncells);  // CUB's scratch for the scan of ncells counts

  DeviceBuffer<S4> pos, vel;
  DeviceBuffer<uint32_t> tag;
  DeviceBuffer<Image> image;
  DeviceBuffer<MpcdStepWord> step_word;  // one
  uint64_t word_step = 0;  // the collision number step_word holds once the stream gets there
  uint64_t graph_collisions = 0;  // several ranks: collisions run as graph launches (MpcdRankCollision)

  MpcdView<S4> view() {
    return {pos.data(), vel.data(), tag.data(), image.data(), n, count_on_device ? live.data() : nullptr};
  }
  // Room for `count` particles (several ranks: migration changes n), the
  // first n kept; capacity grows by a quarter beyond the request, so that
  // the arrays move rarely.
  void reserve(uint32_t count, cudaStream_t s);
  uint32_t capacity() const { return static_cast<uint32_t>(pos.size()); }
  // The cell list, laid out at the start of the pool (grown to fit; the
  // previous contents are lost): over the whole grid, or (several ranks)
  // over the `ncells` cells a rank's domain touches.
  MpcdCellView cells() { return cells(grid.ncells()); }
  MpcdCellView cells(uint32_t ncells) { return cells(ncells, n + n_md); }
  // The same with room for `members` members (a captured collision's:
  // the solvent's capacity, which moves less often than its bound).
  MpcdCellView cells(uint32_t ncells, uint32_t members);
  std::size_t cells_bytes(uint32_t ncells, uint32_t members);
  // At least `bytes` of scratch (grown to fit; the contents are lost).
  unsigned char* scratch(std::size_t bytes);
  std::size_t scratch_bytes() const { return pool_.size(); }

 private:
  DeviceBuffer<unsigned char> pool_;
  uint32_t scan_cells_ = 0;  // the cell count scan_bytes was queried for
  uint64_t* graph_epoch_;
  void invalidate_graphs() { ++*graph_epoch_; }
};

// Offsets in the pool are rounded up to 256 bytes (cudaMalloc's alignment).
inline std::size_t align256(std::size_t b) { return (b + 255) / 256 * 256; }

}  // namespace meso::cuda
