#include "meso/reference/neighbor_list.hpp"

#include <algorithm>

namespace meso::reference {

template <class Real>
void NeighborList::build(const Box& box, const Vec3<Real>* pos, std::size_t n,
                         const CellList& cells, double r_list) {
  const double r2 = r_list * r_list;
  counts_.assign(n, 0);
  const auto& start = cells.cell_start();
  const auto& members = cells.particles();
  for (;;) {
    idx_.assign(n * capacity_, 0);
    uint32_t needed = 0;
#pragma omp parallel for schedule(static) reduction(max : needed)
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3d ri = vec_cast<double>(pos[i]);
      uint32_t stencil[27];
      const int ns = cells.stencil(cells.cell_of(ri), stencil);
      uint32_t* out = idx_.data() + i * capacity_;
      uint32_t k = 0;
      for (int s = 0; s < ns; ++s) {
        for (uint32_t m = start[stencil[s]]; m < start[stencil[s] + 1]; ++m) {
          const uint32_t j = members[m];
          if (j == i) continue;
          const Vec3d d = box.min_image(ri - vec_cast<double>(pos[j]));
          if (dot(d, d) < r2) {
            if (k < capacity_) out[k] = j;
            ++k;
          }
        }
      }
      counts_[i] = k;
      needed = std::max(needed, k);
      if (k <= capacity_) std::sort(out, out + k);
    }
    if (needed <= capacity_) break;
    // Overflow: grow to the largest count plus headroom (rounded to a warp
    // multiple as the GPU layout will be) and rebuild from scratch.
    capacity_ = ((needed + needed / 8 + 31) / 32) * 32;
  }
  last_pos_.resize(n);
  for (std::size_t i = 0; i < n; ++i) last_pos_[i] = vec_cast<double>(pos[i]);
  ++builds_;
}

template <class Real>
double NeighborList::max_displacement_sq(const Box& box, const Vec3<Real>* pos) const {
  double m = 0.0;
  const std::size_t n = last_pos_.size();
#pragma omp parallel for schedule(static) reduction(max : m)
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3d d = box.min_image(vec_cast<double>(pos[i]) - last_pos_[i]);
    m = std::max(m, dot(d, d));
  }
  return m;
}

uint32_t NeighborList::max_count() const {
  return counts_.empty() ? 0 : *std::max_element(counts_.begin(), counts_.end());
}

double NeighborList::mean_count() const {
  if (counts_.empty()) return 0.0;
  double s = 0.0;
  for (uint32_t c : counts_) s += c;
  return s / static_cast<double>(counts_.size());
}

template void NeighborList::build<double>(const Box&, const Vec3<double>*, std::size_t,
                                          const CellList&, double);
template void NeighborList::build<float>(const Box&, const Vec3<float>*, std::size_t,
                                         const CellList&, double);
template double NeighborList::max_displacement_sq<double>(const Box&, const Vec3<double>*) const;
template double NeighborList::max_displacement_sq<float>(const Box&, const Vec3<float>*) const;

}  // namespace meso::reference
