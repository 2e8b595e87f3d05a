#include "meso/reference/mpcd_sort.hpp"

#include "meso/ops/mpcd.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::reference {

template <class Real>
void mpcd_sort(CpuMpcd<Real>& s) {
  s.cells.build(s.grid, s.pos.data(), s.size(), Vec3d{0.0, 0.0, 0.0});
  const std::vector<uint32_t> order = s.cells.particles();  // old index of new slot k
  auto permute = [&order](auto& v) {
    const auto copy = v;
    for (std::size_t k = 0; k < order.size(); ++k) v[k] = copy[order[k]];
  };
  permute(s.pos);
  permute(s.vel);
  permute(s.type);
  permute(s.tag);
  permute(s.image);
  // The cell list now describes the sorted storage: rebuilt rather than
  // remapped (a sort is rare; obviously right beats fast here).
  s.cells.build(s.grid, s.pos.data(), s.size(), Vec3d{0.0, 0.0, 0.0});
  s.props.clear();  // they were of the previous collision's cells
}

namespace {

template <class Real>
class CpuMpcdSort final : public MpcdSortOp {
 public:
  explicit CpuMpcdSort(CpuContext<Real>& c) : c_(c) {}
  void sort() override {
    c_.mpcd.require_loaded("mpcd/sort");
    mpcd_sort(c_.mpcd);
  }

 private:
  CpuContext<Real>& c_;
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_mpcd_sort(CpuContext<Real>& c) {
  return std::make_unique<CpuMpcdSort<Real>>(c);
}

template void mpcd_sort<double>(CpuMpcd<double>&);
template void mpcd_sort<float>(CpuMpcd<float>&);
template std::unique_ptr<Operation> make_mpcd_sort<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_mpcd_sort<float>(CpuContext<float>&);

}  // namespace meso::reference
