// Reference bonded forces (GALAMOST's layout, HOOMD-blue's potentials): one
// "thread" per local particle walks its own rows of the per-particle bond and
// angle lists (make_bonded_lists, indexed by tag) and sums only its own share
// of each term, in row order: the force of a bond from both ends with
// bitwise opposite separations (Box::min_image(-d) == -min_image(d)), the
// force of an angle from all three participants, each evaluating the same
// angle from the same separations and keeping fa, fb or fc by its role. No
// atomics, no dependence on thread count or on the storage order (the rows
// are by tag; a tag -> index map is rebuilt each compute because `reorder`
// permutes the particles), so the result is deterministic.
//
// On several ranks the rows and the map run over the whole system's tags
// and the map holds the ghosts too: each rank sums its own particles' share
// of every bond, reading a partner across a rank face from its ghost (a
// bond shorter than the ghost layer, r_c + skin, has its partner there
// from one list build to the next), so no force goes back to an owner and
// a particle's bond terms are summed in the order they are on one rank.
// A partner that is neither here nor a ghost is an error naming the bond.
//
// Arithmetic is double whatever the storage precision (the reference is the
// truth; bonded terms are few). Energy and virial: each bond gives 1/2 to
// each end, each angle 1/3 to each participant, so the sums over particles
// are the sums over terms.
#include "meso/reference/bonded_force.hpp"

#include <cmath>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/ops/force.hpp"
#include "meso/physics/bonded.hpp"
#include "meso/physics/bonded_table.hpp"
#include "meso/core/topology.hpp"

namespace meso::reference {
namespace {

physics::BondForce<double> bond_force(const Topology& topo, const BondType& t, double rsq) {
  switch (t.kind) {
    case BondKind::fene: return physics::fene_bond<double>(rsq, t.fene);
    case BondKind::table: return physics::table_bond<double>(rsq, topo.bond_tables[t.table].view());
    case BondKind::harmonic: break;
  }
  return physics::harmonic_bond<double>(rsq, t.harmonic);
}

physics::AngleForce<double> angle_force(const Topology& topo, const AngleType& t, const Vec3d& r_ab,
                                        const Vec3d& r_cb) {
  return t.kind == AngleKind::table ? physics::table_angle<double>(r_ab, r_cb, topo.angle_tables[t.table].view())
                                    : physics::harmonic_angle<double>(r_ab, r_cb, t.harmonic);
}

template <class Real>
class CpuBondedForce final : public ForceOp {
 public:
  explicit CpuBondedForce(CpuContext<Real>& c)
      : c_(c),
        ntags_(tag_count(c.sys, c.p)),
        lists_(make_bonded_lists(c.sys.topology, ntags_)),
        listed_bonds_(c.sys.topology.bonds.size()) {}

  void compute(const ForceRequest& r) override {
    // Topologies only grow (the polymerize operation appends its bonds):
    // a new bond count means new rows.
    if (c_.sys.topology.bonds.size() != listed_bonds_) {
      ntags_ = tag_count(c_.sys, c_.p);
      lists_ = make_bonded_lists(c_.sys.topology, ntags_);
      listed_bonds_ = c_.sys.topology.bonds.size();
    }
    ParticleData<Real>& p = c_.p;
    const std::size_t n = p.n_local;
    const Box& box = c_.sys.box;
    const Topology& topo = c_.sys.topology;
    const bool ghosts = p.n_ghost > 0;
    if (ghosts) index_of_tag_.assign(ntags_, kAbsent);
    else index_of_tag_.resize(ntags_);
    for (std::size_t i = 0; i < p.size(); ++i) index_of_tag_[p.tag[i]] = static_cast<uint32_t>(i);
    if (ghosts) require_partners();
    const uint32_t* idx = index_of_tag_.data();
    const Vec3<Real>* pos = p.position.data();
    auto separation = [&](uint32_t tag_a, uint32_t tag_b) {
      return box.min_image(vec_cast<double>(pos[idx[tag_a]]) - vec_cast<double>(pos[idx[tag_b]]));
    };
    const bool want_sums = r.sums, overwrite = first();
    double energy = 0.0, virial = 0.0;
    bool out_of_bounds = false;
#pragma omp parallel for schedule(static) reduction(+ : energy, virial) reduction(|| : out_of_bounds)
    for (std::size_t i = 0; i < n; ++i) {
      const uint32_t t = p.tag[i];
      Vec3d fi{0.0, 0.0, 0.0};
      double ei = 0.0, wi = 0.0;
      for (uint32_t k = lists_.bond_start[t]; k < lists_.bond_start[t + 1]; ++k) {
        const Vec3d d = separation(t, lists_.bond_partner[k]);
        const double rsq = dot(d, d);
        const physics::BondForce<double> b = bond_force(topo, topo.bond_types[lists_.bond_type[k]], rsq);
        if (!b.ok) {
          out_of_bounds = true;
          continue;
        }
        fi += b.f_over_r * d;
        ei += 0.5 * b.energy;
        wi += 0.5 * b.f_over_r * rsq;
      }
      for (uint32_t k = lists_.angle_start[t]; k < lists_.angle_start[t + 1]; ++k) {
        const uint32_t* abc = &lists_.angle_tags[3 * std::size_t(k)];
        const physics::AngleForce<double> a = angle_force(topo, topo.angle_types[lists_.angle_type[k]],
                                                          separation(abc[0], abc[1]), separation(abc[2], abc[1]));
        fi += t == abc[0] ? a.fa : (t == abc[1] ? a.fb : a.fc);
        ei += a.energy / 3.0;
        wi += a.virial / 3.0;
      }
      p.force[i] = overwrite ? vec_cast<Real>(fi) : vec_cast<Real>(vec_cast<double>(p.force[i]) + fi);
      if (want_sums) {
        energy += ei;
        virial += wi;
      }
    }
    if (out_of_bounds) report_out_of_bounds(r.step, separation);
    if (want_sums) sums_ = {energy, virial};
  }
  PairSums sums() const override { return sums_; }

 private:
  static constexpr uint32_t kAbsent = UINT32_MAX;

  // Rows for every tag of the system: on several ranks the tags of the
  // locals and ghosts run over the whole system (System::tag_count).
  static uint64_t tag_count(const System& sys, const ParticleData<Real>& p) {
    return sys.tag_count ? sys.tag_count : p.n_local;
  }

  // Every partner of a local particle's bonds is here or a ghost.
  void require_partners() const {
    const ParticleData<Real>& p = c_.p;
    for (std::size_t i = 0; i < p.n_local; ++i) {
      const uint32_t t = p.tag[i];
      for (uint32_t k = lists_.bond_start[t]; k < lists_.bond_start[t + 1]; ++k)
        if (index_of_tag_[lists_.bond_partner[k]] == kAbsent)
          throw_input_error("the bond between tags ", t, " and ", lists_.bond_partner[k], " crosses a rank face ",
                            "farther than the ghost layer (r_c + skin) reaches: tag ", lists_.bond_partner[k],
                            " is neither on this rank nor one of its ghosts; give a larger skin or run on fewer ranks");
    }
  }

  CpuContext<Real>& c_;
  uint64_t ntags_;
  BondedLists lists_;
  std::size_t listed_bonds_;
  std::vector<uint32_t> index_of_tag_;
  PairSums sums_;

  // The first FENE bond (in topology order) at r >= R0, or tabulated bond
  // outside its table, named: there is no finite energy (or no table)
  // there, so the run cannot go on (HOOMD-blue: "bond.fene: bond out of
  // bounds").
  template <class Separation>
  [[noreturn]] void report_out_of_bounds(uint64_t step, const Separation& separation) const {
    const Topology& topo = c_.sys.topology;
    for (std::size_t k = 0; k < topo.bonds.size(); ++k) {
      const Bond& b = topo.bonds[k];
      const BondType& t = topo.bond_types[b.type];
      const Vec3d d = separation(b.a, b.b);
      if (bond_force(topo, t, dot(d, d)).ok) continue;
      const double r = std::sqrt(dot(d, d));
      if (t.kind == BondKind::table) {
        const BondedTable& table = topo.bond_tables[t.table];
        throw_input_error("bond.table: bond ", k, " (type ", t.name, ") between tags ", b.a, " and ", b.b,
                          " has r = ", r, " outside its table ", table.name, " [", table.x_min, ", ",
                          table.x_max(), "] (", table.source, ") at step ", step);
      }
      throw_input_error("bond.fene: bond out of bounds: bond ", k, " (type ", t.name, ") between tags ", b.a,
                        " and ", b.b, " has r = ", r, " >= R0 = ", t.fene.r_max, " at step ", step,
                        ": the start is overstretched or the run is unstable (try a smaller dt)");
    }
    throw_input_error("bond out of bounds at step ", step);
  }
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_bonded_force(CpuContext<Real>& c) {
  return std::make_unique<CpuBondedForce<Real>>(c);
}

template std::unique_ptr<Operation> make_bonded_force<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_bonded_force<float>(CpuContext<float>&);

}  // namespace meso::reference
