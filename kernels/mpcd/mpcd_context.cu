// CudaMpcd: loading the solvent, copying it out in tag order, and the
// scratch pool shared by the collision and the sort (mpcd_context.cuh).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "meso/cuda/check.hpp"
#include "meso/core/error.hpp"
#include "mpcd/mpcd_context.cuh"
#include "core/tag_order.cuh"

namespace meso::cuda {

template <class S4>
void CudaMpcd<S4>::load(const MpcdSystem& s, cudaStream_t stream) {
  s.validate();
  const physics::MpcdGrid g = s.grid();
  const uint64_t nc = uint64_t(g.nx) * uint64_t(g.ny) * uint64_t(g.nz);
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
  step_word.resize(1);
  MESO_CUDA_CHECK(cudaMemsetAsync(step_word.data(), 0, sizeof(MpcdStepWord), stream));
  live.resize(2);
  MESO_CUDA_CHECK(cudaMemsetAsync(live.data(), 0, live.bytes(), stream));
  count_on_device = false;
  word_step = 0;
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
  // From pageable memory, staged before the call returns; ordered before the sync below.
  MESO_CUDA_CHECK(cudaMemcpyAsync(live.data(), &n, sizeof n, cudaMemcpyHostToDevice, stream));
  MESO_CUDA_CHECK(cudaStreamSynchronize(stream));
  grid = g;
  scan_bytes = mpcd_scan_temp_bytes(g.ncells());
  scan_cells_ = g.ncells();
  sys.box = s.box;
  sys.params = s.params;
  sys.particles = {};
  cells_valid = false;
  loaded = true;
  invalidate_graphs();
}

template <class S4>
uint32_t CudaMpcd<S4>::count(cudaStream_t stream) const {
  MESO_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (!count_on_device) return n;
  uint32_t w[2] = {0, 0};
  MESO_CUDA_CHECK(cudaMemcpy(w, live.data(), sizeof w, cudaMemcpyDeviceToHost));
  // The migration's own report names a fault first (MpiCommunicator); this
  // stops a run that ends before that report is read.
  if (w[1] != 0)
    throw_input_error("MPCD: ", w[1], " solvent migration(s) on this rank left particles on the wrong rank (a ",
                      "particle moved more than one domain, or more left than a message holds): the solvent ",
                      "is no longer the one-rank solvent");
  if (w[0] > n) throw std::logic_error("cuda mpcd: the device's solvent count exceeds its bound");
  return w[0];
}

template <class S4>
void CudaMpcd<S4>::get(MpcdParticles& out, cudaStream_t stream) const {
  const uint32_t n = count(stream);  // the bound n of the member may exceed it
  copy_out_by_tag(pos, vel, tag, image, n, out);
}

template <class S4>
std::size_t CudaMpcd<S4>::bytes() const {
  return pos.bytes() + vel.bytes() + tag.bytes() + image.bytes() + step_word.bytes() + live.bytes() + pool_.bytes();
}

template <class S4>
void CudaMpcd<S4>::reserve(uint32_t count, cudaStream_t s) {
  if (count <= capacity()) return;
  // A sixteenth to spare: a rank's solvent grows and shrinks by far less
  // from one migration to the next.
  const std::size_t cap = std::size_t(count) + count / 16 + 256;
  auto grow = [&](auto& buf) {
    std::remove_reference_t<decltype(buf)> bigger(cap);
    if (n > 0)
      MESO_CUDA_CHECK(cudaMemcpyAsync(bigger.data(), buf.data(), std::size_t(n) * sizeof(buf.data()[0]),
                                      cudaMemcpyDeviceToDevice, s));
    MESO_CUDA_CHECK(cudaStreamSynchronize(s));  // the old buffer is freed by the swap
    buf.swap(bigger);
  };
  grow(pos);
  grow(vel);
  grow(tag);
  grow(image);
  cells_valid = false;
  invalidate_graphs();
}

template <class S4>
std::size_t CudaMpcd<S4>::scan_bytes_for(uint32_t ncells) {
  if (ncells != scan_cells_) {
    scan_bytes = mpcd_scan_temp_bytes(ncells);
    scan_cells_ = ncells;
  }
  return scan_bytes;
}

// Pool layout of the cell list: count, start (ncells words each), cell,
// slot, members (`members` words each: n + n_md, or a captured collision's
// capacity), the scan's scratch.
template <class S4>
std::size_t CudaMpcd<S4>::cells_bytes(uint32_t nc, uint32_t members) {
  const std::size_t nm = members;
  return 2 * align256(std::size_t(nc) * sizeof(uint32_t)) + 3 * align256(nm * sizeof(uint32_t)) +
         align256(scan_bytes_for(nc));
}

template <class S4>
MpcdCellView CudaMpcd<S4>::cells(uint32_t nc, uint32_t members) {
  unsigned char* p = scratch(cells_bytes(nc, members));
  auto take = [&p](std::size_t bytes) {
    unsigned char* q = p;
    p += align256(bytes);
    return q;
  };
  MpcdCellView v;
  v.count = reinterpret_cast<uint32_t*>(take(std::size_t(nc) * sizeof(uint32_t)));
  v.start = reinterpret_cast<uint32_t*>(take(std::size_t(nc) * sizeof(uint32_t)));
  const std::size_t nm = members;
  v.cell = reinterpret_cast<uint32_t*>(take(nm * sizeof(uint32_t)));
  v.slot = reinterpret_cast<uint32_t*>(take(nm * sizeof(uint32_t)));
  v.members = reinterpret_cast<uint32_t*>(take(nm * sizeof(uint32_t)));
  v.scan_temp_bytes = scan_bytes_for(nc);
  v.scan_temp = take(v.scan_temp_bytes);
  v.ncells = nc;
  return v;
}

template <class S4>
unsigned char* CudaMpcd<S4>::scratch(std::size_t bytes) {
  // A 32nd more than asked: on several ranks the solvent's size changes
  // every collision (by about 0.1% at 1.25M particles a rank), and each new
  // largest size would otherwise reallocate (cudaFree waits for the whole
  // device).
  if (pool_.size() < bytes) {
    pool_.resize(bytes + bytes / 32);
    invalidate_graphs();
  }
  return pool_.data();
}

template class CudaMpcd<Double4>;
template class CudaMpcd<float4>;

}  // namespace meso::cuda
