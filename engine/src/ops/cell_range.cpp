#include <algorithm>
#include <cmath>

#include "meso/ops/communicator.hpp"

namespace meso {

CellRange md_cell_range(const Domain& d, const std::array<int, 3>& n) {
  CellRange r;
  const Vec3d lo = d.global.lo(), len = d.global.lengths();
  auto axis = [](const Vec3d& v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; };
  for (int a = 0; a < 3; ++a) {
    r.n[a] = n[a];
    r.first[a] = 0;
    r.count[a] = n[a];
    if (d.whole_box || d.grid[a] == 1) continue;
    const double inv_w = n[a] / axis(len, a), box_lo = axis(lo, a);
    // The binning expression of the cell lists, monotone in x: every x in
    // [lo - w, hi + w) falls in [cell(lo - w), cell(hi + w)].
    const long first = long(std::floor((axis(d.lo, a) - d.ghost_width - box_lo) * inv_w));
    const long last = long(std::floor((axis(d.hi, a) + d.ghost_width - box_lo) * inv_w));
    // A range of n - 1 cells or more gains little and would meet itself
    // round the box: keep the whole axis.
    if (last - first + 1 >= long(n[a]) - 1) continue;
    r.first[a] = int(((first % n[a]) + n[a]) % n[a]);
    r.count[a] = int(last - first + 1);
  }
  return r;
}

}  // namespace meso
