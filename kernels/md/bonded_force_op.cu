// The `bonded` operation of the CUDA backend (also registered as
// `bonded/table`, the name a topology with tables asks for): the rows of
// make_bonded_lists, the bond and angle types and the bond and angle
// tables (meso/tables/bonded_table.hpp: their coefficients in the kernel's
// arithmetic), uploaded once; each compute scatters the tag -> index map
// and runs the bonded kernel (bonded_force.cu), adding to the net force the
// pair force wrote (or writing it with pair style none). Enqueueing needs no
// host synchronization, so the step graph captures it.
//
// A FENE bond at r >= R0, or a tabulated bond outside its table, stops the
// loop on the device (ctl->abort, see bonded_force.cu); compute() and,
// after a batch of steps, raise_if_stopped() throw the reference's
// InputError (reference/src/md/bonded_force.cpp, the same text) naming the
// first such bond in topology order and the step.
#include <cmath>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "md/bonded_force.cuh"
#include "core/cuda_operations.cuh"
#include "core/device_ops.cuh"
#include "core/host_readback.cuh"
#include "meso/cuda/check.hpp"
#include "meso/core/error.hpp"
#include "meso/ops/force.hpp"
#include "meso/tables/bonded_table.hpp"
#include "meso/core/topology.hpp"

namespace meso::cuda {
namespace {

template <class P>
class CudaBondedForce final : public ForceOp, public DeviceForce {
  using S4 = typename P::S4;
  using A = typename P::A;

 public:
  bool decomposable() const override { return false; }  // its tag map holds the local particles only
  explicit CudaBondedForce(CudaContext<P>& ctx) : DeviceForce(ctx), ctx_(ctx) {
    const Topology& topo = ctx.sys.topology;
    const BondedLists l = make_bonded_lists(topo, ctx.n);
    // The topology index of each bond entry: every row keeps the topology's
    // order, so filling the rows again bond by bond meets the entries in
    // the order make_bonded_lists wrote them.
    std::vector<uint32_t> bond_id(l.bond_partner.size());
    std::vector<uint32_t> fill(l.bond_start.begin(), l.bond_start.end() - 1);
    for (std::size_t k = 0; k < topo.bonds.size(); ++k) {
      const Bond& b = topo.bonds[k];
      for (auto [self, other] : {std::pair{b.a, b.b}, std::pair{b.b, b.a}}) {
        const uint32_t at = fill[self]++;
        if (l.bond_partner[at] != other || l.bond_type[at] != b.type)
          throw std::logic_error("cuda bonded: the bond rows are not in topology order");
        bond_id[at] = uint32_t(k);
      }
    }
    std::vector<DeviceBondType> bt;
    for (const BondType& t : topo.bond_types) {
      const uint32_t kind = t.kind == BondKind::table ? kBondTable : t.kind == BondKind::fene ? kBondFene : kBondHarmonic;
      bt.push_back({kind, t.kind == BondKind::table ? t.table : kNoTable, t.harmonic, t.fene});
    }
    std::vector<DeviceAngleType> at;
    for (const AngleType& t : topo.angle_types)
      at.push_back({t.kind == AngleKind::table ? t.table : kNoTable, t.harmonic});
    upload_tables(topo.bond_tables, bond_coeff_, bond_tables_);
    upload_tables(topo.angle_tables, angle_coeff_, angle_tables_);
    upload(bond_start_, l.bond_start);
    upload(bond_partner_, l.bond_partner);
    upload(bond_type_, l.bond_type);
    upload(bond_id_, bond_id);
    upload(angle_start_, l.angle_start);
    upload(angle_tags_, l.angle_tags);
    upload(angle_type_, l.angle_type);
    upload(bond_types_, bt);
    upload(angle_types_, at);
    bond_entries_ = double(l.bond_partner.size());
    angle_entries_ = double(l.angle_type.size());
    index_of_tag_.resize(ctx.n);
    partials_.resize(2 * std::size_t(bonded_blocks(ctx.n)));
    sums_d_.resize(2);
    words_.resize(2);  // [0] last_block's counter, [1] the fault
    MESO_CUDA_CHECK(cudaMemset(sums_d_.data(), 0, sums_d_.bytes()));
    clear_words();
  }

  // Synchronous: forces of the current positions (r.step names a fault), the
  // sums fetched when asked.
  void compute(const ForceRequest& r) override {
    enqueue(r);
    if (fault() != kNoBondFault) raise(r.step);
    if (r.sums) fetch_sums();
  }
  PairSums sums() const override { return sums_; }

  // r.initial needs nothing: bonded forces read no velocity.
  void enqueue(const ForceRequest& r) override {
    if (ctx_.n == 0) return;
    const CudaContext<P>& c = ctx_;
    BondedArgs<P> a{ctx_.pos.data(),
                    ctx_.force.data(),
                    ctx_.tag.data(),
                    c.n,
                    index_of_tag_.data(),
                    {bond_start_.data(), bond_partner_.data(), bond_type_.data(), bond_id_.data(),
                     angle_start_.data(), angle_tags_.data(), angle_type_.data(), bond_types_.data(),
                     angle_types_.data()},
                    bond_tables_.data(),
                    angle_tables_.data(),
                    MinImage<typename P::A>(c.sys.box),
                    ctx_.ctl.data(),
                    first(),
                    partials_.data(),
                    sums_d_.data(),
                    words_.data(),
                    words_.data() + 1};
    if (ctx_.grown.partner.size()) {  // a polymerizing system: the bonds its reactions formed
      a.rows.grown_partner = ctx_.grown.partner.data();
      a.rows.grown_id = ctx_.grown.id.data();
      a.rows.grown_type = ctx_.grown.type;
      a.rows.grown_base = uint32_t(c.sys.topology.bonds.size());
    }
    compute_bonded_forces<P>(a, r.sums, c.stream);
  }

  // Energy and virial of the last sums launch (waits for the stream).
  void fetch_sums() override { sums_ = read_sums(sums_d_, ctx_.stream); }

  // The state is that of the failed step (every kernel after it returned):
  // ctl->step is its number.
  void raise_if_stopped() override {
    if (fault() != kNoBondFault) raise(ctx_.h_ctl->step);
  }

  // Minimum traffic: per particle its tag (map), its map entry written and
  // read back (kernel), its position, its two row starts (4 words), its
  // force stored (and loaded when it adds); per row entry the entry itself
  // (bond: partner, type, id; angle: three tags, type). The partners'
  // positions and map entries are taken as cache hits, as the pair forces
  // take their neighbours' (chains are local after a reorder).
  double profile_bytes(double /*pairs*/) const override {
    const double n = ctx_.n, s4 = sizeof(S4);
    return n * (3 * 4 + s4 + 4 * 4 + s4 + (first() ? 0 : s4)) + bond_entries_ * 12 + angle_entries_ * 16;
  }
  std::size_t device_bytes() const override {
    return bond_start_.bytes() + bond_partner_.bytes() + bond_type_.bytes() + bond_id_.bytes() +
           angle_start_.bytes() + angle_tags_.bytes() + angle_type_.bytes() + bond_types_.bytes() +
           angle_types_.bytes() + index_of_tag_.bytes() + partials_.bytes() + sums_d_.bytes() +
           words_.bytes() + bond_coeff_.bytes() + angle_coeff_.bytes() + bond_tables_.bytes() +
           angle_tables_.bytes();
  }

 private:
  CudaContext<P>& ctx_;
  DeviceBuffer<uint32_t> bond_start_, bond_partner_, bond_type_, bond_id_;
  DeviceBuffer<uint32_t> angle_start_, angle_tags_, angle_type_;
  DeviceBuffer<DeviceBondType> bond_types_;
  DeviceBuffer<DeviceAngleType> angle_types_;
  // The tables' coefficients in the kernel's arithmetic, and their views.
  DeviceBuffer<A> bond_coeff_, angle_coeff_;
  DeviceBuffer<physics::TableView<A>> bond_tables_, angle_tables_;

  // Every table's coefficients in one array, and a view of each into it.
  static void upload_tables(const std::vector<BondedTable>& tables, DeviceBuffer<A>& coeff,
                            DeviceBuffer<physics::TableView<A>>& views) {
    std::vector<A> all;
    for (const BondedTable& t : tables)
      for (double c : t.coeff) all.push_back(A(c));
    upload(coeff, all);
    std::vector<physics::TableView<A>> v;
    std::size_t at = 0;
    for (const BondedTable& t : tables) {
      const physics::TableView<double> d = t.view();
      v.push_back({coeff.data() + at, A(d.z_min), A(d.inv_dz), A(d.dz), A(d.z_max), d.intervals});
      at += t.coeff.size();
    }
    upload(views, v);
  }
  DeviceBuffer<uint32_t> index_of_tag_;
  DeviceBuffer<double> partials_, sums_d_;
  DeviceBuffer<unsigned int> words_;
  double bond_entries_ = 0.0, angle_entries_ = 0.0;
  PairSums sums_;

  void clear_words() {
    const unsigned int w[2] = {0u, kNoBondFault};
    MESO_CUDA_CHECK(cudaMemcpy(words_.data(), w, sizeof(w), cudaMemcpyHostToDevice));
  }

  // The fault word (waits for the stream).
  unsigned int fault() const {
    unsigned int f = kNoBondFault;
    MESO_CUDA_CHECK(cudaMemcpyAsync(&f, words_.data() + 1, sizeof(f), cudaMemcpyDeviceToHost, ctx_.stream));
    MESO_CUDA_CHECK(cudaStreamSynchronize(ctx_.stream));
    return f;
  }

  // The reference's error for the bond the kernel recorded, r from the
  // stored positions in fp64. The fault and the abort are cleared first, so
  // the backend is not left stopped (a caller that goes on runs from the
  // failed step's state, as after the reference's error).
  [[noreturn]] void raise(uint64_t step) {
    const unsigned int k = fault();
    clear_words();
    ctx_.pull_ctl();
    ctx_.h_ctl->abort = 0;
    ctx_.push_ctl();
    const Topology& topo = ctx_.sys.topology;
    Bond b{};
    if (k < topo.bonds.size()) {
      b = topo.bonds[k];
    } else {  // formed by polymerization: its entry in the log of grown bonds
      const std::size_t at = 3 * (std::size_t(k) - topo.bonds.size());
      if (at + 2 >= ctx_.grown.log.size()) throw_input_error("bond.fene: bond out of bounds at step ", step);
      uint32_t ends[2];
      MESO_CUDA_CHECK(cudaMemcpy(ends, ctx_.grown.log.data() + at, sizeof ends, cudaMemcpyDeviceToHost));
      b = Bond{ends[0], ends[1], ctx_.grown.type};
    }
    ParticleData<double> p;
    ctx_.get_particles(p);
    std::vector<uint32_t> index(p.n_local);
    for (uint32_t i = 0; i < p.n_local; ++i) index[p.tag[i]] = i;
    const BondType& t = topo.bond_types[b.type];
    const Vec3d d = ctx_.sys.box.min_image(p.position[index[b.a]] - p.position[index[b.b]]);
    if (t.kind == BondKind::table) {  // the reference's text (reference/src/md/bonded_force.cpp)
      const BondedTable& table = topo.bond_tables[t.table];
      throw_input_error("bond.table: bond ", k, " (type ", t.name, ") between tags ", b.a, " and ", b.b,
                        " has r = ", std::sqrt(dot(d, d)), " outside its table ", table.name, " [", table.x_min,
                        ", ", table.x_max(), "] (", table.source, ") at step ", step);
    }
    throw_input_error("bond.fene: bond out of bounds: bond ", k, " (type ", t.name, ") between tags ", b.a,
                      " and ", b.b, " has r = ", std::sqrt(dot(d, d)), " >= R0 = ", t.fene.r_max,
                      " at step ", step,
                      ": the start is overstretched or the run is unstable (try a smaller dt)");
  }
};

}  // namespace

template <class P>
std::unique_ptr<Operation> make_cuda_bonded_force(CudaContext<P>& ctx) {
  return std::make_unique<CudaBondedForce<P>>(ctx);
}

template std::unique_ptr<Operation> make_cuda_bonded_force(CudaContext<PrecDouble>&);
template std::unique_ptr<Operation> make_cuda_bonded_force(CudaContext<PrecMixed>&);
template std::unique_ptr<Operation> make_cuda_bonded_force(CudaContext<PrecSingle>&);

}  // namespace meso::cuda
