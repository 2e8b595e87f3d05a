// The tabulated pair style on the CUDA backend (pair_force/table): every
// table's spline coefficients on the device in the kernel's arithmetic, the
// table of each type pair, and the launch of table_force.cu's kernel. A pair
// below its table's range stops the step on the device; the host names it
// as the reference does.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "md/pair_force_op.cuh"
#include "md/table_force.cuh"
#include "meso/tables/pair_potential_table.hpp"

namespace meso::cuda {
namespace {

template <class P>
class CudaTableForce final : public CudaPairForce<P> {
  using Base = CudaPairForce<P>;
  using typename Base::S4;
  using Base::ctx_;
  using R = TablePairReal<P>;

 public:
  explicit CudaTableForce(CudaContext<P>& ctx)
      : Base(ctx, table_force_blocks(ctx.n, ctx.variant.tpp)), tpp_(ctx.variant.tpp) {
    refuse_list_kind(ctx.variant, "table");
    if (ctx.variant.noise != NoiseKind::fp64)
      throw_input_error("variant noise=", to_string(ctx.variant.noise),
                        " is only provided for the dpd pair style (tabulated forces draw no noise)");
    if (ctx.variant.gather != GatherKind::split)
      throw_input_error("variant gather=", to_string(ctx.variant.gather), " is only provided for the dpd pair style");
    const auto& tables = ctx.sys.pair.template as<TabulatedPairs>().tables;
    if (tables.empty()) throw_input_error("cuda 'pair_force/table': the system has no tables");
    // Every table's coefficients in one array, in the kernel's arithmetic,
    // and each table's view pointing into it.
    std::vector<R> coeff;
    std::vector<std::size_t> at;
    for (const PairPotentialTable& t : tables) {
      at.push_back(coeff.size());
      for (double c : t.coeff) coeff.push_back(R(c));
    }
    coeff_.resize(std::max<std::size_t>(coeff.size(), 1));
    MESO_CUDA_CHECK(cudaMemcpy(coeff_.data(), coeff.data(), coeff.size() * sizeof(R), cudaMemcpyHostToDevice));
    std::vector<physics::TableView<R>> views;
    for (std::size_t k = 0; k < tables.size(); ++k) {
      const physics::TableView<double> v = tables[k].view();
      views.push_back({coeff_.data() + at[k], R(v.z_min), R(v.inv_dz), R(v.dz), R(v.z_max), v.intervals});
    }
    views_.resize(views.size());
    MESO_CUDA_CHECK(cudaMemcpy(views_.data(), views.data(), views_.bytes(), cudaMemcpyHostToDevice));
    const auto& to = ctx.sys.pair.template as<TabulatedPairs>().table_of.data();
    table_of_.resize(to.size());
    MESO_CUDA_CHECK(cudaMemcpy(table_of_.data(), to.data(), table_of_.bytes(), cudaMemcpyHostToDevice));
  }

  void compute(const ForceRequest& r) override {
    Base::compute(r);
    if (fault_.set(ctx_.stream)) raise(r.step);
  }
  // The state is that of the failed step (every kernel after it returned).
  void raise_if_stopped() override {
    if (fault_.set(ctx_.stream)) raise(ctx_.h_ctl->step);
  }

  // Minimum traffic: as LJ's (its own pos, its list, its force), the
  // coefficients taken as cache hits.
  double profile_bytes(double pairs) const override {
    const double n = ctx_.n, s4 = sizeof(S4);
    return n * (s4 + 4 + s4 + (this->finishes_step() ? 2 * s4 : 0)) + 4.0 * pairs;
  }
  std::size_t device_bytes() const override {
    return Base::device_bytes() + coeff_.bytes() + views_.bytes() + table_of_.bytes() + fault_.bytes();
  }

 private:
  uint32_t tpp_;
  DeviceBuffer<R> coeff_;
  DeviceBuffer<physics::TableView<R>> views_;
  DeviceBuffer<int32_t> table_of_;
  FaultWord fault_{kNoTableFault};  // the closest pair below its table

  uint32_t blocks_now() const override { return table_force_blocks(ctx_.n, tpp_); }

  void enqueue_kernel(bool sums, bool initial) override {
    const CudaContext<P>& c = ctx_;
    const bool base_in_pred = !c.gw;
    const TableForceArgs<P> a{ctx_.view(),        this->rows_view(),      c.sys.box,     table_of_.data(),
                              views_.data(),      c.sys.ntypes(),         c.mass.data(), c.sys.body_force,
                              c.params.dt,        ctx_.ctl.data(),        fault_.data(), this->partials_.data(),
                              this->fused(initial), base_in_pred,         tpp_};
    compute_table_forces<P>(a, sums, c.stream);
  }

  // The reference's error for the closest pair below its table's range.
  [[noreturn]] void raise(uint64_t step) {
    const unsigned long long f = fault_.take(ctx_);
    uint32_t bits = uint32_t(f >> 32);
    float z;
    std::memcpy(&z, &bits, sizeof z);
    const PairPotentialTable& t = ctx_.sys.pair.template as<TabulatedPairs>().tables.at(f & 0xffffffffull);
    throw_input_error("a pair came to r = ", std::sqrt(double(z)), " at step ", step, ", below the range of table ",
                      t.name, " (", t.source.empty() ? "built in code" : t.source, ", r_min = ", t.r_min,
                      "): tables are not extrapolated; extend the table to shorter r");
  }
};

template <class P>
std::unique_ptr<Operation> make_table_force(CudaContext<P>& ctx) {
  return std::make_unique<CudaTableForce<P>>(ctx);
}

}  // namespace

MESO_CUDA_PAIR_STYLE(table, make_table_force);

}  // namespace meso::cuda
