#include "meso/reference/neighbor_list.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "meso/ops/neighbor_list.hpp"
#include "meso/reference/cpu_context.hpp"
#include "meso/testing/neighbor_list_probe.hpp"

namespace meso::reference {

template <class Real>
void NeighborList::build(const Box& box, const Vec3<Real>* pos, std::size_t n,
                         const CellList& cells, double r_list, bool sheared) {
  const double r2 = r_list * r_list;
  const double lz = box.lengths().z;
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
      std::vector<uint32_t> wide;
      int ns = 0;
      if (sheared) {
        cells.sheared_stencil(cells.cell_of(ri), wide);
        ns = static_cast<int>(wide.size());
      } else {
        ns = cells.stencil(cells.cell_of(ri), stencil);
      }
      const uint32_t* cell_ids = sheared ? wide.data() : stencil;
      uint32_t* out = idx_.data() + i * capacity_;
      uint32_t k = 0;
      for (int s = 0; s < ns; ++s) {
        for (uint32_t m = start[cell_ids[s]]; m < start[cell_ids[s] + 1]; ++m) {
          const uint32_t j = members[m];
          if (j == i) continue;
          const Vec3d raw = ri - vec_cast<double>(pos[j]);
          const Vec3d d = box.min_image(raw);
          // Across a sheared face: y and z only (any offset along x).
          const bool across = sheared && std::rint(raw.z / lz) != 0.0;
          if ((across ? d.y * d.y + d.z * d.z : dot(d, d)) < r2) {
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
                                          const CellList&, double, bool);
template void NeighborList::build<float>(const Box&, const Vec3<float>*, std::size_t,
                                         const CellList&, double, bool);
template double NeighborList::max_displacement_sq<double>(const Box&, const Vec3<double>*) const;
template double NeighborList::max_displacement_sq<float>(const Box&, const Vec3<float>*) const;

namespace {

template <class Real>
class CpuNeighborList final : public NeighborListOp, public testing::NeighborListProbe {
 public:
  explicit CpuNeighborList(CpuContext<Real>& c) : c_(c) {}

  bool stale(const StepRules& rules) override {
    const uint32_t steps_since_build = ++c_.nlist.steps_since_build;
    if (!rules.needs_displacement(steps_since_build)) return false;
    const double d2 = c_.nlist.max_displacement_sq(c_.sys.box, c_.p.position.data());
    const bool rebuild = rules.rebuild_due(steps_since_build, d2);
    // A fixed period is the user's promise; count the builds where it was broken.
    if (rebuild && rules.period_broken(d2)) ++dangerous_builds_;
    return rebuild;
  }
  void build() override {
    c_.nlist.build(c_.sys.box, c_.p.position.data(), c_.p.n_local, c_.cells, c_.r_list(),
                   c_.sys.shear_rate != 0.0);
    c_.nlist.steps_since_build = 0;
  }
  NeighborStats stats() const override {
    NeighborStats s;
    s.builds = c_.nlist.builds();
    s.dangerous_builds = dangerous_builds_;
    s.capacity = c_.nlist.capacity();
    s.max_neighbors = c_.nlist.max_count();
    s.mean_neighbors = c_.nlist.mean_count();
    return s;
  }

  std::vector<std::vector<uint32_t>> rows() const override {
    std::vector<std::vector<uint32_t>> out(c_.p.n_local);
    for (std::size_t i = 0; i < c_.p.n_local; ++i)
      out[i].assign(c_.nlist.neighbors(i), c_.nlist.neighbors(i) + c_.nlist.count(i));
    return out;
  }
  std::vector<std::vector<uint32_t>> neighbors_by_tag() const override {
    const auto& tag = c_.p.tag;
    std::vector<std::vector<uint32_t>> out(c_.p.n_local);
    for (std::size_t i = 0; i < c_.p.n_local; ++i) {
      if (tag[i] >= c_.p.n_local)
        throw std::logic_error("neighbors_by_tag needs tags 0..N-1 (a single-rank system)");
      auto& list = out[tag[i]];
      for (uint32_t k = 0; k < c_.nlist.count(i); ++k) list.push_back(tag[c_.nlist.neighbors(i)[k]]);
      std::sort(list.begin(), list.end());
    }
    return out;
  }

 private:
  CpuContext<Real>& c_;
  uint64_t dangerous_builds_ = 0;
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_neighbor_list(CpuContext<Real>& c) {
  return std::make_unique<CpuNeighborList<Real>>(c);
}

template std::unique_ptr<Operation> make_neighbor_list<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_neighbor_list<float>(CpuContext<float>&);

}  // namespace meso::reference
