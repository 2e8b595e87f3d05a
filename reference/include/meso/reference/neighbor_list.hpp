// Reference Verlet neighbor list: a full list (each pair stored for both
// particles) with r < r_c + skin, built from the cell list. Each particle's
// neighbors are in strictly increasing index order, the order the CUDA
// `ballot` builder must reproduce exactly. Storage is a fixed number of slots
// per particle (as on the GPU); when a particle has more neighbors than slots
// the capacity grows and the list is rebuilt: neighbors are never dropped.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "meso/core/box.hpp"
#include "meso/reference/cell_list.hpp"
#include "meso/physics/vec3.hpp"

namespace meso::reference {

class NeighborList {
 public:
  // sheared: Lees-Edwards images along z (meso/physics/lees_edwards.hpp).
  // A pair whose minimum image crosses a z face is listed when it is within
  // r_list in y and z whatever its x: the images' offset along x moves with
  // time, and the list then holds for any offset (the force takes the
  // sheared image of its step). Its stencil is CellList::sheared_stencil.
  template <class Real>
  void build(const Box& box, const Vec3<Real>* pos, std::size_t n, const CellList& cells,
             double r_list, bool sheared = false);

  // Largest displacement since the last build (minimum image), squared.
  template <class Real>
  double max_displacement_sq(const Box& box, const Vec3<Real>* pos) const;

  std::size_t size() const { return counts_.size(); }
  uint32_t capacity() const { return capacity_; }
  uint32_t count(std::size_t i) const { return counts_[i]; }
  const uint32_t* neighbors(std::size_t i) const { return idx_.data() + i * capacity_; }
  uint32_t max_count() const;
  double mean_count() const;
  uint64_t builds() const { return builds_; }
  // Positions at the last build (storage order): the reference of the
  // displacement check, and what an exact restart rebuilds from.
  const std::vector<Vec3d>& build_positions() const { return last_pos_; }
  // Steps since the last build (counted by the neighbor_list operation).
  uint32_t steps_since_build = 0;

 private:
  uint32_t capacity_ = 64;
  std::vector<uint32_t> counts_;
  std::vector<uint32_t> idx_;
  std::vector<Vec3d> last_pos_;
  uint64_t builds_ = 0;
};

template <class Real>
struct CpuContext;

// The "neighbor_list" operation: the context's NeighborList, rebuilt when a
// particle moved more than skin/2 since the last build (or every
// rebuild_every steps); it also implements testing::NeighborListProbe.
template <class Real>
std::unique_ptr<Operation> make_neighbor_list(CpuContext<Real>& c);

}  // namespace meso::reference
