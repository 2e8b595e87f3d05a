// The decomposed MPCD collision's state between collisions (mpcd_shared_cells.cuh).
#include <algorithm>

#include "mpcd/mpcd_shared_cells.cuh"

namespace meso::cuda {
namespace {

bool same(const CellRange& a, const CellRange& b) { return a.n == b.n && a.first == b.first && a.count == b.count; }

}  // namespace

MpcdSharedCells::MpcdSharedCells() {
  int least = 0, greatest = 0;
  MESO_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  MESO_CUDA_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, greatest));
  MESO_CUDA_CHECK(cudaEventCreateWithFlags(&cells_built, cudaEventDisableTiming));
  MESO_CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  outside.resize(1);
}

MpcdSharedCells::~MpcdSharedCells() {
  if (stream) cudaStreamSynchronize(stream);
  if (cells_built) cudaEventDestroy(cells_built);
  if (done) cudaEventDestroy(done);
  if (stream) cudaStreamDestroy(stream);
}

void MpcdSharedCells::prepare(const CellRange& r, const Domain& d, cudaStream_t s) {
  if (!cur_ || !same(cur_->range, r)) {
    cur_ = nullptr;
    for (auto& e : ranges_)
      if (same(e->range, r)) cur_ = e.get();
    if (!cur_) {
      auto e = std::make_unique<RangeLists>();
      e->range = r;
      for (int a = 0; a < 3; ++a) {
        e->view.n[a] = r.n[a];
        e->view.first[a] = r.first[a];
        e->view.count[a] = r.count[a];
      }
      e->view.split = (d.grid[0] > 1 ? 1u : 0u) | (d.grid[1] > 1 ? 2u : 0u) | (d.grid[2] > 1 ? 4u : 0u);
      e->view.ncells = uint32_t(r.cells());
      for (uint32_t l = 0; l < e->view.ncells; ++l)
        if (e->view.shared(l)) e->shared.push_back(l);
      e->list.resize(std::max<std::size_t>(e->shared.size(), 1));
      if (!e->shared.empty())
        MESO_CUDA_CHECK(cudaMemcpyAsync(e->list.data(), e->shared.data(), e->shared.size() * sizeof(uint32_t),
                                        cudaMemcpyHostToDevice, stream));
      MESO_CUDA_CHECK(cudaStreamSynchronize(stream));
      ranges_.push_back(std::move(e));
      cur_ = ranges_.back().get();
    }
  }
  const std::size_t ns = std::max<std::size_t>(cur_->shared.size(), 1);
  if (v1.size() < 3 * ns) {
    // No kernel of the last collision still reads them (the context's
    // stream waited for its last kernel).
    MESO_CUDA_CHECK(cudaStreamSynchronize(s));
    const std::size_t cap = ns + ns / 4;
    v1.resize(3 * cap);
    q2.resize(3 * cap);
    q3.resize(4 * cap);
  }
  h1.resize(r.cells() * 3);
  h2.resize(r.cells() * 3);
  h3.resize(r.cells() * 4);
}

}  // namespace meso::cuda
