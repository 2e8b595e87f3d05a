// The reference pair loop of orientational particles: forces and torques
// (HOOMD-blue's AnisoPotentialPair), templated on an evaluator
// (pair_gay_berne.cpp, pair_ssd.cpp, pair_janus.cpp). One pass per particle over its
// full neighbor list; each pair is evaluated in one canonical order, from
// the particle with the lower tag, by both of its particles: the force on
// the other is the exact negative and each takes its own torque from the
// same evaluation. So F_ji == -F_ij bitwise, the torques of a pair balance
// its moment to rounding, and the loop needs no atomics (deterministic under
// OpenMP). Arithmetic is in double whatever the storage.
//
// An evaluator derives from AnisoPairTable<Real, Params> (below: the
// particles, the style's table, rcut_sq, params, a default broken) and provides
//   bool pair(i, j, dr, Result&) const;      dr = r_i - r_j (minimum image);
//                                            false: the pair is broken (the
//                                            loop names it after the pass)
//   static std::string broken(tag_i, tag_j); the InputError's message, where
//                                            a pair can be refused
// with Result holding force_i, torque_i, torque_j, energy and virial.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "meso/core/error.hpp"
#include "meso/ops/force.hpp"
#include "meso/reference/cpu_context.hpp"
#include "meso/reference/pair_force.hpp"

namespace meso::reference {

// The base of an evaluator: the particles (their types and orientations),
// the style's parameters of every type pair and their cutoffs.
template <class Real, class P>
struct AnisoPairTable {
  using Params = P;
  const ParticleData<Real>* p;
  const Params* table;
  uint32_t ntypes;

  double rcut_sq(uint32_t a, uint32_t b) const {
    const double rc = table[a * ntypes + b].rcut;
    return rc * rc;
  }
  // The parameters of the pair of particles i and j.
  const Params& params(std::size_t i, std::size_t j) const { return table[p->type[i] * ntypes + p->type[j]]; }
  static std::string broken(uint32_t, uint32_t) { return std::string(Params::kStyle) + " pair refused"; }
};

template <class Real, class Evaluator>
class CpuAnisoPairForce final : public ForceOp {
 public:
  explicit CpuAnisoPairForce(CpuContext<Real>& c) : c_(c) {}

  void compute(const ForceRequest& r) override {
    ParticleData<Real>& p = c_.p;
    const Box box = c_.sys.box;
    const Evaluator ev{{&c_.p, c_.sys.template pair_table<typename Evaluator::Params>().data().data(),
                        c_.sys.ntypes()}};
    const bool overwrite = first();
    const bool want = r.sums;
    std::atomic<uint64_t> broken{UINT64_MAX};  // (tag_i << 32 | tag_j) of a broken pair
    double energy = 0.0, virial = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : energy, virial)
    for (std::size_t i = 0; i < p.n_local; ++i) {
      const Vec3d ri = vec_cast<double>(p.position[i]);
      Vec3d fi{0, 0, 0}, ti{0, 0, 0};
      double ei = 0.0, wi = 0.0;
      const uint32_t* nb = c_.nlist.neighbors(i);
      const uint32_t count = c_.nlist.count(i);
      for (uint32_t k = 0; k < count; ++k) {
        const uint32_t j = nb[k];
        const Vec3d dr = box.min_image(ri - vec_cast<double>(p.position[j]));
        const double rsq = dot(dr, dr);
        if (rsq == 0.0 || !(rsq < ev.rcut_sq(p.type[i], p.type[j]))) continue;
        const bool lower = p.tag[i] < p.tag[j];
        typename Evaluator::Result pr;
        if (!(lower ? ev.pair(i, j, dr, pr) : ev.pair(j, i, -1.0 * dr, pr))) {
          broken.store((uint64_t(p.tag[i]) << 32) | p.tag[j], std::memory_order_relaxed);
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
    if (const uint64_t bad = broken.load(); bad != UINT64_MAX)
      throw_input_error(Evaluator::broken(uint32_t(bad >> 32), uint32_t(bad & 0xffffffffu)));
    if (want) sums_ = {energy, virial};
    if (c_.sys.body_force.active()) add_body_force(c_);
  }
  PairSums sums() const override { return sums_; }

 private:
  CpuContext<Real>& c_;
  PairSums sums_;
};

// The reference force of the orientational style NAME over the evaluator
// template EVALUATOR<Real>, registered (MESO_REFERENCE_PAIR_STYLE).
#define MESO_REFERENCE_ANISO_PAIR_STYLE(NAME, EVALUATOR)                        \
  template <class Real>                                                        \
  std::unique_ptr<Operation> make_pair_force_##NAME(CpuContext<Real>& c) {     \
    return std::make_unique<CpuAnisoPairForce<Real, EVALUATOR<Real>>>(c);     \
  }                                                                            \
  MESO_REFERENCE_PAIR_STYLE(NAME, make_pair_force_##NAME)

}  // namespace meso::reference
