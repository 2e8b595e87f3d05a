// The one registration list of the CUDA backend's operations (names in
// meso/ops/operation.hpp). Adding an operation is one add() here and its
// factory in the file that defines it (cuda_operations.cuh); a pair style
// registers itself (kernels/md/pair_NAME.cu, MESO_CUDA_PAIR_STYLE): CMake
// lists those files in pair_styles.inc, one MESO_PAIR_STYLE(NAME) line each.
#include "core/cuda_operations.cuh"

namespace meso::cuda {

#define MESO_PAIR_STYLE(NAME) \
  template <class P>          \
  void register_cuda_pair_style_##NAME(OperationTable<CudaContext<P>>& t);
#include "pair_styles.inc"
#undef MESO_PAIR_STYLE

template <class P>
const OperationTable<CudaContext<P>>& cuda_operations() {
  static const OperationTable<CudaContext<P>> table = [] {
    OperationTable<CudaContext<P>> t;
#define MESO_PAIR_STYLE(NAME) register_cuda_pair_style_##NAME<P>(t);
#include "pair_styles.inc"
#undef MESO_PAIR_STYLE
    t.add("integrate/vv", [](CudaContext<P>& c) { return make_cuda_verlet<P>(c, false); });
    t.add("integrate/nve", [](CudaContext<P>& c) { return make_cuda_verlet<P>(c, false); });
    t.add("integrate/gw", [](CudaContext<P>& c) { return make_cuda_verlet<P>(c, true); });
    t.add("integrate/nvt", make_cuda_nose_hoover<P>);
    t.add("integrate/langevin", make_cuda_langevin<P>);
    t.add("integrate/nve/aniso", [](CudaContext<P>& c) { return make_cuda_aniso<P>(c, false); });
    t.add("integrate/langevin/aniso", [](CudaContext<P>& c) { return make_cuda_aniso<P>(c, true); });
    t.add("integrate/berendsen", [](CudaContext<P>& c) { return make_cuda_berendsen<P>(c, false); });
    t.add("integrate/berendsen/aniso", [](CudaContext<P>& c) { return make_cuda_berendsen<P>(c, true); });
    t.add("reorder", make_cuda_reorder<P>);
    t.add("cell_list", make_cuda_cell_list<P>);
    t.add("neighbor_list", make_cuda_neighbor_list<P>);
    t.add("field/mdscf", make_cuda_mdscf_force<P>);
    t.add("bonded", make_cuda_bonded_force<P>);
    t.add("bonded/table", make_cuda_bonded_force<P>);
    t.add("polymerize", make_cuda_polymerize<P>);
    t.add("domain", make_cuda_domain_storage<P>);
    t.add("mpcd/stream", make_cuda_mpcd_stream<P>);
    t.add("mpcd/sort", make_cuda_mpcd_sort<P>);
    t.add("mpcd/domain", make_cuda_mpcd_domain<P>);
    t.add("mpcd/collide/srd", [](CudaContext<P>& c) { return make_cuda_mpcd_collide<P>(c, MpcdRule::srd); });
    t.add("mpcd/collide/at", [](CudaContext<P>& c) { return make_cuda_mpcd_collide<P>(c, MpcdRule::at); });
    return t;
  }();
  return table;
}

template const OperationTable<CudaContext<PrecDouble>>& cuda_operations<PrecDouble>();
template const OperationTable<CudaContext<PrecMixed>>& cuda_operations<PrecMixed>();
template const OperationTable<CudaContext<PrecSingle>>& cuda_operations<PrecSingle>();

}  // namespace meso::cuda
