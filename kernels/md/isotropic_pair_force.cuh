// Isotropic pair styles on the CUDA backend (LJ, ...; the style E of
// meso/physics/isotropic_pair.hpp), written once: the kernel evaluator over
// pair_force.cuh's traversal (tpp lanes a particle), cluster-pair tiles
// (pair_force_cluster.cuh) or the cells' half stencil in fixed point
// (nlist=cells, pair_force_cells.cuh), and the operation that holds E's
// coefficients of every type pair on the device. A style's file is one line,
// MESO_CUDA_ISOTROPIC_PAIR_STYLE(name, E), which compiles the kernels for
// every precision and registers the force (HOOMD-blue's PotentialPairGPU
// over an evaluator).
//
// Same traversal and determinism argument as the DPD forces: each pair
// evaluated from both sides from a full list, F_ji = -F_ij bit for bit, no
// atomics (nlist=cells: once, in integer fixed point, exact in any order);
// energy and virial by fixed-order block partials (reduced by
// reduce_partials in dpd_force.cu).
//
// Threads per particle (variant axis tpp, HOOMD-blue's threads_per_particle):
// TPP adjacent lanes of a warp share particle i; lane s of the group takes
// neighbor slots s, s + TPP, s + 2 TPP, ... and the group's partial forces are
// summed by a fixed XOR butterfly, so the result is deterministic for a given
// TPP (and differs between TPPs by summation order only). Why: at N = 64000
// and ~65 neighbors (lj-liquid), one thread per particle leaves ~15 warps per
// SM on an H100/H200, too few to hide the latency of the gathered j
// positions; TPP lanes multiply the warps in flight. The column-major list
// keeps each group's loads of one slot row in one 32-byte sector (8
// particles x 4 lanes).
//
// Arithmetic of one pair: that of the stored positions (fp32 for mixed and
// single, as in HOOMD-blue's single-precision pair kernels), while mixed sums
// a particle's pair forces, the energy and the virial in fp64 (P::A). Why not
// fp64 pairs for mixed: LJ's evaluator is ~40 fp64 operations, and fp64
// issues at half the fp32 rate on H100/H200; at lj-liquid's 65 neighbors per
// particle that alone set a ~10 us floor on the force kernel. The positions
// are fp32 in mixed already, so the pair's own rounding (~1e-7 relative)
// stays below that of its inputs.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <vector>

#include "core/device_views.cuh"
#include "core/tpp_dispatch.cuh"
#include "md/pair_force.cuh"
#include "md/pair_force_cells.cuh"
#include "md/pair_force_cluster.cuh"
#include "md/pair_force_op.cuh"
#include "meso/cuda/check.hpp"
#include "meso/physics/body_force.hpp"
#include "meso/physics/isotropic_pair.hpp"

namespace meso::cuda {

// The pair's arithmetic: that of the storage (see above).
template <class P>
using IsotropicPairReal = BuildReal<typename P::S4>;

template <class P, class E>
struct IsotropicForceArgs {
  using Coeffs = typename E::template Coeffs<IsotropicPairReal<P>>;
  ParticleView<typename P::S4> p;
  NlistView nl;
  Box box;
  const Coeffs* coeffs;  // ntypes x ntypes (E::coeffs)
  const double* type_mass;
  uint32_t ntypes;
  physics::BodyForce body;
  double dt;
  const StepControl* ctl;
  double* partials;  // 2 per block (energy, virial) when sums
  bool fuse;            // second half-step folded into the kernel (finish_particle)
  bool fuse_base_pred;  // its base v(t + dt/2) is in vel_pred (velocity Verlet) or vel (gw)
  uint32_t tpp = 1;     // threads per particle: 1, 2, 4, 8, 16 or 32 (variant axis tpp)
  bool cluster = false; // nlist=cluster: cluster-pair rows (pair_force_cluster.cuh)
};

// Blocks of kForceBlock threads for n particles at tpp threads each (the
// lists and nlist=cells), or of cluster-pair tiles (the number of
// energy/virial partials a sums launch writes).
inline uint32_t isotropic_force_blocks(uint32_t n, uint32_t tpp, bool cluster) {
  if (cluster) return cluster_force_blocks(n);
  return uint32_t((uint64_t(n) * tpp + kForceBlock - 1) / kForceBlock);
}

// The pair in R = IsotropicPairReal<P>, summed into P::A: the evaluator
// returns exact zeros at and beyond r_cut, so no pair is skipped, and the
// grouped traversal (kUnroll = 4 slots per lane at a time) hides the gathers.
template <class P, class E>
struct IsotropicEvaluator {
  using Args = IsotropicForceArgs<P, E>;
  using S4 = typename P::S4;
  using A = typename P::A;  // accumulation: the force sum, energy and virial
  using R = IsotropicPairReal<P>;  // one pair: the storage precision
  using Pair = physics::IsotropicPairForce<R>;
  using Coeffs = typename Args::Coeffs;
  static constexpr int kMinBlocks = 0;  // no register cap
  static constexpr uint32_t kUnroll = 4;

  const Args& a;
  const MinImage<R>& box_;  // a kernel parameter: its 1/L once on the host, not per thread

  struct Particle {
    const MinImage<R>& box_;
    bool one_type;
    const Coeffs* row;
    Coeffs c0;

    __device__ __forceinline__ const MinImage<R>& box() const { return box_; }

    // The geometry by reference: see pair_force_kernel.
    __device__ __forceinline__ bool pair(const uint32_t&, const S4& pj, const R&, const R&,
                                         const R&, const R& rsq, Pair& pf) const {
      // if/else rather than ?: (the same pair): with ?: nvcc merged the
      // two calls' zero initialisations into other SASS than before.
      if (one_type) pf = E::template force<R>(rsq, c0);
      else pf = E::template force<R>(rsq, row[type_of(pj)]);
      return true;
    }
  };

  __device__ __forceinline__ Particle begin(uint32_t i, const S4* pos, S4& pi,
                                            uint32_t& ti) const {
    pi = ldg4(pos + i);
    ti = type_of(pi);
    // One type (the common case, lj-liquid): the coefficients live in
    // registers and the loop has no third dependent load.
    const bool one_type = a.ntypes == 1;
    const Coeffs* row = a.coeffs + ti * a.ntypes;
    const Coeffs c0 = row[0];
    return {box_, one_type, row, c0};
  }

  __device__ __forceinline__ static double virial_share(const Pair& pf, const R&) {
    return 0.5 * double(pf.virial);
  }
};

template <class P, class E>
void compute_isotropic_forces(const IsotropicForceArgs<P, E>& a, bool sums, cudaStream_t s) {
  using Ev = IsotropicEvaluator<P, E>;
  const MinImage<IsotropicPairReal<P>> box(a.box);  // its 1/L once here, not per thread
  if (a.cluster) {  // nlist=cluster: one warp an i-cluster (the operation takes tpp=1)
    launch_cluster_pair_force<Ev>(a, sums, a.fuse, s, box);
  } else {
    dispatch_tpp(a.tpp, "compute_isotropic_forces", [&](auto tpp) {
      constexpr uint32_t TPP = decltype(tpp)::value;
      launch_pair_force<Ev, TPP>(a, isotropic_force_blocks(a.p.n, TPP, false), sums, a.fuse, s, box);
    });
  }
  MESO_CUDA_CHECK(cudaGetLastError());
}

// nlist=cells: the cells' half stencil (pair_force_cells.cuh) into h, then
// every particle finished from its fixed-point sum.
template <class P, class E>
void compute_isotropic_forces_cells(const IsotropicForceArgs<P, E>& a, const CellPairArgs& cp,
                                    const HalfForceSums& h, bool sums, cudaStream_t s) {
  using Ev = IsotropicEvaluator<P, E>;
  const MinImage<IsotropicPairReal<P>> box(a.box);
  launch_cell_pair_force<Ev>(a, cp, h, sums, s, box);
  launch_finish_half(a.p, h, a.ctl, a.body, a.type_mass, a.dt, a.fuse_base_pred, a.fuse, s);
  MESO_CUDA_CHECK(cudaGetLastError());
}

// The operation pair_force/<E's style>.
template <class P, class E>
class CudaIsotropicPairForce final : public CudaPairForce<P> {
  using Base = CudaPairForce<P>;
  using typename Base::S4;
  using Base::ctx_;
  using Params = typename E::Params;
  using Coeffs = typename IsotropicForceArgs<P, E>::Coeffs;

 public:
  explicit CudaIsotropicPairForce(CudaContext<P>& ctx)
      : Base(ctx, isotropic_force_blocks(ctx.n, ctx.variant.tpp, ctx.variant.nlist == NlistKind::cluster)),
        tpp_(ctx.variant.tpp), cluster_(ctx.variant.nlist == NlistKind::cluster),
        cells_(ctx.variant.nlist == NlistKind::cells) {
    refuse_list_kind(ctx.variant, Params::kStyle, true);
    // The DPD-only axes: no noise, and the kernel loads positions only.
    if (ctx.variant.noise != NoiseKind::fp64)
      throw_input_error("variant noise=", to_string(ctx.variant.noise), " is only provided for the dpd pair style (",
                        Params::kStyle, " forces draw no noise)");
    if (ctx.variant.gather != GatherKind::split)
      throw_input_error("variant gather=", to_string(ctx.variant.gather),
                        " is only provided for the dpd pair style");
    // The evaluator's per-pair constants in the kernel's arithmetic, from
    // the same E::coeffs the reference uses.
    std::vector<Coeffs> coeffs;
    for (const Params& p : ctx.sys.template pair_table<Params>().data())
      coeffs.push_back(E::template coeffs<IsotropicPairReal<P>>(p));
    coeffs_.resize(coeffs.size());
    MESO_CUDA_CHECK(cudaMemcpy(coeffs_.data(), coeffs.data(), coeffs_.bytes(), cudaMemcpyHostToDevice));
    if (cells_) sums_fp_.clear(ctx.capacity);
  }

  void compute(const ForceRequest& r) override {
    Base::compute(r);
    if (cells_) raise_fixed_point_fault(sums_fp_, ctx_, r.step, Params::kStyle);
  }
  void raise_if_stopped() override {
    if (cells_) raise_fixed_point_fault(sums_fp_, ctx_, ctx_.h_ctl->step, Params::kStyle);
  }
  // nlist=cells adds to both sides' sums: its rows are computed whole.
  bool takes_rows() const override { return !cells_ && Base::takes_rows(); }

  // Minimum traffic: each particle's own pos once (type in w), its list once
  // (count + entries) and its force stored once; no velocity, tag or
  // signature is read, except with fuse: the base velocity loaded and vel
  // stored.
  double profile_bytes(double pairs) const override {
    const double n = ctx_.n, s4 = sizeof(S4);
    const double own = n * (s4 + 4 + s4 + (this->finishes_step() ? 2 * s4 : 0));
    return own + 4.0 * pairs;
  }
  std::size_t device_bytes() const override { return Base::device_bytes() + coeffs_.bytes() + sums_fp_.bytes(); }

 private:
  uint32_t tpp_;
  bool cluster_;  // nlist=cluster
  bool cells_;    // nlist=cells
  DeviceBuffer<Coeffs> coeffs_;  // ntypes x ntypes
  HalfForceStore sums_fp_;       // nlist=cells: the fixed-point sums

  uint32_t blocks_now() const override { return isotropic_force_blocks(ctx_.n, tpp_, cluster_); }

  void enqueue_kernel(bool sums, bool initial) override {
    const CudaContext<P>& c = ctx_;
    // Fused velocity Verlet keeps v(t + dt/2) in vel_pred, Groot-Warren in vel.
    const bool base_in_pred = !c.gw;
    IsotropicForceArgs<P, E> a{ctx_.view(), this->rows_view(), c.sys.box, coeffs_.data(), c.mass.data(),
                               c.sys.ntypes(), c.sys.body_force, c.params.dt, c.ctl.data(),
                               this->partials_.data(), this->fused(initial), base_in_pred, tpp_, cluster_};
    if (!cells_) return compute_isotropic_forces<P, E>(a, sums, c.stream);
    if (!c.cell_start) throw std::logic_error("cuda isotropic force: nlist=cells has no cell order");
    if (sums_fp_.capacity() < c.capacity) {
      sums_fp_.clear(c.capacity);
      ctx_.invalidate_graphs();
    }
    const double rc = c.sys.max_rcut();
    const CellPairArgs cp = make_cell_pair_args(c.grid, c.cell_start, rc, c.sys.density(), tpp_);
    compute_isotropic_forces_cells<P, E>(a, cp, sums_fp_.view(&ctx_.ctl.data()->abort), sums, c.stream);
  }
};

template <class P, class E>
std::unique_ptr<Operation> make_isotropic_pair_force(CudaContext<P>& ctx) {
  return std::make_unique<CudaIsotropicPairForce<P, E>>(ctx);
}

// The style NAME of the isotropic evaluator E: its force, registered.
#define MESO_CUDA_ISOTROPIC_PAIR_STYLE(NAME, E)                            \
  template <class P>                                                      \
  std::unique_ptr<Operation> make_pair_force_##NAME(CudaContext<P>& ctx) { \
    return make_isotropic_pair_force<P, E>(ctx);                          \
  }                                                                       \
  MESO_CUDA_PAIR_STYLE(NAME, make_pair_force_##NAME)

}  // namespace meso::cuda
