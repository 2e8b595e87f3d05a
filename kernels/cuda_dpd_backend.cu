// CudaDpdBackend: owns the device arrays and composes the kernels of
// cell_list_*.cu, neighbor_list_*.cu, reorder.cu, dpd_force.cu and
// integrate_verlet.cu into the step loop.
//
// The step loop (advance) runs without host round trips between rebuilds:
// one CUDA graph per step,
//
//   integrate_first_half -> max_displacement -> step_control
//     -> IF rebuild { sort_flag -> IF sort { reorder } -> cells -> nlist -> finish }
//     -> force [-> integrate_second_half]
//
// where step_control (one thread) increments the device step counter,
// decides the rebuild from the largest displacement since the last build (or
// the fixed period) and sets the conditional node's value. Overflow of a cell
// or of a neighbor row during an in-graph rebuild sets ctl->abort; every
// later kernel then returns at once, so the state freezes at the failed step.
// After the batch the host grows the arrays, redoes that step's rebuild and
// finishes the step, then continues: no neighbor is ever dropped.
//
// The pieces of the Backend interface (build_cells, compute_forces, ...)
// are also provided, one synchronous call each, for tests and the generic loop.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cell_list.cuh"
#include "dpd_force.cuh"
#include "integrate_thermostats.cuh"
#include "integrate_verlet.cuh"
#include "lj_force.cuh"
#include "meso/cuda/check.hpp"
#include "meso/cuda/cuda_dpd_backend.hpp"
#include "meso/cuda/device_buffer.hpp"
#include "meso/cuda/device_info.hpp"
#include "meso/error.hpp"
#include "neighbor_list.cuh"
#include "physics/pair_noise.hpp"
#include "physics/tea.hpp"
#include "reorder.cuh"

namespace meso::cuda {
namespace {

ReorderKind parse_reorder(const std::string& r) {
  if (r == "none") return ReorderKind::none;
  if (r == "morton2") return ReorderKind::morton2;
  if (r == "hilbert") return ReorderKind::hilbert;
  return ReorderKind::cell;
}

uint32_t round_up(uint32_t x, uint32_t m) { return (x + m - 1) / m * m; }

// Adds an IF conditional node after `dep` and returns its body graph.
cudaGraph_t add_if_node(cudaGraph_t graph, cudaGraphConditionalHandle h, const cudaGraphNode_t* dep,
                        cudaGraphNode_t* node) {
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = cudaGraphCondTypeIf;
  p.conditional.size = 1;
  MESO_CUDA_CHECK(cudaGraphAddNode(node, graph, dep, nullptr, 1, &p));
  return p.conditional.phGraph_out[0];
}

__global__ void sort_flag_kernel(const StepControl* ctl, cudaGraphConditionalHandle hs) {
  cudaGraphSetConditional(hs, (ctl->sort_due && !ctl->abort) ? 1u : 0u);
}

template <class P>
class CudaDpdBackend final : public Backend, public CudaBackendInfo {
  using S4 = typename P::S4;

 public:
  explicit CudaDpdBackend(const Variant& v) : Backend(v) {
    MESO_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    MESO_CUDA_CHECK(cudaMallocHost(&h_ctl_, sizeof(StepControl)));
    const char* g = std::getenv("MESO_CUDA_GRAPHS");
    use_graphs_ = !(g && std::string(g) == "0");
  }
  ~CudaDpdBackend() override {
    destroy_graph();
    cudaFreeHost(h_ctl_);
    cudaStreamDestroy(stream_);
  }

  std::string name() const override { return "cuda"; }
  std::vector<std::string> applicable_axes() const override {
    return {"nlist", "cells", "reorder", "sort", "pow", "precision", "rng", "fuse", "tpp"};
  }

  void set_system(const System& sys, const RunParams& params) override;
  void get_particles(ParticleData<double>& out) const override;
  void build_cells() override;
  void build_neighbor_list() override;
  bool neighbor_list_stale() override;
  void compute_forces(uint64_t timestep, bool want_sums) override;
  void integrate_first_half() override;
  void integrate_second_half() override;
  void advance(uint64_t first_step, uint64_t nsteps, bool sums_on_last) override;
  ThermoSample thermo(uint64_t timestep) const override;
  NeighborStats neighbor_stats() const override;
  std::vector<std::vector<uint32_t>> neighbors_by_tag() const override;
  void synchronize() const override { MESO_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  IntegratorState integrator_state() const override {
    pull_ctl();
    return {h_ctl_->nh_xi, h_ctl_->nh_eta};
  }
  void set_integrator_state(const IntegratorState& st) override {
    pull_ctl();
    h_ctl_->nh_xi = st.xi;
    h_ctl_->nh_eta = st.eta;
    push_ctl();
  }

  std::size_t device_bytes() const override;
  std::map<std::string, KernelProfile> profile_kernels(int repeats) override;
  uint64_t graph_steps() const override { return graph_steps_; }
  std::vector<std::vector<uint32_t>> neighbor_rows() const override;
  void set_neighbor_capacity_for_test(uint32_t cap) override {
    // The rows no longer hold valid entries: force the next step to rebuild,
    // which overflows inside the graph and takes the recovery path.
    synchronize();
    if (cap) {
      nl_cap_ = cap;
      nl_idx_.resize(size_t(nl_cap_) * nl_stride_);
      destroy_graph();
    }
    pull_ctl();
    h_ctl_->force_rebuild = 1;
    push_ctl();
  }

 private:
  // ---- state
  System sys_;
  RunParams params_;
  uint32_t n_ = 0;
  cudaStream_t stream_ = nullptr;
  ReorderKind reorder_ = ReorderKind::none;
  bool tea_ = false, fuse_ = false, gw_ = false, ballot_ = true, tiled_ = false, sorted_cells_ = false;
  uint32_t tpp_ = 1;  // LJ force threads per particle (variant axis tpp)
  bool use_graphs_ = true;
  bool lj_ = false, nvt_ = false, langevin_ = false;
  // ctl->nh_mv2 holds sum m v^2 of the current velocities in the order of the
  // current particles (nvt): false after set_system and after a reorder
  // outside a step, true once a second half or ensure_nh_mv2 stored it.
  bool nh_mv2_known_ = false;
  void ensure_nh_mv2() {
    if (nh_mv2_known_) return;
    nose_hoover_store_mv2<S4>(view(), mass_.data(), ke_partials_.data(), ctl_.data(), stream_);
    nh_mv2_known_ = true;
  }
  DeviceBuffer<physics::LjPairCoeffs<LjPairReal<P>>> lj_coeffs_;  // ntypes x ntypes
  DeviceBuffer<double> ke_partials_;

  DeviceBuffer<S4> pos_, vel_, force_, vel_pred_, last_pos_;
  DeviceBuffer<uint32_t> tag_, sig_;
  DeviceBuffer<Image> image_;
  DeviceBuffer<physics::DpdPairParams> pair_params_;
  DeviceBuffer<double> mass_;
  DeviceBuffer<StepControl> ctl_;
  StepControl* h_ctl_ = nullptr;  // pinned mirror

  CellGrid grid_{};
  DeviceBuffer<uint32_t> cell_count_, cell_start_, cell_members_;
  uint32_t cell_cap_ = 0;
  DeviceBuffer<uint32_t> sc_keys_in_, sc_keys_out_, sc_vals_in_;
  DeviceBuffer<unsigned char> sc_temp_;

  DeviceBuffer<uint32_t> nl_idx_, nl_count_;
  uint32_t nl_cap_ = 0, nl_stride_ = 0;

  DeviceBuffer<unsigned long long> ro_keys_in_, ro_keys_out_;
  DeviceBuffer<uint32_t> ro_vals_, ro_perm_;
  DeviceBuffer<unsigned char> ro_temp_, ro_gather_;

  DeviceBuffer<double> partials_, sums_d_;
  PairSums sums_;

  cudaGraph_t graph_ = nullptr, graph_sums_ = nullptr;
  cudaGraphExec_t exec_ = nullptr, exec_sums_ = nullptr;
  uint64_t graph_steps_ = 0;

  // ---- helpers
  ParticleView<S4> view() {
    return {pos_.data(), vel_.data(), force_.data(), vel_pred_.data(), tag_.data(),
            image_.data(), sig_.data(), last_pos_.data(), n_};
  }
  double r_list() const { return sys_.max_rcut() + params_.skin; }
  CellView cell_view() const {
    return {cell_members_.data(), sorted_cells_ ? cell_start_.data() : nullptr, cell_count_.data(),
            cell_cap_};
  }
  // Row-major when lanes share a particle (tpp > 1), column-major otherwise
  // (device_views.cuh, NlistView).
  NlistView nlist_layout() const {
    return tpp_ > 1 ? NlistView{nullptr, nullptr, 1u, nl_cap_, nl_cap_}
                    : NlistView{nullptr, nullptr, nl_stride_, 1u, nl_cap_};
  }
  NlistView nlist_view() {
    NlistView v = nlist_layout();
    v.idx = nl_idx_.data();
    v.count = nl_count_.data();
    return v;
  }
  uint32_t force_blocks() const { return lj_ ? lj_force_blocks(n_, tpp_) : (n_ + kForceBlock - 1) / kForceBlock; }

  // Energy and virial of the last sums launch (waits for the stream).
  void fetch_sums() {
    double s[2];
    MESO_CUDA_CHECK(cudaMemcpyAsync(s, sums_d_.data(), sizeof(s), cudaMemcpyDeviceToHost, stream_));
    MESO_CUDA_CHECK(cudaStreamSynchronize(stream_));
    sums_ = {s[0], s[1]};
  }
  void pull_ctl() const {
    MESO_CUDA_CHECK(cudaMemcpyAsync(h_ctl_, ctl_.data(), sizeof(StepControl),
                                    cudaMemcpyDeviceToHost, stream_));
    MESO_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  void push_ctl() {
    MESO_CUDA_CHECK(cudaMemcpyAsync(ctl_.data(), h_ctl_, sizeof(StepControl),
                                    cudaMemcpyHostToDevice, stream_));
    MESO_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  void set_step(uint64_t step) {  // host-side; stream must be idle
    pull_ctl();
    h_ctl_->step = step;
    const physics::TeaPairKey k = physics::tea_pair_key(step, params_.seed);
    std::memcpy(h_ctl_->tea_key, k.k, sizeof(k.k));
    push_ctl();
  }

  void allocate_cells();
  void grow_cells(uint32_t needed);
  void grow_nlist(uint32_t needed);
  void enqueue_reorder();
  void enqueue_cells();
  void enqueue_nlist();
  void enqueue_force(bool sums, bool initial = false);
  void enqueue_first_half(const StepOpening& open = {});
  void enqueue_second_half();
  void enqueue_control(bool graph, cudaGraphConditionalHandle hr);
  ControlArgs control_args() const;
  void enqueue_step_start(bool graph, cudaGraphConditionalHandle hr);
  void host_rebuild(bool sort);
  void host_step(bool sums);
  void finish_step_after_abort(bool sums);
  void build_graph(bool sums, cudaGraph_t& graph, cudaGraphExec_t& exec);
  void destroy_graph();
  IntegrateArgs integrate_args() const {
    return {sys_.box, mass_.data(), params_.dt, params_.lambda,
            physics::tea_seed_whitening(params_.seed), tea_};
  }
  ThermostatArgs thermostat_args() const {
    const double dof = n_ > 1 ? 3.0 * double(n_) - 3.0 : 3.0;  // as the reference
    return {params_.kT, params_.tau, params_.gamma, dof, params_.seed};
  }
  FirstHalfMode first_half_mode() const {
    if (gw_) return FirstHalfMode::gw;
    return fuse_ ? FirstHalfMode::vv_fused : FirstHalfMode::vv;
  }
};

template <class P>
void CudaDpdBackend<P>::set_system(const System& sys, const RunParams& params) {
  params.validate();
  sys.validate(params.skin);
  if ((params.integrator == Integrator::nvt || params.integrator == Integrator::langevin) &&
      variant_.fuse == "on")
    throw_input_error("variant fuse=on is only provided with the vv, nve and gw integrators, not ",
                      to_string(params.integrator));
  if (variant_.tpp != "1" && sys.pair_style != PairStyle::lj)
    throw_input_error("variant tpp=", variant_.tpp,
                      " is only provided for the lj pair style; DPD forces use one thread per particle");
  if (sys.particles.n_local > 0xffffffffull / 64)
    throw_input_error("N = ", sys.particles.n_local, " is too large for the cuda backend");
  destroy_graph();
  sys_ = sys;
  params_ = params;
  n_ = static_cast<uint32_t>(sys.particles.n_local);
  reorder_ = parse_reorder(variant_.reorder);
  tea_ = variant_.rng == "tea";
  fuse_ = variant_.fuse == "on";
  gw_ = params.integrator == Integrator::groot_warren;
  lj_ = sys.pair_style == PairStyle::lj;
  nh_mv2_known_ = false;
  nvt_ = params.integrator == Integrator::nvt;
  langevin_ = params.integrator == Integrator::langevin;
  ballot_ = variant_.nlist == "ballot";
  tiled_ = variant_.nlist == "tiled";
  sorted_cells_ = variant_.cells == "sorted";
  tpp_ = uint32_t(std::stoul(variant_.tpp));  // one of 1..32 (Variant::parse)

  // Particle arrays, converted to the storage precision (type in pos.w).
  std::vector<S4> hp(n_), hv(n_);
  const auto& src = sys.particles;
  for (uint32_t i = 0; i < n_; ++i) {
    hp[i] = make4<S4>(src.position[i], double(src.type[i]));
    hv[i] = make4<S4>(src.velocity[i], 0.0);
  }
  pos_.resize(n_);
  vel_.resize(n_);
  force_.resize(n_);
  last_pos_.resize(n_);
  tag_.resize(n_);
  image_.resize(n_);
  if (gw_ || fuse_) vel_pred_.resize(n_); else vel_pred_.release();
  if (tea_) sig_.resize(n_); else sig_.release();
  MESO_CUDA_CHECK(cudaMemcpy(pos_.data(), hp.data(), n_ * sizeof(S4), cudaMemcpyHostToDevice));
  MESO_CUDA_CHECK(cudaMemcpy(vel_.data(), hv.data(), n_ * sizeof(S4), cudaMemcpyHostToDevice));
  MESO_CUDA_CHECK(cudaMemset(force_.data(), 0, n_ * sizeof(S4)));
  MESO_CUDA_CHECK(cudaMemcpy(tag_.data(), src.tag.data(), n_ * sizeof(uint32_t), cudaMemcpyHostToDevice));
  MESO_CUDA_CHECK(cudaMemcpy(image_.data(), src.image.data(), n_ * sizeof(Image), cudaMemcpyHostToDevice));
  if (gw_ || fuse_) MESO_CUDA_CHECK(cudaMemset(vel_pred_.data(), 0, n_ * sizeof(S4)));

  pair_params_.resize(sys.dpd.data().size());
  MESO_CUDA_CHECK(cudaMemcpy(pair_params_.data(), sys.dpd.data().data(),
                             pair_params_.bytes(), cudaMemcpyHostToDevice));
  if (lj_) {
    // The evaluator's per-pair constants in the kernel's arithmetic, from
    // the same physics::lj_pair_coeffs the reference uses.
    std::vector<physics::LjPairCoeffs<LjPairReal<P>>> coeffs;
    for (const auto& p : sys.lj.data()) coeffs.push_back(physics::lj_pair_coeffs<LjPairReal<P>>(p));
    lj_coeffs_.resize(coeffs.size());
    MESO_CUDA_CHECK(cudaMemcpy(lj_coeffs_.data(), coeffs.data(), lj_coeffs_.bytes(),
                               cudaMemcpyHostToDevice));
  }
  if (nvt_) ke_partials_.resize(ke_blocks(n_)); else ke_partials_.release();
  mass_.resize(sys.type_mass.size());
  MESO_CUDA_CHECK(cudaMemcpy(mass_.data(), sys.type_mass.data(), mass_.bytes(), cudaMemcpyHostToDevice));

  ctl_.resize(1);
  std::memset(h_ctl_, 0, sizeof(StepControl));
  h_ctl_->steps_since_sort = 0xffffffffu;  // sort before the first list, as the reference does
  push_ctl();

  partials_.resize(2 * size_t(force_blocks()));
  sums_d_.resize(2);

  // Neighbor-list capacity: the mean count of an ideal gas at this density
  // plus headroom; overflow grows it.
  const double mean = 4.0 / 3.0 * 3.14159265358979 * std::pow(r_list(), 3) * sys.density();
  nl_cap_ = round_up(static_cast<uint32_t>(mean * 1.3) + 8, 8);
  nl_stride_ = round_up(n_, 32);
  nl_idx_.resize(size_t(nl_cap_) * nl_stride_);
  nl_count_.resize(n_);
  allocate_cells();

  if (reorder_ != ReorderKind::none) {
    ro_keys_in_.resize(n_);
    ro_keys_out_.resize(n_);
    ro_vals_.resize(n_);
    ro_perm_.resize(n_);
    ro_temp_.resize(std::max<size_t>(reorder_temp_bytes(n_), 1));
    ro_gather_.resize(size_t(n_) * sizeof(Double4));
  }

  host_rebuild(reorder_ != ReorderKind::none);
  if (tea_) tea_signatures(view(), false, physics::tea_seed_whitening(params_.seed), stream_);
  // At t = 0 there is no force to predict with: forces use v(0) itself.
  set_step(0);
  enqueue_force(true, /*initial=*/true);
  fetch_sums();
}

template <class P>
void CudaDpdBackend<P>::allocate_cells() {
  const Vec3d L = sys_.box.lengths();
  const double w = r_list();
  auto dim = [&](double l) { return std::max(1, static_cast<int>(std::floor(l / w))); };
  grid_.nx = dim(L.x);
  grid_.ny = dim(L.y);
  grid_.nz = dim(L.z);
  const Vec3d lo = sys_.box.lo();
  grid_.lo_x = lo.x;
  grid_.lo_y = lo.y;
  grid_.lo_z = lo.z;
  grid_.inv_wx = grid_.nx / L.x;
  grid_.inv_wy = grid_.ny / L.y;
  grid_.inv_wz = grid_.nz / L.z;
  const uint32_t nc = grid_.ncells();
  cell_count_.resize(nc);
  if (sorted_cells_) {
    cell_start_.resize(nc);
    cell_members_.resize(n_);
    sc_keys_in_.resize(n_);
    sc_keys_out_.resize(n_);
    sc_vals_in_.resize(n_);
    sc_temp_.resize(std::max<size_t>(sorted_cells_temp_bytes(n_), 1));
    cell_cap_ = 0;
  } else {
    const double mean = double(n_) / nc;
    cell_cap_ = round_up(static_cast<uint32_t>(mean + 4.0 * std::sqrt(mean) + 4.0), 8);
    cell_members_.resize(size_t(nc) * cell_cap_);
  }
}

template <class P>
void CudaDpdBackend<P>::grow_cells(uint32_t needed) {
  cell_cap_ = round_up(needed + needed / 8 + 1, 8);
  cell_members_.resize(size_t(grid_.ncells()) * cell_cap_);
  destroy_graph();
}

template <class P>
void CudaDpdBackend<P>::grow_nlist(uint32_t needed) {
  nl_cap_ = round_up(needed + needed / 8 + 1, 8);
  nl_idx_.resize(size_t(nl_cap_) * nl_stride_);
  destroy_graph();
}

template <class P>
void CudaDpdBackend<P>::enqueue_reorder() {
  ReorderScratch sc{ro_keys_in_.data(), ro_keys_out_.data(), ro_vals_.data(), ro_perm_.data(),
                    ro_temp_.data(), ro_temp_.size(), ro_gather_.data()};
  reorder_particles<S4>(reorder_, view(), grid_, sc, ctl_.data(), stream_);
}

template <class P>
void CudaDpdBackend<P>::enqueue_cells() {
  if (sorted_cells_) {
    SortedCellScratch sc{sc_keys_in_.data(), sc_keys_out_.data(), sc_vals_in_.data(),
                         sc_temp_.data(), sc_temp_.size()};
    build_cells_sorted<S4>(pos_.data(), n_, grid_, cell_start_.data(), cell_count_.data(),
                           cell_members_.data(), sc, stream_);
  } else {
    build_cells_atomic<S4>(pos_.data(), n_, grid_, cell_count_.data(), cell_members_.data(),
                           cell_cap_, ctl_.data(), stream_);
  }
}

template <class P>
void CudaDpdBackend<P>::enqueue_nlist() {
  const double rc = sys_.max_rcut();
  // fp32 builds (mixed, single) widen the list radius by 2^-20 relative, far
  // above fp32 rounding of |r|^2 (~2^-23), so rounding can add but never drop
  // a pair inside r_c + skin.
  const double widen = std::is_same_v<S4, float4> ? 1.0 + std::ldexp(1.0, -20) : 1.0;
  NlistBuildArgs a{grid_, cell_view(), nlist_view(), sys_.box, r_list() * r_list() * widen,
                   rc * rc, ctl_.data(), n_, tpp_};
  if (ballot_)
    build_nlist_ballot<S4>(pos_.data(), a, stream_);
  else if (tiled_)
    build_nlist_tiled<S4>(pos_.data(), a, stream_);
  else
    build_nlist_atomic<S4>(pos_.data(), a, stream_);
  finish_nlist_build<S4>(pos_.data(), last_pos_.data(), n_, ctl_.data(), stream_);
}

// initial: the forces of t = 0 at set_system, which read v(0) from vel
// whatever the integrator and are never fused with a half-step.
template <class P>
void CudaDpdBackend<P>::enqueue_force(bool sums, bool initial) {
  const bool fuse = fuse_ && !initial;
  // Fused velocity Verlet keeps v(t + dt/2) in vel_pred, Groot-Warren in vel.
  const bool base_in_pred = !gw_;
  if (lj_) {
    LjForceArgs<P> a{view(), nlist_view(), sys_.box, lj_coeffs_.data(), mass_.data(),
                      sys_.ntypes(), sys_.body_force, params_.dt, ctl_.data(), partials_.data(),
                      fuse, base_in_pred, tpp_};
    compute_lj_forces<P>(a, sums, stream_);
  } else {
    DpdForceArgs<S4> a{view(), nlist_view(), sys_.box, pair_params_.data(), mass_.data(),
                       sys_.ntypes(), sys_.body_force, params_.dt, 1.0 / std::sqrt(params_.dt),
                       params_.seed, ctl_.data(), partials_.data(), base_in_pred};
    DpdForceConfig c;
    c.fast_math = variant_.pow == "fast";
    c.tea = tea_;
    c.fuse = fuse;
    c.sums = sums;
    c.predicted = !initial && (gw_ || fuse_);
    compute_dpd_forces<P>(a, c, stream_);
  }
  if (sums) reduce_partials(partials_.data(), force_blocks(), sums_d_.data(), stream_);
}

template <class P>
void CudaDpdBackend<P>::enqueue_first_half(const StepOpening& open) {
  if (nvt_) {
    ensure_nh_mv2();
    nose_hoover_first_half<S4>(view(), integrate_args(), thermostat_args(), ctl_.data(), open,
                               stream_);
    return;
  }
  if (langevin_) {
    langevin_first_half<S4>(view(), integrate_args(), thermostat_args(), ctl_.data(), stream_);
    return;
  }
  cuda::integrate_first_half<S4>(view(), integrate_args(), first_half_mode(), ctl_.data(), stream_);
}

template <class P>
void CudaDpdBackend<P>::enqueue_second_half() {
  if (nvt_) {
    nose_hoover_second_half<S4>(view(), integrate_args(), thermostat_args(), ke_partials_.data(),
                                ctl_.data(), stream_);
    nh_mv2_known_ = true;
    return;
  }
  if (!fuse_) cuda::integrate_second_half<S4>(view(), integrate_args(), ctl_.data(), stream_);
}

template <class P>
ControlArgs CudaDpdBackend<P>::control_args() const {
  ControlArgs c;
  const double hs = 0.5 * params_.skin;
  c.half_skin_sq = hs * hs;
  c.rebuild_every = params_.rebuild_every;
  c.sort_every = variant_.sort;
  c.seed = params_.seed;
  c.reorder = reorder_ != ReorderKind::none;
  c.tea = tea_;
  return c;
}

// The first half-step and the opening of the step (displacement check,
// step_control): one kernel for Nose-Hoover, which folds both in.
template <class P>
void CudaDpdBackend<P>::enqueue_step_start(bool graph, cudaGraphConditionalHandle hr) {
  if (nvt_) {
    enqueue_first_half(StepOpening{true, control_args(), hr, graph});
    return;
  }
  enqueue_first_half();
  enqueue_control(graph, hr);
}

template <class P>
void CudaDpdBackend<P>::enqueue_control(bool graph, cudaGraphConditionalHandle hr) {
  max_displacement<S4>(pos_.data(), last_pos_.data(), n_, sys_.box, ctl_.data(), stream_);
  step_control(ctl_.data(), control_args(), hr, graph, stream_);
}

// Rebuild driven from the host: grows and retries until nothing overflows.
template <class P>
void CudaDpdBackend<P>::host_rebuild(bool sort) {
  if (sort && reorder_ != ReorderKind::none) {
    enqueue_reorder();
    nh_mv2_known_ = false;  // the sum would now run in another order
  }
  for (int attempt = 0;; ++attempt) {
    enqueue_cells();
    enqueue_nlist();
    pull_ctl();
    if (!h_ctl_->abort) break;
    if (attempt > 20) throw std::runtime_error("cuda backend: neighbor list rebuild does not converge");
    const uint32_t cell_need = h_ctl_->cell_overflow, nl_need = h_ctl_->nlist_overflow;
    h_ctl_->abort = 0;
    h_ctl_->cell_overflow = 0;
    h_ctl_->nlist_overflow = 0;
    push_ctl();
    if (cell_need) grow_cells(cell_need);
    if (nl_need) grow_nlist(nl_need);
    if (ballot_ && !ballot_fits(nl_cap_))
      throw_input_error("neighbor list capacity ", nl_cap_,
                        " exceeds what nlist=ballot holds in shared memory; use nlist=atomic");
  }
}

template <class P>
void CudaDpdBackend<P>::host_step(bool sums) {
  enqueue_step_start(false, 0);
  pull_ctl();
  if (h_ctl_->rebuild) host_rebuild(h_ctl_->sort_due);
  enqueue_force(sums);
  enqueue_second_half();
}

template <class P>
void CudaDpdBackend<P>::build_graph(bool sums, cudaGraph_t& graph, cudaGraphExec_t& exec) {
  const cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  MESO_CUDA_CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle hr;
  MESO_CUDA_CHECK(cudaGraphConditionalHandleCreate(&hr, graph, 0, cudaGraphCondAssignDefault));

  auto last_node = [&](cudaGraphNode_t& node) {
    cudaStreamCaptureStatus st;
    const cudaGraphNode_t* deps = nullptr;
    size_t ndeps = 0;
    MESO_CUDA_CHECK(cudaStreamGetCaptureInfo(stream_, &st, nullptr, nullptr, &deps, nullptr, &ndeps));
    if (ndeps != 1) throw std::logic_error("graph capture: expected one leaf node");
    node = deps[0];
  };

  // Phase A: first half-step, displacement check, control.
  cudaGraphNode_t a_last;
  MESO_CUDA_CHECK(cudaStreamBeginCaptureToGraph(stream_, graph, nullptr, nullptr, 0, mode));
  enqueue_step_start(true, hr);
  last_node(a_last);
  MESO_CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));

  // Phase B: IF rebuild { sort_flag -> IF sort { reorder } -> cells -> nlist }.
  cudaGraphNode_t cond;
  cudaGraph_t body = add_if_node(graph, hr, &a_last, &cond);
  cudaGraphNode_t body_dep = nullptr;
  if (reorder_ != ReorderKind::none) {
    cudaGraphConditionalHandle hs;
    MESO_CUDA_CHECK(cudaGraphConditionalHandleCreate(&hs, body, 0, cudaGraphCondAssignDefault));
    cudaGraphNode_t flag;
    MESO_CUDA_CHECK(cudaStreamBeginCaptureToGraph(stream_, body, nullptr, nullptr, 0, mode));
    sort_flag_kernel<<<1, 1, 0, stream_>>>(ctl_.data(), hs);
    MESO_CUDA_CHECK(cudaGetLastError());
    last_node(flag);
    MESO_CUDA_CHECK(cudaStreamEndCapture(stream_, &body));
    cudaGraph_t sort_body = add_if_node(body, hs, &flag, &body_dep);
    MESO_CUDA_CHECK(cudaStreamBeginCaptureToGraph(stream_, sort_body, nullptr, nullptr, 0, mode));
    enqueue_reorder();
    MESO_CUDA_CHECK(cudaStreamEndCapture(stream_, &sort_body));
  }
  MESO_CUDA_CHECK(cudaStreamBeginCaptureToGraph(stream_, body, body_dep ? &body_dep : nullptr,
                                                nullptr, body_dep ? 1 : 0, mode));
  enqueue_cells();
  enqueue_nlist();
  MESO_CUDA_CHECK(cudaStreamEndCapture(stream_, &body));

  // Phase C: forces and the second half-step.
  MESO_CUDA_CHECK(cudaStreamBeginCaptureToGraph(stream_, graph, &cond, nullptr, 1, mode));
  enqueue_force(sums);
  enqueue_second_half();
  MESO_CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
  MESO_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
}

template <class P>
void CudaDpdBackend<P>::destroy_graph() {
  if (exec_) cudaGraphExecDestroy(exec_);
  if (exec_sums_) cudaGraphExecDestroy(exec_sums_);
  if (graph_) cudaGraphDestroy(graph_);
  if (graph_sums_) cudaGraphDestroy(graph_sums_);
  exec_ = exec_sums_ = nullptr;
  graph_ = graph_sums_ = nullptr;
}

// After an in-graph abort at step ctl->step: the first half-step and the
// control ran, the rebuild overflowed. Grow, rebuild and finish that step.
template <class P>
void CudaDpdBackend<P>::finish_step_after_abort(bool sums) {
  const bool sort = h_ctl_->sort_due;
  const uint32_t cell_need = h_ctl_->cell_overflow, nl_need = h_ctl_->nlist_overflow;
  h_ctl_->abort = 0;
  h_ctl_->cell_overflow = 0;
  h_ctl_->nlist_overflow = 0;
  h_ctl_->max_disp_bits = 0;  // the rebuild below resets the displacement reference
  push_ctl();
  if (cell_need) grow_cells(cell_need);
  if (nl_need) grow_nlist(nl_need);
  host_rebuild(sort);
  enqueue_force(sums);
  enqueue_second_half();
}

template <class P>
void CudaDpdBackend<P>::advance(uint64_t first_step, uint64_t nsteps, bool sums_on_last) {
  if (nsteps == 0) return;
  if (nvt_) ensure_nh_mv2();  // before a graph is captured: it holds no such launch
  timestep_ = first_step + nsteps - 1;  // the step numbers live on the device (ctl->step)
  set_step(first_step - 1);
  const uint64_t last = first_step + nsteps - 1;
  uint64_t next = first_step;  // next step to launch
  while (next <= last) {
    if (!use_graphs_) {
      host_step(sums_on_last && next == last);
      ++next;
      continue;
    }
    if (!exec_) {
      build_graph(false, graph_, exec_);
      build_graph(true, graph_sums_, exec_sums_);
    }
    for (; next <= last; ++next) {
      MESO_CUDA_CHECK(cudaGraphLaunch(sums_on_last && next == last ? exec_sums_ : exec_, stream_));
      ++graph_steps_;
    }
    pull_ctl();
    if (h_ctl_->abort) {
      const uint64_t failed = h_ctl_->step;
      finish_step_after_abort(sums_on_last && failed == last);
      next = failed + 1;
    }
  }
  if (sums_on_last) {
    fetch_sums();
  }
}

// ---- the pieces, one synchronous call each

template <class P>
void CudaDpdBackend<P>::build_cells() {
  // Cells and the list are built together on the device (the cell arrays
  // feed the list directly); build_neighbor_list() does both.
}

template <class P>
void CudaDpdBackend<P>::build_neighbor_list() {
  pull_ctl();
  const bool sort = reorder_ != ReorderKind::none && h_ctl_->steps_since_sort >= variant_.sort;
  host_rebuild(sort);
}

template <class P>
bool CudaDpdBackend<P>::neighbor_list_stale() {
  enqueue_control(false, 0);
  pull_ctl();
  return h_ctl_->rebuild;
}

template <class P>
void CudaDpdBackend<P>::compute_forces(uint64_t timestep, bool want_sums) {
  set_step(timestep);
  enqueue_force(want_sums);
  if (want_sums) {
    fetch_sums();
  }
  synchronize();
}

template <class P>
void CudaDpdBackend<P>::integrate_first_half() {
  enqueue_first_half();
  synchronize();
}

template <class P>
void CudaDpdBackend<P>::integrate_second_half() {
  enqueue_second_half();
  synchronize();
}

template <class P>
void CudaDpdBackend<P>::get_particles(ParticleData<double>& out) const {
  std::vector<S4> hp(n_), hv(n_), hf(n_);
  std::vector<uint32_t> ht(n_);
  std::vector<Image> hi(n_);
  MESO_CUDA_CHECK(cudaStreamSynchronize(stream_));
  MESO_CUDA_CHECK(cudaMemcpy(hp.data(), pos_.data(), n_ * sizeof(S4), cudaMemcpyDeviceToHost));
  MESO_CUDA_CHECK(cudaMemcpy(hv.data(), vel_.data(), n_ * sizeof(S4), cudaMemcpyDeviceToHost));
  MESO_CUDA_CHECK(cudaMemcpy(hf.data(), force_.data(), n_ * sizeof(S4), cudaMemcpyDeviceToHost));
  MESO_CUDA_CHECK(cudaMemcpy(ht.data(), tag_.data(), n_ * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  MESO_CUDA_CHECK(cudaMemcpy(hi.data(), image_.data(), n_ * sizeof(Image), cudaMemcpyDeviceToHost));
  std::vector<uint32_t> by_tag(n_);
  std::iota(by_tag.begin(), by_tag.end(), 0u);
  std::sort(by_tag.begin(), by_tag.end(), [&](uint32_t a, uint32_t b) { return ht[a] < ht[b]; });
  out.resize(n_);
  for (uint32_t k = 0; k < n_; ++k) {
    const uint32_t i = by_tag[k];
    out.position[k] = xyz(hp[i]);
    out.velocity[k] = xyz(hv[i]);
    out.force[k] = xyz(hf[i]);
    out.type[k] = type_of(hp[i]);
    out.tag[k] = ht[i];
    out.image[k] = hi[i];
  }
}

template <class P>
ThermoSample CudaDpdBackend<P>::thermo(uint64_t timestep) const {
  ParticleData<double> p;
  get_particles(p);
  ThermoSample t = compute_thermo(sys_, p, sums_, timestep);
  if (nvt_) {
    const IntegratorState st = integrator_state();
    const ThermostatArgs a = thermostat_args();
    t.thermostat_energy = a.dof * a.kT * (0.5 * a.tau * a.tau * st.xi * st.xi + st.eta);
  }
  return t;
}

template <class P>
NeighborStats CudaDpdBackend<P>::neighbor_stats() const {
  pull_ctl();
  std::vector<uint32_t> c(n_);
  MESO_CUDA_CHECK(cudaMemcpy(c.data(), nl_count_.data(), n_ * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  NeighborStats s;
  s.builds = h_ctl_->builds;
  s.dangerous_builds = h_ctl_->dangerous_builds;
  s.capacity = nl_cap_;
  s.max_neighbors = n_ ? *std::max_element(c.begin(), c.end()) : 0;
  s.mean_neighbors = n_ ? std::accumulate(c.begin(), c.end(), 0.0) / n_ : 0.0;
  return s;
}

template <class P>
std::vector<std::vector<uint32_t>> CudaDpdBackend<P>::neighbors_by_tag() const {
  MESO_CUDA_CHECK(cudaStreamSynchronize(stream_));
  std::vector<uint32_t> c(n_), idx(nl_idx_.size()), ht(n_);
  MESO_CUDA_CHECK(cudaMemcpy(c.data(), nl_count_.data(), n_ * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  MESO_CUDA_CHECK(cudaMemcpy(idx.data(), nl_idx_.data(), nl_idx_.bytes(), cudaMemcpyDeviceToHost));
  MESO_CUDA_CHECK(cudaMemcpy(ht.data(), tag_.data(), n_ * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  const NlistView nl = nlist_layout();
  std::vector<std::vector<uint32_t>> out(n_);
  for (uint32_t i = 0; i < n_; ++i) {
    if (ht[i] >= n_) throw std::logic_error("neighbors_by_tag needs tags 0..N-1");
    auto& l = out[ht[i]];
    for (uint32_t k = 0; k < c[i]; ++k) l.push_back(ht[idx[nl.at(i, k)]]);
    std::sort(l.begin(), l.end());
  }
  return out;
}

template <class P>
std::vector<std::vector<uint32_t>> CudaDpdBackend<P>::neighbor_rows() const {
  MESO_CUDA_CHECK(cudaStreamSynchronize(stream_));
  std::vector<uint32_t> c(n_), idx(nl_idx_.size());
  MESO_CUDA_CHECK(cudaMemcpy(c.data(), nl_count_.data(), n_ * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  MESO_CUDA_CHECK(cudaMemcpy(idx.data(), nl_idx_.data(), nl_idx_.bytes(), cudaMemcpyDeviceToHost));
  const NlistView nl = nlist_layout();
  std::vector<std::vector<uint32_t>> out(n_);
  for (uint32_t i = 0; i < n_; ++i)
    for (uint32_t k = 0; k < std::min(c[i], nl_cap_); ++k) out[i].push_back(idx[nl.at(i, k)]);
  return out;
}

template <class P>
std::size_t CudaDpdBackend<P>::device_bytes() const {
  return pos_.bytes() + vel_.bytes() + force_.bytes() + vel_pred_.bytes() + last_pos_.bytes() +
         tag_.bytes() + sig_.bytes() + image_.bytes() + pair_params_.bytes() + mass_.bytes() +
         ctl_.bytes() + cell_count_.bytes() + cell_start_.bytes() + cell_members_.bytes() +
         sc_keys_in_.bytes() + sc_keys_out_.bytes() + sc_vals_in_.bytes() + sc_temp_.bytes() +
         nl_idx_.bytes() + nl_count_.bytes() + ro_keys_in_.bytes() + ro_keys_out_.bytes() +
         ro_vals_.bytes() + ro_perm_.bytes() + ro_temp_.bytes() + ro_gather_.bytes() +
         partials_.bytes() + sums_d_.bytes();
}

template <class P>
std::map<std::string, KernelProfile> CudaDpdBackend<P>::profile_kernels(int repeats) {
  // Pieces are timed one at a time on the current state. Re-running the
  // half-steps moves the state on; callers profile after their timed runs.
  std::map<std::string, KernelProfile> out;
  cudaEvent_t e0, e1;
  MESO_CUDA_CHECK(cudaEventCreate(&e0));
  MESO_CUDA_CHECK(cudaEventCreate(&e1));
  auto time = [&](const char* name, double bytes, auto&& fn) {
    std::vector<double> t;
    for (int r = 0; r < repeats + 1; ++r) {
      MESO_CUDA_CHECK(cudaEventRecord(e0, stream_));
      fn();
      MESO_CUDA_CHECK(cudaEventRecord(e1, stream_));
      MESO_CUDA_CHECK(cudaEventSynchronize(e1));
      float ms = 0.f;
      MESO_CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
      if (r > 0) t.push_back(1e3 * ms);  // the first is warm-up
    }
    std::sort(t.begin(), t.end());
    out[name] = {t[t.size() / 2], bytes};
  };
  const double n = n_, s4 = sizeof(S4);
  std::vector<uint32_t> c(n_);
  MESO_CUDA_CHECK(cudaMemcpy(c.data(), nl_count_.data(), n_ * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  const double pairs = std::accumulate(c.begin(), c.end(), 0.0);
  set_step(h_ctl_->step);
  // Force: the minimum traffic is each particle's own pos, vel, tag (and
  // signature) once, its list once (count + entries) and its force once;
  // neighbor data is assumed to come from cache (the ideal).
  const double own = n * (2 * s4 + 4 + (tea_ ? 4 : 0) + 4 + s4 + (fuse_ ? 2 * s4 : 0));
  time("force", own + 4.0 * pairs, [&] { enqueue_force(false); });
  time("integrate_first_half", n * (5 * s4 + 2 * sizeof(Image)), [&] { enqueue_first_half(); });
  time("integrate_second_half", n * 3 * s4, [&] { enqueue_second_half(); });
  time("displacement", n * 2 * s4, [&] {
    max_displacement<S4>(pos_.data(), last_pos_.data(), n_, sys_.box, ctl_.data(), stream_);
  });
  time("cells", n * (s4 + 8), [&] { enqueue_cells(); });
  time("nlist", n * (s4 + 4) + 4.0 * pairs, [&] { enqueue_nlist(); });
  if (reorder_ != ReorderKind::none)
    time("reorder+rebuild", n * (2 * 5 * s4 + 16), [&] {
      enqueue_reorder();
      enqueue_cells();
      enqueue_nlist();
    });
  pull_ctl();
  if (h_ctl_->abort) throw std::runtime_error("profile_kernels: rebuild overflowed");
  MESO_CUDA_CHECK(cudaEventDestroy(e0));
  MESO_CUDA_CHECK(cudaEventDestroy(e1));
  return out;
}

std::unique_ptr<Backend> make_cuda_backend(const Variant& v) {
  if (v.precision == "double") return std::make_unique<CudaDpdBackend<PrecDouble>>(v);
  if (v.precision == "mixed") return std::make_unique<CudaDpdBackend<PrecMixed>>(v);
  if (v.precision == "single") return std::make_unique<CudaDpdBackend<PrecSingle>>(v);
  throw_input_error("variant precision=", v.precision,
                    " is not provided by the cuda backend: allowed values are double, mixed, single");
}

}  // namespace

void register_cuda_backend(BackendRegistry& registry) {
  registry.add("cuda", make_cuda_backend, [] { return device_count() > 0; });
}

}  // namespace meso::cuda
