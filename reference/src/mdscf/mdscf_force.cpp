// The reference of the MD-SCF field (meso/core/mdscf_field.hpp, steps 1-5 and the
// per-step interpolation). Everything in double whatever the storage
// precision: the reference is the truth the CUDA gather and scatter
// variants are held to.
//
// The field is updated at the initial compute and at every step that is a
// multiple of update_every (GALAMOST's quasi-instantaneous field: between
// updates the particles move in the last field); forces are interpolated
// from the stored vertex gradients at every step.
#include "meso/reference/mdscf_force.hpp"

#include <cmath>
#include <vector>

#include "meso/ops/field.hpp"
#include "meso/physics/mdscf.hpp"

namespace meso::reference {
namespace {

template <class Real>
class CpuMdscfForce final : public MdscfFieldOp {
 public:
  explicit CpuMdscfForce(CpuContext<Real>& c) : c_(c), f_(c.sys.mdscf) {
    g_ = {f_.nx, f_.ny, f_.nz};
    h_ = f_.spacing(c.sys.box);
    lo_ = c.sys.box.lo();
    const uint32_t nt = c.sys.ntypes();
    // The composition list: only types with particles carry a density and a
    // potential (GALAMOST's list of types with non-zero density derivatives).
    std::vector<uint64_t> count(nt, 0);
    for (std::size_t i = 0; i < c.p.n_local; ++i) ++count[c.p.type[i]];
    slot_of_type_.assign(nt, UINT32_MAX);
    for (uint32_t t = 0; t < nt; ++t)
      if (count[t]) {
        slot_of_type_[t] = static_cast<uint32_t>(types_.size());
        types_.push_back(t);
      }
    const uint32_t na = static_cast<uint32_t>(types_.size());
    chi_.resize(std::size_t(na) * na);
    for (uint32_t a = 0; a < na; ++a)
      for (uint32_t b = 0; b < na; ++b) chi_[a * na + b] = f_.chi[types_[a] * nt + types_[b]];
    const std::size_t nv = g_.size();
    phi_.assign(na * nv, 0.0);
    filtered_.assign(na * nv, 0.0);
    pot_.assign(na * nv, 0.0);
    grad_.assign(na * nv, Vec3d{0, 0, 0});
    scratch_.assign(nv, 0.0);
    taps_[0] = physics::gaussian_filter_taps(f_.filter_sigma, h_.x, g_.nx);
    taps_[1] = physics::gaussian_filter_taps(f_.filter_sigma, h_.y, g_.ny);
    taps_[2] = physics::gaussian_filter_taps(f_.filter_sigma, h_.z, g_.nz);
  }

  void compute(const ForceRequest& r) override {
    if (r.initial || updates_ == 0 || r.step % f_.update_every == 0) update_field(r.step);
    ParticleData<Real>& p = c_.p;
    const std::size_t n = p.n_local;
    const bool overwrite = first();
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
      const physics::CicStencil s = physics::cic_stencil(vec_cast<double>(p.position[i]), lo_, h_, g_);
      const Vec3d fi = physics::cic_force(s, &grad_[std::size_t(slot_of_type_[p.type[i]]) * g_.size()]);
      p.force[i] = overwrite ? vec_cast<Real>(fi) : vec_cast<Real>(vec_cast<double>(p.force[i]) + fi);
    }
    if (r.sums) sums_ = {energy_, 0.0};
  }
  PairSums sums() const override { return sums_; }

  void snapshot(MdscfSnapshot& out) const override {
    out.types = types_;
    out.phi = phi_;
    out.potential = pot_;
    out.updates = updates_;
  }

 private:
  CpuContext<Real>& c_;
  const MdscfField& f_;
  physics::GridShape g_{};
  Vec3d h_{}, lo_{};
  std::vector<uint32_t> types_, slot_of_type_;
  std::vector<double> chi_;  // over the composition list
  std::vector<double> phi_, filtered_, pot_, scratch_;
  std::vector<Vec3d> grad_;
  std::vector<double> taps_[3];
  double energy_ = 0.0;
  uint64_t updates_ = 0;
  PairSums sums_;

  // f <- G * f: three periodic separable passes (a no-op without a filter).
  void filter(double* f) {
    if (taps_[0].size() == 1 && taps_[1].size() == 1 && taps_[2].size() == 1) return;
    double* in = f;
    double* out = scratch_.data();
    for (int axis = 0; axis < 3; ++axis) {
      const std::vector<double>& t = taps_[axis];
      for (uint32_t k = 0; k < g_.nz; ++k)
        for (uint32_t j = 0; j < g_.ny; ++j)
          for (uint32_t i = 0; i < g_.nx; ++i)
            out[g_.index(i, j, k)] =
                physics::filter_axis_at(in, i, j, k, axis, t.data(), static_cast<uint32_t>(t.size()), g_);
      std::swap(in, out);
    }
    // Three passes: the result is in scratch_; copy it back.
    for (std::size_t v = 0; v < g_.size(); ++v) f[v] = in[v];
  }

  void update_field(uint64_t step) {
    const ParticleData<Real>& p = c_.p;
    // 0. The grid's origin for this update (and the forces until the next).
    lo_ = c_.sys.box.lo();
    if (f_.grid_shift) lo_ += physics::mdscf_grid_shift(step, c_.params.seed, h_);
    const std::size_t nv = g_.size();
    const uint32_t na = static_cast<uint32_t>(types_.size());
    // 1. phi_K = rho_K / rho0, scattered in storage order.
    const double per_particle = 1.0 / (h_.x * h_.y * h_.z * f_.rho0);
    std::fill(phi_.begin(), phi_.end(), 0.0);
    for (std::size_t i = 0; i < p.n_local; ++i) {
      const physics::CicStencil s = physics::cic_stencil(vec_cast<double>(p.position[i]), lo_, h_, g_);
      double* phi = &phi_[std::size_t(slot_of_type_[p.type[i]]) * nv];
      for (int c = 0; c < 8; ++c) phi[s.vertex[c]] += s.weight[c] * per_particle;
    }
    // 2. The filtered densities.
    filtered_ = phi_;
    for (uint32_t a = 0; a < na; ++a) filter(&filtered_[a * nv]);
    // 3. The potential and the energy at each vertex.
    std::vector<double> local(na);
    double e = 0.0;
    for (std::size_t v = 0; v < nv; ++v) {
      for (uint32_t a = 0; a < na; ++a) local[a] = filtered_[a * nv + v];
      for (uint32_t a = 0; a < na; ++a)
        pot_[a * nv + v] = physics::mdscf_potential(a, local.data(), chi_.data(), na, f_.inv_kappa);
      e += physics::mdscf_energy_density(local.data(), chi_.data(), na, f_.inv_kappa);
    }
    energy_ = e * f_.rho0 * h_.x * h_.y * h_.z;
    // 4. The second filter pass, 5. the vertex gradients.
    for (uint32_t a = 0; a < na; ++a) {
      double* pot = &pot_[a * nv];
      filter(pot);
      Vec3d* grad = &grad_[a * nv];
      for (uint32_t k = 0; k < g_.nz; ++k)
        for (uint32_t j = 0; j < g_.ny; ++j)
          for (uint32_t i = 0; i < g_.nx; ++i) grad[g_.index(i, j, k)] = physics::grid_gradient(pot, i, j, k, h_, g_);
    }
    ++updates_;
  }
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_mdscf_force(CpuContext<Real>& c) {
  return std::make_unique<CpuMdscfForce<Real>>(c);
}

template std::unique_ptr<Operation> make_mdscf_force<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_mdscf_force<float>(CpuContext<float>&);

}  // namespace meso::reference
