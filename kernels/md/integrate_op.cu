// The integration-method operations of the CUDA backend:
//   integrate/vv, nve, gw   CudaVerlet: the velocity-Verlet kicks of
//                           integrate_verlet.cu (FirstHalfMode vv, vv_fused
//                           when the last force finishes the step, or gw);
//                           its first half also opens the step;
//   integrate/nvt           CudaNoseHoover: one kernel per half-step, the
//                           thermostat variables in StepControl; its first
//                           half also opens the step (folds_step_opening);
//   integrate/langevin      CudaLangevin: BAOAB first half, the vv kick second;
//   integrate/nve/aniso,    CudaAniso: translation and rotation of
//   integrate/langevin/aniso  orientational particles (integrate_aniso.cu);
//   integrate/berendsen(/aniso)  CudaBerendsen: leapfrog, the whole step in
//                           the first half (integrate_berendsen.cu).
// The synchronous halves (engine interface) enqueue and wait; the noise and
// the step number come from the device's StepControl (ctl->step + 1 is the
// step a first half advances).
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/cuda_operations.cuh"
#include "core/device_ops.cuh"
#include "md/integrate_aniso.cuh"
#include "md/integrate_berendsen.cuh"
#include "md/integrate_langevin.cuh"
#include "md/integrate_nose_hoover.cuh"
#include "meso/ops/communicator.hpp"
#include "md/integrate_verlet.cuh"
#include "meso/core/error.hpp"
#include "meso/ops/integration_method.hpp"
#include "meso/physics/tea.hpp"
#include "meso/physics/thermostats.hpp"
#include "md/thermostat_args.cuh"

namespace meso::cuda {
namespace {

template <class P>
class CudaMethod : public IntegrationMethodOp, public DeviceMethod {
 protected:
  using S4 = typename P::S4;

 public:
  void first_half(uint64_t) override {
    enqueue_first_half(nullptr);
    ctx_.synchronize();
  }
  void second_half(uint64_t) override {
    enqueue_second_half();
    ctx_.synchronize();
  }

 protected:
  explicit CudaMethod(CudaContext<P>& ctx) : DeviceMethod(ctx), ctx_(ctx) {}

  IntegrateArgs integrate_args() const {
    const CudaContext<P>& c = ctx_;
    return {c.sys.box, c.mass.data(), c.params.dt, c.params.lambda,
            physics::tea_seed_whitening(c.params.seed), c.tea, c.sys.wall.slit(),
            c.sys.shear_rate};
  }
  ThermostatArgs thermostat_args() const {
    const RunParams& p = ctx_.params;
    // g = 3N - 3, as the reference
    return {p.kT, p.tau, p.gamma, physics::nose_hoover_dof(ctx_.n), p.seed};
  }

  // n device doubles summed over the ranks: on the device by the
  // communicator's DeviceLinks (NCCL all-reduce on the stream), else
  // through the host (waits).
  void sum_over_ranks(const Communicator& comm, double* values, std::size_t n) {
    if (const DeviceLinks* links = comm.device_links()) {
      links->sum(values, n, ctx_.stream);
      return;
    }
    std::vector<double> local(n);
    MESO_CUDA_CHECK(cudaMemcpyAsync(local.data(), values, n * sizeof(double), cudaMemcpyDeviceToHost, ctx_.stream));
    ctx_.synchronize();
    for (double& x : local) x = comm.sum(x);
    // From pageable memory: staged before the call returns.
    MESO_CUDA_CHECK(cudaMemcpyAsync(values, local.data(), n * sizeof(double), cudaMemcpyHostToDevice, ctx_.stream));
    ctx_.synchronize();
  }

  CudaContext<P>& ctx_;
};

template <class P>
class CudaVerlet final : public CudaMethod<P> {
  using Base = CudaMethod<P>;
  using typename Base::S4;
  using Base::ctx_;

 public:
  CudaVerlet(CudaContext<P>& ctx, bool gw) : Base(ctx), gw_(gw) {
    // The forces read the prediction from vel_pred (allocated for gw at
    // set_system): the method must be the one RunParams names.
    if (gw != ctx.gw)
      throw_input_error("integrate/", gw ? "gw" : "vv",
                        " does not match the integrator of the run parameters");
  }
  bool second_half_fusable() const override { return true; }
  void set_second_half_fused(bool f) override { fused_ = f; }
  // The first-half kernel also records the displacement and opens the step
  // (integrate_verlet.cuh), as Nose-Hoover's does.
  bool folds_step_opening() const override { return true; }

  void enqueue_first_half(const StepOpening* open) override {
    cuda::integrate_first_half<S4>(ctx_.view(), this->integrate_args(), mode(), ctx_.ctl.data(),
                                   open ? *open : StepOpening{}, ctx_.stream);
  }
  void enqueue_second_half() override {
    if (!fused_)
      cuda::integrate_second_half<S4>(ctx_.view(), this->integrate_args(), ctx_.ctl.data(),
                                      ctx_.stream);
  }

 private:
  bool gw_;
  bool fused_ = false;
  FirstHalfMode mode() const {
    if (gw_) return FirstHalfMode::gw;
    return fused_ ? FirstHalfMode::vv_fused : FirstHalfMode::vv;
  }
};

template <class P>
class CudaNoseHoover final : public CudaMethod<P> {
  using Base = CudaMethod<P>;
  using typename Base::S4;
  using Base::ctx_;

 public:
  explicit CudaNoseHoover(CudaContext<P>& ctx) : Base(ctx) { ke_partials_.resize(ke_blocks(ctx.n)); }

  void before_capture() override { ensure_nh_mv2(); }
  bool folds_step_opening() const override { return true; }
  // Its kinetic energy is summed on the device inside the step (ke_partials_,
  // StepControl::nh). On several ranks each rank's share is summed over the
  // ranks in between (global_mv2), and the degrees of freedom are those of
  // every rank's particles.
  void set_communicator(const Communicator* comm) override {
    comm_ = comm && comm->size() > 1 ? comm : nullptr;
    n_total_ = 0;
  }

  void enqueue_first_half(const StepOpening* open) override {
    ensure_nh_mv2();
    nose_hoover_first_half<S4>(ctx_.view(), this->integrate_args(), thermostat(), ctx_.ctl.data(),
                               open ? *open : StepOpening{}, ctx_.stream);
  }
  void enqueue_second_half() override {
    fit_partials();
    nose_hoover_second_half<S4>(ctx_.view(), this->integrate_args(), thermostat(), ke_partials_.data(),
                                ctx_.ctl.data(), comm_ != nullptr, ctx_.stream);
    if (comm_) {
      global_mv2();
      nose_hoover_finish_second_half(ctx_.params.dt, thermostat(), ctx_.ctl.data(), ctx_.stream);
    }
    ctx_.nh_mv2_known = true;
  }

  // The thermostat variables live on the device (StepControl::nh).
  IntegratorState state() const override {
    ctx_.pull_ctl();
    return {ctx_.h_ctl->nh.xi, ctx_.h_ctl->nh.eta};
  }
  void set_state(const IntegratorState& st) override {
    ctx_.pull_ctl();
    ctx_.h_ctl->nh.xi = st.xi;
    ctx_.h_ctl->nh.eta = st.eta;
    ctx_.push_ctl();
  }
  double thermostat_energy() const override {
    const IntegratorState st = state();
    const ThermostatArgs a = thermostat();
    return physics::nose_hoover_energy(a.dof, a.kT, a.tau, st.xi, st.eta);
  }
  std::size_t device_bytes() const override { return ke_partials_.bytes(); }

 private:
  DeviceBuffer<double> ke_partials_;  // one double per block of the sum m v^2
  const Communicator* comm_ = nullptr;
  uint64_t n_total_ = 0;  // every rank's particles (several ranks; set at the first sum)

  ThermostatArgs thermostat() const {
    ThermostatArgs a = this->thermostat_args();
    if (comm_) a.dof = physics::nose_hoover_dof(n_total_);  // g = 3N - 3 of the whole system
    return a;
  }
  // Migration changes the local count: the partials follow it.
  void fit_partials() {
    if (ke_partials_.size() < ke_blocks(ctx_.n)) ke_partials_.resize(ke_blocks(ctx_.n) + ke_blocks(ctx_.n) / 4);
  }
  // ctl->nh.mv2 summed over the ranks.
  void global_mv2() { this->sum_over_ranks(*comm_, &ctx_.ctl.data()->nh.mv2, 1); }

  void ensure_nh_mv2() {
    if (ctx_.nh_mv2_known) return;
    if (comm_ && n_total_ == 0) n_total_ = uint64_t(comm_->sum(double(ctx_.n)) + 0.5);
    fit_partials();
    nose_hoover_store_mv2<S4>(ctx_.view(), ctx_.mass.data(), ke_partials_.data(), ctx_.ctl.data(),
                              ctx_.stream);
    if (comm_) global_mv2();
    ctx_.nh_mv2_known = true;
  }
};

template <class P>
class CudaLangevin final : public CudaMethod<P> {
  using Base = CudaMethod<P>;
  using typename Base::S4;
  using Base::ctx_;

 public:
  explicit CudaLangevin(CudaContext<P>& ctx) : Base(ctx) {}

  void enqueue_first_half(const StepOpening*) override {
    langevin_first_half<S4>(ctx_.view(), this->integrate_args(), this->thermostat_args(),
                            ctx_.ctl.data(), ctx_.stream);
  }
  // BAOAB's last B: the velocity-Verlet kick.
  void enqueue_second_half() override {
    cuda::integrate_second_half<S4>(ctx_.view(), this->integrate_args(), ctx_.ctl.data(),
                                    ctx_.stream);
  }
};

template <class P>
class CudaAniso final : public CudaMethod<P> {
  using Base = CudaMethod<P>;
  using typename Base::S4;
  using Base::ctx_;

 public:
  CudaAniso(CudaContext<P>& ctx, AnisoMethod m) : Base(ctx), method_(m) {
    if (!ctx.rotational)
      throw_input_error("integrate/", m == AnisoMethod::nve ? "nve" : "langevin",
                        "/aniso integrates orientational particles: the system has none");
  }
  void enqueue_first_half(const StepOpening*) override {
    aniso_first_half<S4>(ctx_.view(), ctx_.rotation(), this->integrate_args(), method_, this->thermostat_args(),
                         ctx_.params.gamma_r, ctx_.ctl.data(), ctx_.stream);
  }
  void enqueue_second_half() override {
    aniso_second_half<S4>(ctx_.view(), ctx_.rotation(), this->integrate_args(), ctx_.ctl.data(), ctx_.stream);
  }

 private:
  AnisoMethod method_;
};

template <class P>
class CudaBerendsen final : public CudaMethod<P> {
  using Base = CudaMethod<P>;
  using typename Base::S4;
  using Base::ctx_;

 public:
  CudaBerendsen(CudaContext<P>& ctx, bool rotation) : Base(ctx), rotation_(rotation) {
    if (rotation && !ctx.rotational)
      throw_input_error("integrate/berendsen/aniso integrates orientational particles: the system has none");
    sums_.resize(3);
  }
  // Several ranks: the sums are those of every rank's particles.
  void set_communicator(const Communicator* comm) override {
    comm_ = comm && comm->size() > 1 ? comm : nullptr;
    n_total_ = 0;
  }
  void enqueue_first_half(const StepOpening*) override {
    const BerendsenArgs b = args();
    if (partials_.size() < 3 * berendsen_blocks(ctx_.n)) partials_.resize(3 * berendsen_blocks(ctx_.n));
    const RotationalView<S4> rot = rotation_ ? ctx_.rotation() : RotationalView<S4>{};
    berendsen_sums<S4>(ctx_.view(), rot, this->integrate_args(), b, partials_.data(), sums_.data(), ctx_.ctl.data(),
                       ctx_.stream);
    if (comm_) this->sum_over_ranks(*comm_, sums_.data(), 3);
    berendsen_update<S4>(ctx_.view(), rot, this->integrate_args(), b, sums_.data(), ctx_.ctl.data(), ctx_.stream);
  }
  void enqueue_second_half() override {}
  std::size_t device_bytes() const override { return partials_.bytes() + sums_.bytes(); }

 private:
  bool rotation_;
  DeviceBuffer<double> partials_;  // 3 doubles per block
  DeviceBuffer<double> sums_;      // sum m v^2, sum L_k^2 / I_k, the rotational degrees of freedom
  const Communicator* comm_ = nullptr;
  uint64_t n_total_ = 0;  // every rank's particles (several ranks; set at the first step)

  BerendsenArgs args() {
    const RunParams& rp = ctx_.params;
    if (comm_ && n_total_ == 0) n_total_ = uint64_t(comm_->sum(double(ctx_.n)) + 0.5);
    return {rp.kT, rp.tau, rp.tau_r > 0.0 ? rp.tau_r : rp.tau, physics::nose_hoover_dof(comm_ ? n_total_ : ctx_.n),
            rotation_};
  }

};

}  // namespace

template <class P>
std::unique_ptr<Operation> make_cuda_berendsen(CudaContext<P>& ctx, bool rotation) {
  return std::make_unique<CudaBerendsen<P>>(ctx, rotation);
}
template <class P>
std::unique_ptr<Operation> make_cuda_aniso(CudaContext<P>& ctx, bool langevin) {
  return std::make_unique<CudaAniso<P>>(ctx, langevin ? AnisoMethod::langevin : AnisoMethod::nve);
}
template <class P>
std::unique_ptr<Operation> make_cuda_verlet(CudaContext<P>& ctx, bool gw) {
  return std::make_unique<CudaVerlet<P>>(ctx, gw);
}
template <class P>
std::unique_ptr<Operation> make_cuda_nose_hoover(CudaContext<P>& ctx) {
  return std::make_unique<CudaNoseHoover<P>>(ctx);
}
template <class P>
std::unique_ptr<Operation> make_cuda_langevin(CudaContext<P>& ctx) {
  return std::make_unique<CudaLangevin<P>>(ctx);
}

#define MESO_INSTANTIATE(P)                                                        \
  template std::unique_ptr<Operation> make_cuda_verlet(CudaContext<P>&, bool);    \
  template std::unique_ptr<Operation> make_cuda_nose_hoover(CudaContext<P>&);     \
  template std::unique_ptr<Operation> make_cuda_langevin(CudaContext<P>&);        \
  template std::unique_ptr<Operation> make_cuda_aniso(CudaContext<P>&, bool);     \
  template std::unique_ptr<Operation> make_cuda_berendsen(CudaContext<P>&, bool);
MESO_INSTANTIATE(PrecDouble)
MESO_INSTANTIATE(PrecMixed)
MESO_INSTANTIATE(PrecSingle)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
