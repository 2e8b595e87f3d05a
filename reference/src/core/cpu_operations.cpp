// The registration list of the CPU reference operations: one add() per
// operation name (meso/ops/operation.hpp lists the names). A new operation
// is its own files plus one line here; a pair style registers itself
// (reference/src/md/pair_NAME.cpp, MESO_REFERENCE_PAIR_STYLE): CMake lists
// those files in pair_styles.inc, one MESO_PAIR_STYLE(NAME) line each.
#include "meso/reference/cpu_backend.hpp"
#include "meso/reference/bonded_force.hpp"
#include "meso/reference/cell_list.hpp"
#include "meso/reference/domain_storage.hpp"
#include "meso/reference/integrate_aniso.hpp"
#include "meso/reference/integrate_berendsen.hpp"
#include "meso/reference/integrate_langevin.hpp"
#include "meso/reference/integrate_nose_hoover.hpp"
#include "meso/reference/integrate_verlet.hpp"
#include "meso/reference/mdscf_force.hpp"
#include "meso/reference/mpcd_collide.hpp"
#include "meso/reference/mpcd_domain.hpp"
#include "meso/reference/mpcd_sort.hpp"
#include "meso/reference/mpcd_stream.hpp"
#include "meso/reference/neighbor_list.hpp"
#include "meso/reference/polymerize.hpp"
#include "meso/reference/reorder.hpp"

namespace meso::reference {

#define MESO_PAIR_STYLE(NAME) \
  template <class Real>       \
  void register_pair_style_##NAME(OperationTable<CpuContext<Real>>& t);
#include "pair_styles.inc"
#undef MESO_PAIR_STYLE

template <class Real>
void register_cpu_operations(OperationTable<CpuContext<Real>>& t) {
  using C = CpuContext<Real>;
#define MESO_PAIR_STYLE(NAME) register_pair_style_##NAME<Real>(t);
#include "pair_styles.inc"
#undef MESO_PAIR_STYLE
  t.add("cell_list", [](C& c) { return make_cell_list(c); });
  t.add("neighbor_list", [](C& c) { return make_neighbor_list(c); });
  t.add("reorder", [](C& c) { return make_reorder(c); });
  t.add("bonded", [](C& c) { return make_bonded_force(c); });
  t.add("bonded/table", [](C& c) { return make_bonded_force(c); });
  t.add("field/mdscf", [](C& c) { return make_mdscf_force(c); });
  t.add("polymerize", [](C& c) { return make_polymerize(c); });
  t.add("integrate/vv", [](C& c) { return make_verlet(c, false); });
  t.add("integrate/nve", [](C& c) { return make_verlet(c, false); });
  t.add("integrate/gw", [](C& c) { return make_verlet(c, true); });
  t.add("integrate/nvt", [](C& c) { return make_nose_hoover(c); });
  t.add("integrate/langevin", [](C& c) { return make_langevin(c); });
  t.add("integrate/nve/aniso", [](C& c) { return make_nve_aniso(c); });
  t.add("integrate/langevin/aniso", [](C& c) { return make_langevin_aniso(c); });
  t.add("integrate/berendsen", [](C& c) { return make_berendsen(c, false); });
  t.add("integrate/berendsen/aniso", [](C& c) { return make_berendsen(c, true); });
  t.add("domain", [](C& c) { return make_domain_storage(c); });
  t.add("mpcd/stream", [](C& c) { return make_mpcd_stream(c); });
  t.add("mpcd/sort", [](C& c) { return make_mpcd_sort(c); });
  t.add("mpcd/domain", [](C& c) { return make_mpcd_domain(c); });
  t.add("mpcd/collide/srd", [](C& c) { return make_mpcd_collide(c, MpcdRule::srd); });
  t.add("mpcd/collide/at", [](C& c) { return make_mpcd_collide(c, MpcdRule::at); });
}

template void register_cpu_operations<double>(OperationTable<CpuContext<double>>&);
template void register_cpu_operations<float>(OperationTable<CpuContext<float>>&);

}  // namespace meso::reference
