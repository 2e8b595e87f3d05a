// Reference Gay-Berne forces and torques. One pass per particle over its
// full neighbor list, like the isotropic pair loop (pair_force.hpp), but
// each pair is evaluated in one canonical order, from the particle with the
// lower tag, by both of its particles: the force on the other is the exact
// negative and each takes its own torque from the same evaluation. So
// F_ji == -F_ij bitwise, the torques of a pair balance its moment to
// rounding, and the loop needs no atomics (deterministic under OpenMP).
//
// Arithmetic is in double whatever the storage (single storage rounds the
// result once). A pair whose cores interpenetrate (|r| <= sigma - sigma0,
// where the potential has its pole) is an error named after the pass.
#include "meso/reference/gay_berne_force.hpp"

#include <atomic>
#include <cstdint>

#include "meso/error.hpp"
#include "meso/ops/force.hpp"
#include "meso/physics/gay_berne.hpp"
#include "meso/reference/cpu_context.hpp"
#include "meso/reference/pair_force.hpp"

namespace meso::reference {
namespace {

template <class Real>
class CpuGayBerneForce final : public ForceOp {
 public:
  explicit CpuGayBerneForce(CpuContext<Real>& c) : c_(c) {}

  void compute(const ForceRequest& r) override {
    ParticleData<Real>& p = c_.p;
    const Box box = c_.sys.box;
    const physics::GayBerneParams* table = c_.sys.gay_berne.data().data();
    const uint32_t ntypes = c_.sys.ntypes();
    const bool overwrite = first();
    const bool want = r.sums;
    std::atomic<uint64_t> overlap{UINT64_MAX};  // (tag_i << 32 | tag_j) of a pair that overlapped
    double energy = 0.0, virial = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : energy, virial)
    for (std::size_t i = 0; i < p.n_local; ++i) {
      const Vec3d ri = vec_cast<double>(p.position[i]);
      const Vec3d ui = physics::body_axis_z(quat_cast<double>(p.orientation[i]));
      const physics::GayBerneParams* row = table + p.type[i] * ntypes;
      Vec3d fi{0, 0, 0}, ti{0, 0, 0};
      double ei = 0.0, wi = 0.0;
      const uint32_t* nb = c_.nlist.neighbors(i);
      const uint32_t count = c_.nlist.count(i);
      for (uint32_t k = 0; k < count; ++k) {
        const uint32_t j = nb[k];
        const physics::GayBerneParams& prm = row[p.type[j]];
        const Vec3d dr = box.min_image(ri - vec_cast<double>(p.position[j]));
        const double rsq = dot(dr, dr);
        if (rsq == 0.0 || !(rsq < prm.rcut * prm.rcut)) continue;
        const Vec3d uj = physics::body_axis_z(quat_cast<double>(p.orientation[j]));
        const bool lower = p.tag[i] < p.tag[j];
        const physics::GayBernePair pr =
            lower ? physics::gay_berne_pair(dr, ui, uj, prm) : physics::gay_berne_pair(-1.0 * dr, uj, ui, prm);
        if (pr.overlap) {
          overlap.store((uint64_t(p.tag[i]) << 32) | p.tag[j], std::memory_order_relaxed);
          continue;
        }
        if (lower) {
          fi += pr.force_i;
          ti += pr.torque_i;
        } else {
          fi -= pr.force_i;
          ti += pr.torque_j;
        }
        if (want) {
          ei += 0.5 * pr.energy;  // each pair is visited from both sides
          wi += 0.5 * pr.virial;
        }
      }
      p.force[i] = overwrite ? vec_cast<Real>(fi) : vec_cast<Real>(vec_cast<double>(p.force[i]) + fi);
      p.torque[i] = overwrite ? vec_cast<Real>(ti) : vec_cast<Real>(vec_cast<double>(p.torque[i]) + ti);
      energy += ei;
      virial += wi;
    }
    if (const uint64_t bad = overlap.load(); bad != UINT64_MAX)
      throw_input_error("Gay-Berne particles ", bad >> 32, " and ", bad & 0xffffffffu,
                        " overlap (|r| <= sigma(orientations) - sigma0, the pole of the potential): the "
                        "configuration or the time step is broken");
    if (want) sums_ = {energy, virial};
    if (c_.sys.body_force.active()) add_body_force(c_);
  }
  PairSums sums() const override { return sums_; }

 private:
  CpuContext<Real>& c_;
  PairSums sums_;
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_gay_berne_force(CpuContext<Real>& c) {
  return std::make_unique<CpuGayBerneForce<Real>>(c);
}

template std::unique_ptr<Operation> make_gay_berne_force<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_gay_berne_force<float>(CpuContext<float>&);

}  // namespace meso::reference
