#include "meso/reference/cell_list.hpp"

#include "meso/ops/cell_list.hpp"
#include "meso/reference/cpu_context.hpp"

#include <algorithm>
#include <cmath>

namespace meso::reference {
namespace {
// The global bin of x (clamped), then counted from the range's first cell;
// a position just outside the range (rounding) goes to the nearer end. As
// the CUDA CellGrid::bin, so that cells agree bit for bit.
uint32_t bin(double x, double lo, double inv_w, int g, int first, int count) {
  const double f = std::floor((x - lo) * inv_w);
  const int b = f < 0.0 ? 0 : (f >= double(g - 1) ? g - 1 : int(f));
  if (count == g) return uint32_t(b);
  int l = b - first;
  if (l < 0) l += g;
  return uint32_t(l < count ? l : (l - count < g - l ? count - 1 : 0));
}
}  // namespace

uint32_t CellList::cell_of(Vec3d r) const {
  const Vec3d lo = box_.lo();
  const CellRange& g = range_;
  const uint32_t cx = bin(r.x, lo.x, inv_width_.x, g.n[0], g.first[0], g.count[0]);
  const uint32_t cy = bin(r.y, lo.y, inv_width_.y, g.n[1], g.first[1], g.count[1]);
  const uint32_t cz = bin(r.z, lo.z, inv_width_.z, g.n[2], g.first[2], g.count[2]);
  return (cz * dims_[1] + cy) * dims_[0] + cx;
}

template <class Real>
void CellList::build(const Box& box, const Vec3<Real>* pos, std::size_t n, double min_width) {
  box_ = box;
  const Vec3d L = box.lengths();
  const double lens[3] = {L.x, L.y, L.z};
  std::array<int, 3> global{};
  for (int d = 0; d < 3; ++d) global[d] = std::max(1, static_cast<int>(std::floor(lens[d] / min_width)));
  inv_width_ = {global[0] / L.x, global[1] / L.y, global[2] / L.z};
  if (ranged_) {
    range_ = md_cell_range(domain_, global);
  } else {
    range_ = {};
    range_.n = range_.count = global;
  }
  for (int d = 0; d < 3; ++d) dims_[d] = static_cast<uint32_t>(range_.count[d]);

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

void CellList::sheared_stencil(uint32_t c, std::vector<uint32_t>& out) const {
  const int nx = static_cast<int>(dims_[0]), ny = static_cast<int>(dims_[1]),
            nz = static_cast<int>(dims_[2]);
  const int cx = static_cast<int>(c % dims_[0]);
  const int cy = static_cast<int>((c / dims_[0]) % dims_[1]);
  const int cz = static_cast<int>(c / (dims_[0] * dims_[1]));
  out.clear();
  for (int dz = -1; dz <= 1; ++dz) {
    const bool across = cz + dz < 0 || cz + dz >= nz;
    const int z = (cz + dz + nz) % nz;
    for (int dy = -1; dy <= 1; ++dy) {
      const int y = (cy + dy + ny) % ny;
      for (int k = 0; k < (across ? nx : 3); ++k) {
        const int x = across ? k : (cx + k - 1 + nx) % nx;
        const uint32_t n = static_cast<uint32_t>((z * ny + y) * nx + x);
        if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
      }
    }
  }
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
