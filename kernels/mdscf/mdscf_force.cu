// The MD-SCF field force of the CUDA backend, "field/mdscf" (the method:
// meso/core/mdscf_field.hpp; the formulas: meso/physics/mdscf.hpp; the reference
// it is held to: reference/src/mdscf/mdscf_force.cpp). A MdscfFieldOp (synchronous
// compute and the snapshot of the grids) and a DeviceForce (enqueue into the
// captured step graph).
//
// Per field update, every kernel gated on the device (MdscfGate, see
// mdscf_force.cuh: the graph is replayed every step and only the device
// knows the step number):
//   1. density, density=gather (mdscf_density_gather.cu) or scatter
//      (mdscf_density_scatter.cu)                           -> phi
//   2. with a filter, three separable periodic passes, one thread per
//      (present type, vertex) and axis (taps uploaded once) -> phi~
//   3. the potential w_K (mdscf_potential over the composition list) and
//      the energy density (mdscf_energy_density), one thread per vertex;
//      the energy summed in a fixed order (block tree, then the blocks'
//      partials by the last block: fixed_order_reduce.cuh), times rho0 h^3
//   4. with a filter, the three passes again                -> V_K
//   5. the central-difference gradient per (present type, vertex).
// Every step: one thread per particle interpolates -grad V of its type with
// its cloud-in-cell stencil and writes (first force) or adds the force; the
// first thread also counts the update when there was one (after the whole
// chain has read the count, so every kernel of an update saw the same one).
//
// Precision: everything on the grids and the interpolation is fp64 for every
// precision; only the positions loaded and the force stored are in the
// storage precision (fp32 with mixed and single). The grids are small
// (n_types x vertices, typically a fraction of N), so fp64 costs little
// there, and keeps the densities and the energy sum free of fp32 rounding.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <vector>

#include "core/cuda_operations.cuh"
#include "core/device_ops.cuh"
#include "core/fixed_order_reduce.cuh"
#include "mdscf/mdscf_force.cuh"
#include "meso/cuda/check.hpp"
#include "meso/core/error.hpp"
#include "meso/ops/field.hpp"
#include "meso/physics/mdscf.hpp"

namespace meso::cuda {
namespace {

uint32_t blocks_for(uint64_t n) { return uint32_t((n + kMdscfBlock - 1) / kMdscfBlock); }

// One separable filter pass along `axis` over every present type's grid.
__global__ void filter_kernel(MdscfGate gate, const double* __restrict__ in, double* __restrict__ out,
                              uint32_t na, MdscfGrid grid, int axis, const double* __restrict__ taps,
                              uint32_t ntaps) {
  if (!gate.due()) return;
  const physics::GridShape g = grid.g;
  const uint32_t nv = g.size();
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= uint64_t(na) * nv) return;
  const uint32_t a = uint32_t(t / nv), v = uint32_t(t % nv);
  const uint32_t i = v % g.nx, j = (v / g.nx) % g.ny, k = v / (g.nx * g.ny);
  out[t] = physics::filter_axis_at(in + std::size_t(a) * nv, i, j, k, axis, taps, ntaps, g);
}

// w_K at every vertex from the (filtered) densities of the present types,
// and the field energy: the fixed-order sum over vertices of the energy
// density, completed by the block that finishes last.
__global__ void potential_kernel(MdscfGate gate, const double* __restrict__ phi, double* __restrict__ pot,
                                 uint32_t na, uint32_t nv, const double* __restrict__ chi, double inv_kappa,
                                 double energy_scale, double* __restrict__ partials, MdscfState* state) {
  if (!gate.due()) return;  // the same for every thread: the barriers below are safe
  __shared__ double sh[kMdscfBlock];
  const uint32_t v = blockIdx.x * kMdscfBlock + threadIdx.x;
  double e = 0.0;
  if (v < nv) {
    double local[kMdscfMaxTypes];
    for (uint32_t a = 0; a < na; ++a) local[a] = phi[std::size_t(a) * nv + v];
    for (uint32_t a = 0; a < na; ++a)
      pot[std::size_t(a) * nv + v] = physics::mdscf_potential(a, local, chi, na, inv_kappa);
    e = physics::mdscf_energy_density(local, chi, na, inv_kappa);
  }
  block_tree_sum<kMdscfBlock>({e}, {sh});
  if (threadIdx.x == 0) partials[blockIdx.x] = sh[0];
  if (!last_block(&state->counter)) return;
  sum_partials<kMdscfBlock, PartialsLoad::cache_global>(partials, gridDim.x, {sh});
  if (threadIdx.x == 0) state->energy = sh[0] * energy_scale;
}

__global__ void gradient_kernel(MdscfGate gate, const double* __restrict__ pot, Vec3d* __restrict__ grad,
                                uint32_t na, MdscfGrid grid) {
  if (!gate.due()) return;
  const physics::GridShape g = grid.g;
  const uint32_t nv = g.size();
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= uint64_t(na) * nv) return;
  const uint32_t a = uint32_t(t / nv), v = uint32_t(t % nv);
  const uint32_t i = v % g.nx, j = (v / g.nx) % g.ny, k = v / (g.nx * g.ny);
  grad[t] = physics::grid_gradient(pot + std::size_t(a) * nv, i, j, k, grid.h, g);
}

// F_i = -sum_c w_c grad V_K(v_c), written or added in fp64 and stored in
// the storage precision. Launched with at least one block: its first thread
// counts the update of this step, if any.
template <class S4>
__global__ void force_kernel(MdscfGate gate, MdscfState* state, const S4* __restrict__ pos, S4* force,
                             uint32_t n, const uint32_t* __restrict__ slot_of_type,
                             const Vec3d* __restrict__ grad, MdscfGrid grid, bool overwrite) {
  if (gate.ctl->abort) return;  // the state of the failed step stays as it is
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0 && gate.due()) state->updates += 1;
  if (i >= n) return;
  const S4 r = ldg4(pos + i);
  const physics::CicStencil s = physics::cic_stencil(xyz(r), gate.state->lo, grid.h, grid.g);
  Vec3d f = physics::cic_force(s, grad + std::size_t(slot_of_type[type_of(r)]) * grid.nv());
  if (!overwrite) f = xyz(force[i]) + f;
  force[i] = make4<S4>(f, 0.0);
}

// The first kernel of an update: the grid's origin for it and for the
// forces until the next (the box's corner, shifted at random with
// grid_shift: physics::mdscf_grid_shift of the step being updated).
__global__ void grid_origin_kernel(MdscfGate gate, MdscfState* state, Vec3d lo, Vec3d h, uint32_t seed,
                                   bool shift) {
  if (!gate.due()) return;
  if (shift) lo += physics::mdscf_grid_shift(gate.ctl->step, seed, h);
  state->lo = lo;
}

template <class P>
class CudaMdscfForce final : public MdscfFieldOp, public DeviceForce {
  using S4 = typename P::S4;

 public:
  explicit CudaMdscfForce(CudaContext<P>& ctx)
      : DeviceForce(ctx), ctx_(ctx), f_(ctx.sys.mdscf), gather_(ctx.variant.density == DensityKind::gather) {
    const System& sys = ctx.sys;
    if (!f_.enabled()) throw_input_error("field/mdscf: the system has no MD-SCF field (grid nx = 0)");
    grid_.g = {f_.nx, f_.ny, f_.nz};
    grid_.h = f_.spacing(sys.box);
    grid_.lo = sys.box.lo();
    grid_.per_particle = 1.0 / (grid_.h.x * grid_.h.y * grid_.h.z * f_.rho0);
    const uint32_t nt = sys.ntypes();
    // Vertex indices are 32-bit (GridShape), and the gather's start array
    // has one more entry than there are cells.
    if (uint64_t(f_.nx) * f_.ny * f_.nz >= (1ull << 32) - 1)
      throw_input_error("MD-SCF grid ", f_.nx, " x ", f_.ny, " x ", f_.nz,
                        " is too large for the cuda backend (at most 2^32 - 2 vertices)");
    const uint64_t nv = grid_.g.size();
    // The composition list, as the reference builds it: the types with
    // particles, ascending; absent types carry no density or potential.
    std::vector<uint64_t> count(nt, 0);
    for (std::size_t i = 0; i < sys.particles.n_local; ++i) ++count[sys.particles.type[i]];
    std::vector<uint32_t> slot_of_type(nt, UINT32_MAX);
    for (uint32_t t = 0; t < nt; ++t)
      if (count[t]) {
        slot_of_type[t] = uint32_t(types_.size());
        types_.push_back(t);
      }
    na_ = uint32_t(types_.size());
    if (na_ > kMdscfMaxTypes)
      throw_input_error("MD-SCF field with ", na_, " types present: the cuda backend takes at most ",
                        kMdscfMaxTypes, " (per-vertex arrays of that size)");
    std::vector<double> chi(std::size_t(na_) * na_);
    for (uint32_t a = 0; a < na_; ++a)
      for (uint32_t b = 0; b < na_; ++b) chi[a * na_ + b] = f_.chi[types_[a] * nt + types_[b]];
    upload(slot_of_type_, slot_of_type);
    upload(chi_, chi);
    // The filter's taps, uploaded once (x, then y, then z). No filter when
    // every axis has the single tap 1 (sigma = 0), as in the reference.
    std::vector<double> taps;
    const uint32_t n_axis[3] = {f_.nx, f_.ny, f_.nz};
    const double h_axis[3] = {grid_.h.x, grid_.h.y, grid_.h.z};
    filter_ = false;
    for (int axis = 0; axis < 3; ++axis) {
      const std::vector<double> t = physics::gaussian_filter_taps(f_.filter_sigma, h_axis[axis], n_axis[axis]);
      tap_offset_[axis] = uint32_t(taps.size());
      ntaps_[axis] = uint32_t(t.size());
      filter_ = filter_ || t.size() != 1;
      taps.insert(taps.end(), t.begin(), t.end());
    }
    const std::size_t grid_values = std::size_t(na_) * nv;
    phi_.resize(grid_values);
    pot_.resize(grid_values);
    grad_.resize(grid_values);
    if (filter_) {
      upload(taps_, taps);
      s1_.resize(grid_values);
      s2_.resize(grid_values);
    }
    partials_.resize(blocks_for(nv));
    state_.resize(1);
    MESO_CUDA_CHECK(cudaMemset(state_.data(), 0, state_.bytes()));
    // Zero grids: a snapshot before any update reads zeros, never garbage.
    MESO_CUDA_CHECK(cudaMemset(phi_.data(), 0, phi_.bytes()));
    MESO_CUDA_CHECK(cudaMemset(pot_.data(), 0, pot_.bytes()));
    if (gather_) {
      const uint32_t n = ctx.n, ncells = uint32_t(nv);
      key_.resize(n);
      rank_.resize(n);
      members_.resize(n);
      count_.resize(ncells);
      start_.resize(std::size_t(ncells) + 1);
      tile_sums_.resize(mdscf_scan_tiles(ncells));
      counter_.resize(1);
      MESO_CUDA_CHECK(cudaMemset(count_.data(), 0, count_.bytes()));
      MESO_CUDA_CHECK(cudaMemset(counter_.data(), 0, counter_.bytes()));
      // start[ncells] = n for good: the last cell's end.
      MESO_CUDA_CHECK(cudaMemcpy(start_.data() + ncells, &n, sizeof(n), cudaMemcpyHostToDevice));
    }
  }

  // Synchronous: the forces at step r.step (the field updated when the
  // reference would update it: r.initial, no update yet, or a multiple of
  // update_every), with the energy fetched when asked.
  void compute(const ForceRequest& r) override {
    ctx_.set_step(r.step);
    launch(r.initial);
    if (r.sums) fetch_sums();
    ctx_.synchronize();
  }
  PairSums sums() const override { return sums_; }

  // r.step is not used: the kernels read ctl->step. r.sums needs no launch:
  // the energy of the last update stays on the device for fetch_sums().
  void enqueue(const ForceRequest& r) override { launch(r.initial); }

  // The energy of the last field update (waits for the stream); the
  // field's virial is not computed (meso/core/mdscf_field.hpp).
  void fetch_sums() override {
    double e = 0.0;
    MESO_CUDA_CHECK(cudaMemcpyAsync(&e, &state_.data()->energy, sizeof(e), cudaMemcpyDeviceToHost,
                                    ctx_.stream));
    MESO_CUDA_CHECK(cudaStreamSynchronize(ctx_.stream));
    sums_ = {e, 0.0};
  }

  void snapshot(MdscfSnapshot& out) const override {
    const std::size_t values = std::size_t(na_) * grid_.g.size();
    out.types = types_;
    out.phi.resize(values);
    out.potential.resize(values);
    MdscfState st{};
    cudaStream_t s = ctx_.stream;
    MESO_CUDA_CHECK(cudaMemcpyAsync(out.phi.data(), phi_.data(), values * sizeof(double), cudaMemcpyDeviceToHost, s));
    MESO_CUDA_CHECK(
        cudaMemcpyAsync(out.potential.data(), pot_.data(), values * sizeof(double), cudaMemcpyDeviceToHost, s));
    MESO_CUDA_CHECK(cudaMemcpyAsync(&st, state_.data(), sizeof(st), cudaMemcpyDeviceToHost, s));
    MESO_CUDA_CHECK(cudaStreamSynchronize(s));
    out.updates = st.updates;
  }

  // Minimum traffic of one step, averaged over update_every steps: the
  // interpolation loads each particle's position and stores its force
  // (loads it too when it adds) and reads the gradient grids once; an
  // update loads the positions once, stores phi, and per grid pass loads
  // and stores every present type's grid (filter: 6 passes; potential: 1;
  // gradient: 1, storing 3 values a vertex), plus, with gather, the cell
  // list's key, rank, start and member words. Cache hits assumed for the
  // stencils' other vertices, as for the pair forces' neighbours.
  double profile_bytes(double /*pairs*/) const override {
    const double n = ctx_.n, s4 = sizeof(S4), grid = double(na_) * grid_.g.size() * sizeof(double);
    const double step = n * (2 * s4 + (first() ? 0 : s4)) + 3 * grid;
    double update = n * s4 + grid + (filter_ ? 12 * grid : 0.0) + 2 * grid + 4 * grid;
    if (gather_) update += n * (s4 + 4 * 4) + 3.0 * grid_.g.size() * 4;
    return step + update / f_.update_every;
  }

  std::size_t device_bytes() const override {
    return phi_.bytes() + pot_.bytes() + s1_.bytes() + s2_.bytes() + grad_.bytes() + chi_.bytes() +
           taps_.bytes() + slot_of_type_.bytes() + partials_.bytes() + state_.bytes() + key_.bytes() +
           rank_.bytes() + members_.bytes() + count_.bytes() + start_.bytes() + tile_sums_.bytes() +
           counter_.bytes();
  }

 private:
  CudaContext<P>& ctx_;
  const MdscfField& f_;
  bool gather_;
  bool filter_ = false;
  MdscfGrid grid_{};
  std::vector<uint32_t> types_;  // the composition list
  uint32_t na_ = 0;
  uint32_t tap_offset_[3] = {0, 0, 0}, ntaps_[3] = {1, 1, 1};
  DeviceBuffer<uint32_t> slot_of_type_;
  DeviceBuffer<double> chi_, taps_;
  // Grids, na x nv values each (x fastest, one block per present type):
  // phi (before the filter; what snapshot() shows), the potential V_K, the
  // filter's two scratch grids, the gradient.
  DeviceBuffer<double> phi_, pot_, s1_, s2_;
  DeviceBuffer<Vec3d> grad_;
  DeviceBuffer<double> partials_;  // energy, one per block of the potential kernel
  DeviceBuffer<MdscfState> state_;
  // density=gather: the cell list over the grid cells (MdscfCellList).
  DeviceBuffer<uint32_t> key_, rank_, members_, count_, start_, tile_sums_;
  DeviceBuffer<unsigned int> counter_;
  PairSums sums_;

  void filter(const MdscfGate& gate, const double* in, double* out, int axis) {
    const uint64_t threads = uint64_t(na_) * grid_.g.size();
    filter_kernel<<<blocks_for(threads), kMdscfBlock, 0, ctx_.stream>>>(
        gate, in, out, na_, grid_, axis, taps_.data() + tap_offset_[axis], ntaps_[axis]);
    MESO_CUDA_CHECK(cudaGetLastError());
  }
  // out = G * in in three passes (x, y, z) through the scratch grids:
  // in -> s1 -> s2 -> out, or in -> s2 -> s1 -> out when in is s1. out may
  // be the first scratch grid (phi -> s1 -> s2 -> s1), never the second.
  void filter3(const MdscfGate& gate, const double* in, double* out) {
    double* a = in == s1_.data() ? s2_.data() : s1_.data();
    double* b = a == s1_.data() ? s2_.data() : s1_.data();
    filter(gate, in, a, 0);
    filter(gate, a, b, 1);
    filter(gate, b, out, 2);
  }

  void launch(bool initial) {
    const MdscfGate gate{ctx_.ctl.data(), state_.data(), f_.update_every, initial};
    grid_origin_kernel<<<1, 1, 0, ctx_.stream>>>(gate, state_.data(), grid_.lo, grid_.h, ctx_.params.seed,
                                                 f_.grid_shift);
    MESO_CUDA_CHECK(cudaGetLastError());
    // No particles, no present type: nothing on the grids (the force
    // kernel still counts the update, as the reference does).
    if (na_ > 0) enqueue_update(gate);
    // Every step: the forces (and the count of updates).
    force_kernel<S4><<<std::max(1u, blocks_for(ctx_.n)), kMdscfBlock, 0, ctx_.stream>>>(
        gate, state_.data(), ctx_.pos.data(), ctx_.force.data(), ctx_.n, slot_of_type_.data(), grad_.data(),
        grid_, first());
    MESO_CUDA_CHECK(cudaGetLastError());
  }

  // The update chain, every kernel gated by `gate`.
  void enqueue_update(const MdscfGate& gate) {
    cudaStream_t s = ctx_.stream;
    const uint32_t nv = grid_.g.size();
    // 1. phi.
    const MdscfParticles<S4> p{ctx_.pos.data(), ctx_.n, slot_of_type_.data()};
    if (gather_) {
      const MdscfCellList cl{key_.data(),   rank_.data(),      count_.data(),  start_.data(),
                             members_.data(), tile_sums_.data(), counter_.data()};
      mdscf_density_gather<S4>(p, grid_, cl, phi_.data(), na_, gate, s);
    } else {
      mdscf_density_scatter<S4>(p, grid_, phi_.data(), na_, gate, s);
    }
    // 2. phi~ (in s1), 3. w_K (in s2 with a filter, else already V_K) and
    // the energy, 4. V_K, 5. its gradient.
    const double* filtered = phi_.data();
    double* w = pot_.data();
    if (filter_) {
      filter3(gate, phi_.data(), s1_.data());  // phi -> s1 -> s2 -> s1
      filtered = s1_.data();
      w = s2_.data();
    }
    potential_kernel<<<blocks_for(nv), kMdscfBlock, 0, s>>>(
        gate, filtered, w, na_, nv, chi_.data(), f_.inv_kappa,
        f_.rho0 * grid_.h.x * grid_.h.y * grid_.h.z, partials_.data(), state_.data());
    MESO_CUDA_CHECK(cudaGetLastError());
    if (filter_) filter3(gate, s2_.data(), pot_.data());  // s2 -> s1 -> s2 -> pot
    gradient_kernel<<<blocks_for(uint64_t(na_) * nv), kMdscfBlock, 0, s>>>(gate, pot_.data(), grad_.data(),
                                                                            na_, grid_);
    MESO_CUDA_CHECK(cudaGetLastError());
  }
};

}  // namespace

template <class P>
std::unique_ptr<Operation> make_cuda_mdscf_force(CudaContext<P>& ctx) {
  return std::make_unique<CudaMdscfForce<P>>(ctx);
}

template std::unique_ptr<Operation> make_cuda_mdscf_force(CudaContext<PrecDouble>&);
template std::unique_ptr<Operation> make_cuda_mdscf_force(CudaContext<PrecMixed>&);
template std::unique_ptr<Operation> make_cuda_mdscf_force(CudaContext<PrecSingle>&);

}  // namespace meso::cuda
