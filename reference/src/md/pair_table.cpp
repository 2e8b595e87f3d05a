// Reference tabulated pair forces: the table evaluator of the pair-force
// loop (pair_force.hpp), calling the shared evaluator
// (engine/include/meso/physics/table_force.hpp) on the table of each type
// pair (System::table_of; -1: no interaction). The spline is evaluated in
// double whatever the storage; single storage rounds the result once.
//
// A pair closer than its table's r_min is outside the table: the loop skips
// it and the operation throws InputError after the pass, naming the table
// and the distance (LAMMPS's "Pair distance < table inner cutoff"): a run
// that gets there is not extrapolated.
#include <atomic>
#include <cmath>
#include <limits>

#include "meso/core/error.hpp"
#include "meso/physics/table_force.hpp"
#include "meso/reference/pair_force.hpp"

namespace meso::reference {
namespace {

template <class Real>
struct TableEvaluator {
  using Arith = Real;
  struct Particle {
    const int32_t* row;
  };
  using Result = physics::TablePairForce<Real>;

  const uint32_t* type;
  const int32_t* table_of;
  uint32_t ntypes;
  const std::vector<physics::TableView<double>>* views;
  const System* sys;
  // The closest pair below its table's r_min (squared; +inf when none), and
  // its table: written by any thread, so kept as bits in an atomic.
  std::atomic<double>* closest;
  std::atomic<int32_t>* closest_table;

  Particle particle(std::size_t i) const { return {table_of + type[i] * ntypes}; }
  bool pair(const Particle& pi, uint32_t, uint32_t j, const Vec3<Real>&, Real rsq, Result& out) const {
    const int32_t k = pi.row[type[j]];
    if (k < 0) return false;
    const physics::TableView<double>& t = (*views)[k];
    const double z = double(rsq);
    if (!(z < t.z_max)) return false;
    if (z < t.z_min) {
      double seen = closest->load(std::memory_order_relaxed);
      while (z < seen && !closest->compare_exchange_weak(seen, z, std::memory_order_relaxed)) {
      }
      if (z <= closest->load(std::memory_order_relaxed)) closest_table->store(k, std::memory_order_relaxed);
      return false;
    }
    const physics::TablePairForce<double> f = physics::table_pair_force(z, t);
    out = {Real(f.f_over_r), Real(f.energy), Real(f.virial)};
    return true;
  }
  static double virial(const Result& pf, Real) { return static_cast<double>(pf.virial); }

  // After the pass: a pair below its table's range is an error.
  void check() const {
    const double z = closest->load();
    if (!(z < std::numeric_limits<double>::infinity())) return;
    const PairPotentialTable& t = sys->pair.as<TabulatedPairs>().tables[closest_table->load()];
    throw_input_error("a pair came to r = ", std::sqrt(z), ", below the range of table ", t.name, " (",
                      t.source.empty() ? "built in code" : t.source, ", r_min = ", t.r_min,
                      "): tables are not extrapolated; extend the table to shorter r");
  }
};

template <class Real>
class TableForce final : public ForceOp {
 public:
  explicit TableForce(CpuContext<Real>& c) : c_(c) {
    for (const PairPotentialTable& t : style().tables) views_.push_back(t.view());
  }
  void compute(const ForceRequest& r) override {
    closest_.store(std::numeric_limits<double>::infinity());
    closest_table_.store(-1);
    const TableEvaluator<Real> ev{c_.p.type.data(), style().table_of.data().data(), c_.sys.ntypes(), &views_,
                                  &c_.sys, &closest_, &closest_table_};
    ParticleData<Real>& p = c_.p;
    const PairSums s = accumulate_pair_forces(c_.sys.box, p.position.data(), p.n_local, c_.nlist, r.sums, first(),
                                              ev, p.force.data());
    ev.check();
    if (r.sums) sums_ = s;
    if (c_.sys.body_force.active()) add_body_force(c_);
  }
  PairSums sums() const override { return sums_; }

 private:
  const TabulatedPairs& style() const { return c_.sys.pair.template as<TabulatedPairs>(); }

  CpuContext<Real>& c_;
  std::vector<physics::TableView<double>> views_;
  std::atomic<double> closest_{0.0};
  std::atomic<int32_t> closest_table_{-1};
  PairSums sums_;
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_table_force(CpuContext<Real>& c) {
  return std::make_unique<TableForce<Real>>(c);
}

MESO_REFERENCE_PAIR_STYLE(table, make_table_force);

}  // namespace meso::reference
