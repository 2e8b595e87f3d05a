// The factories of the CUDA operations, one per file that defines the
// operation, and the table that registers them under their names
// (cuda_operations.cu).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "core/cuda_context.cuh"
#include "meso/cuda/cuda_backend.hpp"
#include "meso/core/mpcd.hpp"
#include "meso/ops/operation.hpp"

namespace meso::cuda {

template <class P>
std::unique_ptr<Operation> make_cuda_cell_list(CudaContext<P>& ctx);       // cell_list_op.cu
template <class P>
std::unique_ptr<Operation> make_cuda_neighbor_list(CudaContext<P>& ctx);   // neighbor_list_op.cu
template <class P>
std::unique_ptr<Operation> make_cuda_reorder(CudaContext<P>& ctx);         // reorder_op.cu
template <class P>
std::unique_ptr<Operation> make_cuda_bonded_force(CudaContext<P>& ctx);    // bonded_force_op.cu
template <class P>
std::unique_ptr<Operation> make_cuda_polymerize(CudaContext<P>& ctx);       // polymerize.cu
template <class P>
std::unique_ptr<Operation> make_cuda_mdscf_force(CudaContext<P>& ctx);     // mdscf_force.cu
template <class P>
std::unique_ptr<Operation> make_cuda_domain_storage(CudaContext<P>& ctx);  // domain_storage_op.cu
// integrate_op.cu; gw: Groot-Warren's predicted first half.
template <class P>
std::unique_ptr<Operation> make_cuda_verlet(CudaContext<P>& ctx, bool gw);
template <class P>
std::unique_ptr<Operation> make_cuda_nose_hoover(CudaContext<P>& ctx);
template <class P>
std::unique_ptr<Operation> make_cuda_langevin(CudaContext<P>& ctx);
// langevin: integrate/langevin/aniso, else integrate/nve/aniso.
template <class P>
std::unique_ptr<Operation> make_cuda_aniso(CudaContext<P>& ctx, bool langevin);
// rotation: integrate/berendsen/aniso, else integrate/berendsen.
template <class P>
std::unique_ptr<Operation> make_cuda_berendsen(CudaContext<P>& ctx, bool rotation);
// mpcd_op.cu: the MPCD solvent's operations, and the per-piece profile
// behind CudaBackendInfo::profile_mpcd.
template <class P>
std::unique_ptr<Operation> make_cuda_mpcd_stream(CudaContext<P>& ctx);
template <class P>
std::unique_ptr<Operation> make_cuda_mpcd_sort(CudaContext<P>& ctx);
template <class P>
std::unique_ptr<Operation> make_cuda_mpcd_collide(CudaContext<P>& ctx, MpcdRule rule);
// mpcd_domain.cu: the solvent's migration between ranks.
template <class P>
std::unique_ptr<Operation> make_cuda_mpcd_domain(CudaContext<P>& ctx);
template <class P>
std::map<std::string, KernelProfile> profile_mpcd(CudaContext<P>& ctx, int repeats);

// Every CUDA operation under its registered name.
template <class P>
const OperationTable<CudaContext<P>>& cuda_operations();

}  // namespace meso::cuda
