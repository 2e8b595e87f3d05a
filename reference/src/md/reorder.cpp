#include "meso/reference/reorder.hpp"

#include "meso/ops/reorder.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::reference {

template <class Real>
void sort_by_cell(CpuContext<Real>& c) {
  ParticleData<Real>& p = c.p;
  c.cells.build(c.sys.box, p.position.data(), p.n_local, c.r_list());
  const auto& order = c.cells.particles();  // particle indices grouped by cell
  auto permute = [&](auto& v) {
    auto copy = v;
    for (std::size_t k = 0; k < order.size(); ++k) v[k] = copy[order[k]];
  };
  permute(p.position);
  permute(p.velocity);
  permute(p.force);
  permute(p.type);
  permute(p.tag);
  permute(p.image);
  if (!c.v_pred.empty()) permute(c.v_pred);
  if (p.rotational) {
    permute(p.orientation);
    permute(p.angmom);
    permute(p.inertia);
    permute(p.torque);
  }
}

namespace {

template <class Real>
class CpuReorder final : public ReorderOp {
 public:
  explicit CpuReorder(CpuContext<Real>& c) : c_(c) {}
  void apply() override { sort_by_cell(c_); }

 private:
  CpuContext<Real>& c_;
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_reorder(CpuContext<Real>& c) {
  return std::make_unique<CpuReorder<Real>>(c);
}

template void sort_by_cell<double>(CpuContext<double>&);
template void sort_by_cell<float>(CpuContext<float>&);
template std::unique_ptr<Operation> make_reorder<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_reorder<float>(CpuContext<float>&);

}  // namespace meso::reference
