#include "meso/reference/cell_list.hpp"

#include "meso/ops/cell_list.hpp"
#include "meso/reference/cpu_context.hpp"

#include <algorithm>
#include <cmath>

namespace meso::reference {
namespace {
uint32_t bin(double x, double lo, double inv_w, uint32_t n) {
  const double f = std::floor((x - lo) * inv_w);
  if (f < 0.0) return 0;
  return std::min(static_cast<uint32_t>(f), n - 1);
}
}  // namespace

uint32_t CellList::cell_of(Vec3d r) const {
  const Vec3d lo = box_.lo();
  const uint32_t cx = bin(r.x, lo.x, inv_width_.x, dims_[0]);
  const uint32_t cy = bin(r.y, lo.y, inv_width_.y, dims_[1]);
  const uint32_t cz = bin(r.z, lo.z, inv_width_.z, dims_[2]);
  return (cz * dims_[1] + cy) * dims_[0] + cx;
}

template <class Real>
void CellList::build(const Box& box, const Vec3<Real>* pos, std::size_t n, double min_width) {
  box_ = box;
  const Vec3d L = box.lengths();
  const double lens[3] = {L.x, L.y, L.z};
  for (int d = 0; d < 3; ++d)
    dims_[d] = std::max<uint32_t>(1, static_cast<uint32_t>(std::floor(lens[d] / min_width)));
  inv_width_ = {dims_[0] / L.x, dims_[1] / L.y, dims_[2] / L.z};

  const uint32_t nc = num_cells();
  cell_start_.assign(nc + 1, 0);
  cell_of_particle_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const uint32_t c = cell_of(vec_cast<double>(pos[i]));
    cell_of_particle_[i] = c;
    ++cell_start_[c + 1];
  }
  for (uint32_t c = 0; c < nc; ++c) cell_start_[c + 1] += cell_start_[c];
  particles_.resize(n);
  std::vector<uint32_t> fill(cell_start_.begin(), cell_start_.end() - 1);
  // Ascending i within each cell: the order is deterministic.
  for (std::size_t i = 0; i < n; ++i) particles_[fill[cell_of_particle_[i]]++] = static_cast<uint32_t>(i);
}

int CellList::stencil(uint32_t c, uint32_t out[27]) const {
  const int nx = static_cast<int>(dims_[0]), ny = static_cast<int>(dims_[1]),
            nz = static_cast<int>(dims_[2]);
  const int cx = static_cast<int>(c % dims_[0]);
  const int cy = static_cast<int>((c / dims_[0]) % dims_[1]);
  const int cz = static_cast<int>(c / (dims_[0] * dims_[1]));
  int count = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int x = (cx + dx + nx) % nx, y = (cy + dy + ny) % ny, z = (cz + dz + nz) % nz;
        const uint32_t n = static_cast<uint32_t>((z * ny + y) * nx + x);
        if (std::find(out, out + count, n) == out + count) out[count++] = n;
      }
  return count;
}

template void CellList::build<double>(const Box&, const Vec3<double>*, std::size_t, double);
template void CellList::build<float>(const Box&, const Vec3<float>*, std::size_t, double);

namespace {

template <class Real>
class CpuCellList final : public CellListOp {
 public:
  explicit CpuCellList(CpuContext<Real>& c) : c_(c) {}
  // Local particles and ghosts: the neighbor list of a local particle
  // finds its neighbours on other ranks among the ghosts.
  void build() override {
    c_.cells.build(c_.sys.box, c_.p.position.data(), c_.p.size(), c_.r_list());
  }

 private:
  CpuContext<Real>& c_;
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_cell_list(CpuContext<Real>& c) {
  return std::make_unique<CpuCellList<Real>>(c);
}

template std::unique_ptr<Operation> make_cell_list<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_cell_list<float>(CpuContext<float>&);

}  // namespace meso::reference
