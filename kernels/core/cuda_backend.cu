// CudaBackend<P>: the CUDA platform. It holds the particle state (CudaContext),
// creates the operations of cuda_operations.cu on it, and advances a
// StepPlan by compiling it into a conditional CUDA graph (cuda_step_graph.cu).
#include "meso/cuda/cuda_backend.hpp"

#include <algorithm>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cuda_context.cuh"
#include "core/cuda_operations.cuh"
#include "core/cuda_step_graph.cuh"
#include "core/device_ops.cuh"
#include "core/kernel_timer.cuh"
#include "core/nccl_links.hpp"
#include "meso/cuda/check.hpp"
#include "meso/cuda/device_info.hpp"
#include "meso/core/error.hpp"
#include "meso/run/step_plan.hpp"

namespace meso::cuda {
namespace {

// Lees-Edwards shear (docs/walls.md) runs on the ballot list, whose builder
// searches the sheared images (whole rows across a z face), and the DPD
// evaluator of the split and masked gathers, which takes the sheared image.
// The other list kinds find pairs by periodic cell shifts, the pruned rows
// and gather=record's evaluator by the periodic minimum image: refused by
// name rather than run unsheared.
void refuse_shear_variants(const System& sys, const RunParams& params, const Variant& v) {
  const double g = sys.shear_rate;
  if (v.nlist != NlistKind::ballot)
    throw_input_error("shear_rate = ", g, ": Lees-Edwards shear on the cuda backend takes nlist=ballot, not nlist=",
                      to_string(v.nlist));
  if (v.gather == GatherKind::record)
    throw_input_error("shear_rate = ", g, ": Lees-Edwards shear on the cuda backend takes gather=split or masked, "
                      "not gather=record");
  if (params.inner_skin > 0.0)
    throw_input_error("shear_rate = ", g, ": Lees-Edwards shear on the cuda backend takes no dynamic pruning (",
                      "inner_skin = ", params.inner_skin, ")");
  // Three cell layers along z: a cell then has at most one layer across a face.
  const double r_list = sys.max_rcut() + params.skin;
  if (sys.box.lengths().z < 3.0 * r_list)
    throw_input_error("shear_rate = ", g, ": Lees-Edwards shear on the cuda backend needs L_z >= 3 (r_c + skin) = ",
                      3.0 * r_list, " (L_z = ", sys.box.lengths().z, ")");
}

template <class P>
class CudaBackend final : public Backend, public CudaBackendInfo {
  using S4 = typename P::S4;

 public:
  explicit CudaBackend(const Variant& v) : Backend(v), ctx_(v) {}

  std::string name() const override { return "cuda"; }
  std::vector<std::string> applicable_axes() const override {
    return {"nlist", "cells", "reorder", "sort", "pow", "precision", "rng", "fuse", "tpp", "noise", "gather",
            "density", "graphs", "overlap", "vote", "solvent_graphs", "solvent_capacity"};
  }

  void set_system(const System& sys, const RunParams& params) override {
    params.validate();
    sys.validate(params.skin);
    if (sys.particles.n_local > 0xffffffffull / 64)
      throw_input_error("N = ", sys.particles.n_local, " is too large for the cuda backend");
    if (sys.shear_rate != 0.0) refuse_shear_variants(sys, params, variant());
    graph_.reset();
    ctx_.load(sys, params);
  }
  void get_particles(ParticleData<double>& out) const override { ctx_.get_particles(out); }
  // Exact restarts: the device keeps the storage order, last_pos and the
  // list counters (the StepPlan's sort counter is not used by the graph).
  void list_state(const StepPlan&, ListRestartState& out) const override { ctx_.list_state(out); }
  void restore_list_state(StepPlan&, const ListRestartState& state, const ParticleData<double>& now) override {
    ctx_.restore_list_state(state, now);
  }

  // The MPCD solvent, beside or instead of the MD particles (mpcd_context.cuh).
  void set_mpcd(const MpcdSystem& sys) override { ctx_.mpcd.load(sys, ctx_.stream); }
  void get_mpcd(MpcdParticles& out) const override {
    if (!ctx_.mpcd.loaded) throw_input_error("get_mpcd: the cuda backend holds no MPCD solvent");
    ctx_.mpcd.get(out, ctx_.stream);
  }

  // MPCD operations work on the solvent, the others on the MD particles.
  std::unique_ptr<Operation> create(const std::string& op) override {
    const bool mpcd = op.rfind("mpcd/", 0) == 0;
    if (mpcd ? !ctx_.mpcd.loaded : !ctx_.loaded)
      throw std::logic_error("cuda backend: create('" + op + "') before " +
                             (mpcd ? "set_mpcd" : "set_system"));
    return cuda_operations<P>().create(op, ctx_, name());
  }

  void advance(StepPlan& plan, uint64_t first_step, uint64_t nsteps, bool sums_on_last) override {
    if (!graph_ || !graph_->compiled_for(plan)) graph_ = std::make_unique<CudaStepGraph>(ctx_, plan);
    if (plan.comm().size() > 1)
      graph_->advance_decomposed(plan.comm(), first_step, nsteps, sums_on_last);
    else
      graph_steps_ += graph_->advance(first_step, nsteps, sums_on_last);
  }

  ThermoSample thermo(uint64_t timestep, const PairSums& sums) const override {
    ParticleData<double> p;
    get_particles(p);
    return compute_thermo(ctx_.sys, p, sums, timestep);
  }
  void synchronize() const override { ctx_.synchronize(); }
  std::unique_ptr<DeviceLinks> connect_device_links(const DeviceLinksSetup& setup) override {
    return make_nccl_links(setup);
  }

  std::size_t device_bytes() const override { return ctx_.device_bytes(); }
  std::map<std::string, std::size_t> device_bytes_by_part() const override { return ctx_.device_bytes_by_part(); }
  std::map<std::string, KernelProfile> profile_kernels(int repeats) override;
  std::map<std::string, KernelProfile> profile_mpcd(int repeats) override {
    return cuda::profile_mpcd<P>(ctx_, repeats);
  }
  uint64_t graph_steps() const override { return graph_steps_; }
  uint64_t mpcd_graph_collisions() const override { return ctx_.mpcd.graph_collisions; }

 private:
  CudaContext<P> ctx_;
  std::unique_ptr<CudaStepGraph> graph_;  // the last plan advanced, compiled
  uint64_t graph_steps_ = 0;
};

template <class P>
std::map<std::string, KernelProfile> CudaBackend<P>::profile_kernels(int repeats) {
  if (!graph_ || !graph_->alive())
    throw std::logic_error("profile_kernels: no live plan was advanced on this backend");
  CudaStepGraph& g = *graph_;
  cudaStream_t stream = ctx_.stream;
  // Pieces are timed one at a time on the current state. Re-running the
  // half-steps moves the state on; callers profile after their timed runs.
  KernelTimer timer(stream, repeats);
  auto time = [&](const char* name, double bytes, auto&& fn) { timer.time(name, bytes, fn); };
  const uint32_t nn = ctx_.n;
  const double n = nn, s4 = sizeof(S4);
  const bool lists = g.has_lists();  // not with pair style none
  std::vector<uint32_t> c(lists ? nn : 0);
  if (lists)
    MESO_CUDA_CHECK(cudaMemcpy(c.data(), ctx_.nlist.count, nn * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  const double pairs = std::accumulate(c.begin(), c.end(), 0.0);
  ctx_.set_step(ctx_.h_ctl->step);
  // Force: what each force's kernel must load and store (DeviceForce::profile_bytes).
  double force_bytes = 0.0;
  for (DeviceForce* f : g.forces()) force_bytes += f->profile_bytes(pairs);
  time("force", force_bytes, [&] {
    for (DeviceForce* f : g.forces()) f->enqueue(ForceRequest{});
  });
  // A method that folds the step opening also reads last_pos for the
  // displacement check, and the step runs no displacement kernel.
  const bool folds = g.method().folds_step_opening();
  time("integrate_first_half", n * (5 * s4 + 2 * sizeof(Image) + (folds ? s4 : 0)),
       [&] { g.method().enqueue_first_half(nullptr); });
  // Fused (fuse=on): the last force performs the second half-step; there
  // is no kernel of its own to time (its bytes are in the force's).
  if (!g.second_half_fused())
    time("integrate_second_half", n * 3 * s4, [&] { g.method().enqueue_second_half(); });
  if (lists) {
    if (!folds) time("displacement", n * 2 * s4, [&] { g.nlist().enqueue_displacement(); });
    time("cells", n * (s4 + 8), [&] { g.cells().enqueue_build(); });
    time("nlist", n * (s4 + 4) + 4.0 * pairs, [&] { g.nlist().enqueue_build(); });
    // Dynamic pruning: "nlist" ends with a prune; the prune alone, with the
    // bytes it must move at the least (rows' counts, positions, the pruned
    // entries written: the outer entries read are not counted).
    if (g.nlist().prunes())
      time("prune", n * (2 * s4 + 8) + 4.0 * pairs, [&] { g.nlist().enqueue_prune(); });
  }
  if (g.reorder())
    time("reorder+rebuild", n * (2 * 5 * s4 + 16), [&] {
      g.reorder()->enqueue_apply();
      g.cells().enqueue_build();
      g.nlist().enqueue_build();
    });
  ctx_.pull_ctl();
  std::map<std::string, KernelProfile> out = timer.profiles();
  if (ctx_.h_ctl->abort) {
    // The repeated half-steps moved the particles further than steps do
    // and a list build overflowed (a stiff system, janus-triblock's): grow
    // the lists as a run does and build them again, so the backend goes on
    // as it was; the overflowed builds' timings are not reported.
    StepControl* h = ctx_.h_ctl;
    const uint32_t cell_need = h->list.cell_overflow, nl_need = h->list.nlist_overflow,
                   pruned_need = h->list.prune_overflow;
    h->abort = 0;
    h->list.cell_overflow = 0;
    h->list.nlist_overflow = 0;
    h->list.prune_overflow = 0;
    ctx_.push_ctl();
    if (cell_need) g.cells().grow(cell_need);
    if (nl_need) g.nlist().grow(nl_need);
    if (pruned_need) g.nlist().grow_pruned(pruned_need);
    g.cells().enqueue_build();
    g.nlist().enqueue_build();
    ctx_.pull_ctl();
    if (ctx_.h_ctl->abort) throw std::runtime_error("profile_kernels: the lists overflowed again after growing");
    for (const char* name : {"cells", "nlist", "prune", "reorder+rebuild"}) out.erase(name);
  }
  return out;
}

std::unique_ptr<Backend> make_cuda_backend(const Variant& v) {
  switch (v.precision) {
    case Precision::double_: return std::make_unique<CudaBackend<PrecDouble>>(v);
    case Precision::mixed: return std::make_unique<CudaBackend<PrecMixed>>(v);
    case Precision::single: return std::make_unique<CudaBackend<PrecSingle>>(v);
  }
  throw_input_error("variant precision=", static_cast<int>(v.precision),
                    " is not provided by the cuda backend: allowed values are double, mixed, single");
}

}  // namespace

void register_cuda_backend(BackendRegistry& registry) {
  registry.add("cuda", make_cuda_backend, [] { return device_count() > 0; });
}

}  // namespace meso::cuda
