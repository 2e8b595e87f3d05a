// Reference cell list: the box is cut into cells at least `min_width` wide and
// particles are bucketed by a counting sort (CSR layout: cell_start and a
// particle array grouped by cell). Obviously correct; the CUDA `atomic` and
// `sorted` cell lists (kernels/cell_list_*.cu) are tested against it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "meso/core/box.hpp"
#include "meso/ops/communicator.hpp"
#include "meso/ops/operation.hpp"
#include "meso/physics/vec3.hpp"

namespace meso::reference {

class CellList {
 public:
  // Cells per axis = floor(L / min_width) (at least 1). Positions need not be
  // wrapped exactly: indices are clamped, so x == +L/2 after float rounding
  // lands in the last cell rather than out of range.
  template <class Real>
  void build(const Box& box, const Vec3<Real>* pos, std::size_t n, double min_width);
  // Later builds cover only the cells of the global grid that domain d and
  // its ghost layers touch (md_cell_range; several ranks). Positions stay
  // global: a cell's index counts from the range's first cell, and the
  // stencil wraps within the range (pairs are taken by minimum image).
  void restrict_to(const Domain& d) {
    domain_ = d;
    ranged_ = true;
  }

  std::array<uint32_t, 3> dims() const { return dims_; }
  uint32_t num_cells() const { return dims_[0] * dims_[1] * dims_[2]; }
  uint32_t cell_of(Vec3d r) const;
  // Particles of cell c are particles()[cell_start()[c] .. cell_start()[c+1]).
  const std::vector<uint32_t>& cell_start() const { return cell_start_; }
  const std::vector<uint32_t>& particles() const { return particles_; }

  // The distinct cells of the 3x3x3 stencil around c. With fewer than three
  // cells along an axis, the -1 and +1 neighbors coincide and are listed once,
  // so no pair is visited twice in the smallest legal boxes.
  int stencil(uint32_t c, uint32_t out[27]) const;
  // Lees-Edwards shear (meso/physics/lees_edwards.hpp): the stencil whose
  // layers across a z face of the box take their whole rows along x, since
  // the images there are shifted along x by an offset that moves with time.
  // The distinct cells, into out (cleared first). One rank (a whole grid).
  void sheared_stencil(uint32_t c, std::vector<uint32_t>& out) const;

 private:
  Box box_;
  bool ranged_ = false;
  Domain domain_{};
  CellRange range_{};                      // n: the global grid; count: dims_
  std::array<uint32_t, 3> dims_{1, 1, 1};
  Vec3d inv_width_{1, 1, 1};
  std::vector<uint32_t> cell_start_;
  std::vector<uint32_t> particles_;
  std::vector<uint32_t> cell_of_particle_;
};

template <class Real>
struct CpuContext;

// The "cell_list" operation: bins the context's particles into its CellList
// with cells of at least r_c + skin.
template <class Real>
std::unique_ptr<Operation> make_cell_list(CpuContext<Real>& c);

}  // namespace meso::reference
