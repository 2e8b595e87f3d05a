// CudaMpcd: loading the solvent, copying it out in tag order, and the
// scratch pool shared by the collision and the sort (mpcd_context.cuh).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "meso/cuda/check.hpp"
#include "meso/error.hpp"
#include "mpcd_context.cuh"
#include "tag_order.cuh"

namespace meso::cuda {

template <class S4>
CudaMpcd<S4>::~CudaMpcd() {
  if (h_overflow) cudaFreeHost(h_overflow);
}

template <class S4>
void CudaMpcd<S4>::load(const MpcdSystem& s, cudaStream_t stream) {
  s.validate();
  const physics::MpcdGrid g = s.grid();
  const uint64_t nc = uint64_t(g.nx) * uint64_t(g.ny) * uint64_t(g.nz);
  constexpr bool fp32 = sizeof(S4{}.x) == 4;
  if (fp32 && nc >= (1ull << 24))
    throw_input_error("MPCD grid of ", g.nx, " x ", g.ny, " x ", g.nz, " = ", nc,
                      " cells is too large for fp32 storage (precision=mixed or single): the cell "
                      "index cached in the velocity's w is exact below 2^24 cells; use "
                      "precision=double");
  if (nc >= (1ull << 32))
    throw_input_error("MPCD grid of ", nc, " cells is too large: cell indices are 32-bit");
  if (s.particles.size() >= (1ull << 32))
    throw_input_error("MPCD solvent of ", s.particles.size(), " particles is too large");

  // A stream may still be running kernels on the arrays being replaced.
  MESO_CUDA_CHECK(cudaStreamSynchronize(stream));
  n = static_cast<uint32_t>(s.particles.size());
  const auto& src = s.particles;
  std::vector<S4> hp(n), hv(n);
  std::vector<Image> hi(src.image);
  for (uint32_t i = 0; i < n; ++i) {
    hp[i] = make4<S4>(src.position[i], double(src.type[i]));
    fold_stored(hp[i], hi[i], s.box);
    hv[i] = make4<S4>(src.velocity[i], 0.0);
  }
  pos.resize(n);
  vel.resize(n);
  tag.resize(n);
  image.resize(n);
  overflow.resize(1);
  // On the operations' (non-blocking) stream, waited for: a plain cudaMemcpy
  // from pageable memory may return before its DMA lands, and the legacy
  // stream does not order it before that stream's kernels.
  if (n > 0) {
    MESO_CUDA_CHECK(cudaMemcpyAsync(pos.data(), hp.data(), pos.bytes(), cudaMemcpyHostToDevice, stream));
    MESO_CUDA_CHECK(cudaMemcpyAsync(vel.data(), hv.data(), vel.bytes(), cudaMemcpyHostToDevice, stream));
    MESO_CUDA_CHECK(cudaMemcpyAsync(tag.data(), src.tag.data(), tag.bytes(), cudaMemcpyHostToDevice,
                                    stream));
    MESO_CUDA_CHECK(cudaMemcpyAsync(image.data(), hi.data(), image.bytes(), cudaMemcpyHostToDevice,
                                    stream));
  }
  MESO_CUDA_CHECK(cudaMemsetAsync(overflow.data(), 0, sizeof(uint32_t), stream));
  MESO_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (!h_overflow) MESO_CUDA_CHECK(cudaMallocHost(&h_overflow, sizeof(uint32_t)));
  *h_overflow = 0;

  // The first capacity as the MD cell list's: mean + 4 sigma of a Poisson
  // occupancy + 4, in rows of 8 words; an overflow grows it (never drops).
  const double mean = nc > 0 ? double(n) / double(nc) : 0.0;
  cap = static_cast<uint32_t>(mean + 4.0 * std::sqrt(mean) + 4.0);
  cap = (cap + 7) / 8 * 8;
  grid = g;
  sys.box = s.box;
  sys.params = s.params;
  sys.particles = {};
  cells_valid = false;
  loaded = true;
}

template <class S4>
void CudaMpcd<S4>::get(MpcdParticles& out, cudaStream_t stream) const {
  MESO_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<S4> hp(n), hv(n);
  std::vector<uint32_t> ht(n);
  std::vector<Image> hi(n);
  if (n > 0) {
    MESO_CUDA_CHECK(cudaMemcpy(hp.data(), pos.data(), pos.bytes(), cudaMemcpyDeviceToHost));
    MESO_CUDA_CHECK(cudaMemcpy(hv.data(), vel.data(), vel.bytes(), cudaMemcpyDeviceToHost));
    MESO_CUDA_CHECK(cudaMemcpy(ht.data(), tag.data(), tag.bytes(), cudaMemcpyDeviceToHost));
    MESO_CUDA_CHECK(cudaMemcpy(hi.data(), image.data(), image.bytes(), cudaMemcpyDeviceToHost));
  }
  const std::vector<uint32_t> by_tag = tag_order(ht);
  out.resize(n);
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t i = by_tag[k];
    out.position[k] = xyz(hp[i]);
    out.velocity[k] = xyz(hv[i]);
    out.type[k] = type_of(hp[i]);
    out.tag[k] = ht[i];
    out.image[k] = hi[i];
  }
}

template <class S4>
std::size_t CudaMpcd<S4>::bytes() const {
  return pos.bytes() + vel.bytes() + tag.bytes() + image.bytes() + overflow.bytes() + pool_.bytes();
}

template <class S4>
std::size_t CudaMpcd<S4>::cells_bytes(uint32_t ncells, uint32_t cap) {
  return align256(std::size_t(ncells) * sizeof(uint32_t)) +
         align256(std::size_t(ncells) * cap * sizeof(uint32_t)) +
         align256(std::size_t(ncells) * 2 * sizeof(Double4));
}

template <class S4>
MpcdCellView CudaMpcd<S4>::cells() {
  const uint32_t nc = grid.ncells();
  unsigned char* p = scratch(cells_bytes(nc, cap));
  MpcdCellView v;
  v.count = reinterpret_cast<uint32_t*>(p);
  p += align256(std::size_t(nc) * sizeof(uint32_t));
  v.members = reinterpret_cast<uint32_t*>(p);
  p += align256(std::size_t(nc) * cap * sizeof(uint32_t));
  v.props = reinterpret_cast<Double4*>(p);
  v.overflow = overflow.data();
  v.ncells = nc;
  v.cap = cap;
  return v;
}

template <class S4>
unsigned char* CudaMpcd<S4>::scratch(std::size_t bytes) {
  if (pool_.size() < bytes) pool_.resize(bytes);
  return pool_.data();
}

template class CudaMpcd<Double4>;
template class CudaMpcd<float4>;

}  // namespace meso::cuda
