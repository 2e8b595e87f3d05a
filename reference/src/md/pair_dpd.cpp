// Reference DPD forces: the DPD evaluator of the pair-force loop
// (pair_force.hpp), calling the shared evaluator
// (engine/include/meso/physics/dpd_force.hpp) with the shared pair noise; the
// noise is symmetric in the pair, so F_ji == -F_ij bit for bit. Arithmetic is
// in double whatever the storage precision.
#include "meso/reference/dpd_force.hpp"

#include <cmath>

#include "meso/physics/dpd_force.hpp"
#include "meso/physics/dpd_wall.hpp"
#include "meso/physics/lees_edwards.hpp"
#include "meso/physics/pair_noise.hpp"
#include "meso/physics/tea.hpp"
#include "meso/reference/pair_force.hpp"

namespace meso::reference {
namespace {

template <class Real>
struct DpdEvaluator {
  using Arith = double;
  struct Particle {
    Vec3d v;
    const physics::DpdPairParams* row;
  };
  using Result = physics::DpdPairForce;

  const Vec3<Real>* velocity;  // those the dissipation uses (v, or the prediction)
  const uint32_t* type;
  const uint32_t* tag;
  const uint32_t* signature;
  const physics::DpdPairParams* table;
  uint32_t ntypes;
  double inv_sqrt_dt;
  uint64_t timestep;
  uint32_t seed;
  physics::RngKind rng;
  physics::TeaPairKey tea_key;
  physics::LeesEdwards le;  // the sheared images of this step (inactive: periodic)

  Particle particle(std::size_t i) const {
    return {vec_cast<double>(velocity[i]), table + type[i] * ntypes};
  }
  // image: j's Lees-Edwards image along z (0 without shear), whose velocity
  // is shifted by image gdot L_z.
  bool pair(const Particle& pi, uint32_t i, uint32_t j, const Vec3d& dr, double rsq,
            Result& out, int image) const {
    const physics::DpdPairParams& p = pi.row[type[j]];
    // rsq == 0 (coincident particles) has no direction: skip, as the
    // evaluator's e_ij is undefined there. At r == r_c every term vanishes.
    if (rsq >= p.rcut * p.rcut || rsq == 0.0) return false;
    const Vec3d dv = physics::le_relative_velocity(pi.v, vec_cast<double>(velocity[j]), image, le);
    const double xi =
        rng == physics::RngKind::philox
            ? physics::pair_gaussian_philox(tag[i], tag[j], timestep, seed)
            : physics::pair_gaussian_tea(tag[i], signature[i], tag[j], signature[j], tea_key);
    out = physics::dpd_pair_force(rsq, dot(dr, dv), xi, inv_sqrt_dt, p);
    return true;
  }
  static double virial(const Result& pf, double rsq) { return pf.f_over_r * rsq; }

  // The slit walls' force (physics/dpd_wall.hpp) from the velocities the
  // pair dissipation reads, with the wall noise of this step. It adds to no
  // energy or virial sum: the walls are outside the system.
  void add_particle_forces(CpuContext<Real>& c) const {
    const physics::DpdWall& w = c.sys.wall;
    if (!w.active() || !w.forces()) return;
    ParticleData<Real>& p = c.p;
    const std::size_t n = p.n_local;
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3d xi = physics::dpd_wall_noise(tag[i], timestep, seed);
      const Vec3d f = physics::dpd_wall_force(w, vec_cast<double>(p.position[i]), vec_cast<double>(velocity[i]),
                                              xi, inv_sqrt_dt);
      p.force[i] = vec_cast<Real>(vec_cast<double>(p.force[i]) + f);
    }
  }

  static DpdEvaluator prepare(CpuContext<Real>& c, const ForceRequest& r) {
    const ParticleData<Real>& p = c.p;
    // Groot-Warren forces read the prediction (after the first step).
    const bool predicted =
        c.params.integrator == Integrator::groot_warren && !r.initial && !c.v_pred.empty();
    const Vec3<Real>* v = predicted ? c.v_pred.data() : p.velocity.data();
    if (c.variant.rng == RngKind::tea)
      compute_tea_signatures(v, p.tag.data(), p.size(), c.params.seed, c.signature);  // ghosts too
    DpdEvaluator ev;
    ev.velocity = v;
    ev.type = p.type.data();
    ev.tag = p.tag.data();
    ev.signature = c.signature.data();
    ev.table = c.sys.template pair_table<physics::DpdPairParams>().data().data();
    ev.ntypes = c.sys.ntypes();
    ev.inv_sqrt_dt = 1.0 / std::sqrt(c.params.dt);
    ev.timestep = r.step;
    ev.seed = c.params.seed;
    ev.rng = c.variant.rng;
    ev.tea_key = physics::tea_pair_key(r.step, c.params.seed);
    ev.le = c.sys.lees_edwards(double(r.step) * c.params.dt);
    return ev;
  }
};

}  // namespace

template <class Real>
void compute_tea_signatures(const Vec3<Real>* velocity, const uint32_t* tag, std::size_t n,
                            uint32_t seed, std::vector<uint32_t>& out) {
  out.resize(n);
  const uint32_t whitening = physics::tea_seed_whitening(seed);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i)
    out[i] = physics::tea_signature_whitened(tag[i], static_cast<float>(velocity[i].x),
                                             static_cast<float>(velocity[i].y),
                                             static_cast<float>(velocity[i].z), whitening);
}

template <class Real>
std::unique_ptr<Operation> make_dpd_force(CpuContext<Real>& c) {
  return std::make_unique<CpuPairForce<Real, DpdEvaluator<Real>>>(c);
}

template void compute_tea_signatures<double>(const Vec3<double>*, const uint32_t*, std::size_t,
                                             uint32_t, std::vector<uint32_t>&);
template void compute_tea_signatures<float>(const Vec3<float>*, const uint32_t*, std::size_t,
                                            uint32_t, std::vector<uint32_t>&);
MESO_REFERENCE_PAIR_STYLE(dpd, make_dpd_force);

}  // namespace meso::reference
