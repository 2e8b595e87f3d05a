// Bonded forces on the GPU (GALAMOST's layout, Zhu et al., J. Comput. Chem.
// 2013; HOOMD-blue's potentials md.bond.Harmonic, md.bond.FENEWCA,
// md.angle.Harmonic through meso/physics/bonded.hpp), the CUDA side of
// reference/src/md/bonded_force.cpp: one thread per local particle walks its
// own rows of the per-particle bond and angle lists (by tag) and sums only
// its own share of each term, in row order: its end of a bond, fa, fb or fc
// of an angle by its role. No atomics in the forces; each term is evaluated
// from bitwise the same (or, for a bond's two ends, bitwise opposite)
// separations by every participant, so Newton's third law holds to
// round-off and the result does not depend on the storage order.
//
// The rows are by tag and `reorder` permutes the particles, so each launch
// first scatters index_of_tag[tag[i]] = i (N words; cheaper than knowing
// when the order changed: a reorder inside the graph, a restart, a load).
// Thread t then serves the particle of tag t, not the particle stored at t:
// a warp reads its 32 rows and row starts coalesced, and the map entries of
// the partners (in a chain, neighbouring tags) hit the lines its own
// lookups brought in; only the particle's position and force are gathered.
// Measured on an H100 (N = 1M in chains of 10 with consecutive tags,
// morton2 order), 3-5% faster than threads over storage order, which read
// rows and map entries scattered: the kernel is bound by its fp64
// arithmetic (acos, log, sqrt and divisions: about 2000 instructions a
// particle, every angle evaluated three times) and the latency of the
// gathers (IPC 2, 45% occupancy at 72 registers), not by the rows.
//
// Precision: separations in the arithmetic of the policy (P::A) from the
// stored positions, as the DPD pair kernel takes them (double: fp64; mixed:
// the fp32 positions widened to fp64, then subtracted and wrapped in fp64;
// single: fp32), with MinImage's rint rule, which is Box::min_image's. The
// force is summed in A and added to the stored net force in A.
//
// Energy and virial (with sums): 1/2 of each bond's to each end, 1/3 of each
// angle's to each participant, as the reference; fixed-order block sums,
// then the block that finishes last sums the partials in a fixed order
// (fixed_order_reduce.cuh), so they are the same in every run.
//
// Bonds formed by polymerization (polymerize.cu) are not in the rows: each
// particle has two slots for them (CudaContextBase::GrownBonds), walked
// after its rows in slot order, as the reference's rows hold them after the
// loaded topology's bonds in the order they formed.
//
// Tabulated bonds and angles (meso/physics/bonded_table.hpp) read their
// table's cubic coefficients through the type; a bond outside its table
// has no force either and is recorded as an out-of-bounds FENE bond is.
//
// A FENE bond at r >= R0 has no finite energy: its thread records the
// bond's topology index (atomicMin: the first in topology order, as the
// reference names it) and skips it; the last block then sets ctl->abort, so
// every later kernel of the batch returns at once and the state stays that
// of this step, and the host throws the reference's error
// (DeviceForce::raise_if_stopped). Blocks read ctl->abort at entry, and only
// this kernel's last block sets it, after every block has read it: a launch
// runs whole or not at all.
#include "md/bonded_force.cuh"
#include "core/fixed_order_reduce.cuh"
#include "meso/cuda/check.hpp"

namespace meso::cuda {
namespace {

constexpr uint32_t kMapBlock = 256;

__global__ void index_of_tag_kernel(const uint32_t* __restrict__ tag, uint32_t n,
                                    uint32_t* __restrict__ index_of_tag) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) index_of_tag[tag[i]] = i;
}

template <class P, bool SUMS>
__global__ void __launch_bounds__(kBondedBlock) bonded_force_kernel(const BondedArgs<P> a) {
  using S4 = typename P::S4;
  using A = typename P::A;
  if (a.ctl->abort) return;  // the same in every block (see the header)
  // Thread t serves the particle of tag t (see the header).
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const BondedRows& rows = a.rows;
  double e = 0.0, w = 0.0;
  const uint32_t b_begin = t < a.n ? __ldg(rows.bond_start + t) : 0u;
  const uint32_t b_end = t < a.n ? __ldg(rows.bond_start + t + 1) : 0u;
  const uint32_t a_begin = t < a.n ? __ldg(rows.angle_start + t) : 0u;
  const uint32_t a_end = t < a.n ? __ldg(rows.angle_start + t + 1) : 0u;
  const bool grown = rows.grown_partner && t < a.n &&
                     (__ldg(rows.grown_partner + 2 * t) != kNoBondFault ||
                      __ldg(rows.grown_partner + 2 * t + 1) != kNoBondFault);
  // A particle without terms keeps the net force as it is (the reference
  // adds +0.0, which differs only in the sign of a zero), unless this
  // force writes it.
  if (t < a.n && (b_begin < b_end || a_begin < a_end || grown || a.overwrite)) {
    const uint32_t i = __ldg(a.index_of_tag + t);
    const S4 own = ldg4(a.pos + i);
    const auto position = [&](uint32_t tag) {
      const S4 p = tag == t ? own : ldg4(a.pos + __ldg(a.index_of_tag + tag));
      return Vec3<A>{A(p.x), A(p.y), A(p.z)};
    };
    // r_a - r_b, minimum image: the reference's separation(a, b).
    const auto separation = [&](uint32_t ta, uint32_t tb) {
      Vec3<A> d = position(ta) - position(tb);
      a.box.apply(d.x, d.y, d.z);
      return d;
    };
    Vec3<A> f{A(0), A(0), A(0)};
    // One bond of type `type` to `partner`, named `id` by a fault.
    const auto bond = [&](uint32_t partner, uint32_t type, uint32_t id) {
      const Vec3<A> d = separation(t, partner);
      const A rsq = dot(d, d);
      const DeviceBondType& bt = rows.bond_types[type];
      const physics::BondForce<A> b = bt.kind == kBondTable ? physics::table_bond<A>(rsq, a.bond_tables[bt.table])
                                      : bt.kind == kBondFene ? physics::fene_bond<A>(rsq, bt.fene_params)
                                                             : physics::harmonic_bond<A>(rsq, bt.harmonic);
      if (!b.ok) {
        atomicMin(a.fault, id);
        return;
      }
      f += b.f_over_r * d;
      if constexpr (SUMS) {
        e += 0.5 * double(b.energy);
        w += 0.5 * double(b.f_over_r) * double(rsq);
      }
    };
    for (uint32_t k = b_begin; k < b_end; ++k)
      bond(__ldg(rows.bond_partner + k), __ldg(rows.bond_type + k), __ldg(rows.bond_id + k));
    if (grown)  // after the topology's bonds, slot 0 then slot 1: a fixed order
      for (uint32_t k = 2 * t; k < 2 * t + 2; ++k) {
        const uint32_t partner = __ldg(rows.grown_partner + k);
        if (partner != kNoBondFault) bond(partner, rows.grown_type, rows.grown_base + __ldg(rows.grown_id + k));
      }
    for (uint32_t k = a_begin; k < a_end; ++k) {
      const uint32_t* abc = rows.angle_tags + 3 * size_t(k);
      const uint32_t ta = __ldg(abc), tb = __ldg(abc + 1), tc = __ldg(abc + 2);
      const DeviceAngleType& at = rows.angle_types[__ldg(rows.angle_type + k)];
      const physics::AngleForce<A> g =
          at.table != kNoTable ? physics::table_angle<A>(separation(ta, tb), separation(tc, tb), a.angle_tables[at.table])
                               : physics::harmonic_angle<A>(separation(ta, tb), separation(tc, tb), at.harmonic);
      f += t == ta ? g.fa : (t == tb ? g.fb : g.fc);
      if constexpr (SUMS) {
        e += double(g.energy) / 3.0;
        w += double(g.virial) / 3.0;
      }
    }
    if (!a.overwrite) {
      const S4 old = a.force[i];
      f = Vec3<A>{A(old.x), A(old.y), A(old.z)} + f;
    }
    a.force[i] = make4<S4>(vec_cast<double>(f), 0.0);
  }
  // The fault's atomics are done in L2: the last block reads it from there.
  const auto stop_on_fault = [&] {
    if (threadIdx.x == 0 && __ldcg(a.fault) != kNoBondFault) a.ctl->abort = 1;
  };
  if constexpr (SUMS) {
    __shared__ double se[kBondedBlock], sw[kBondedBlock];
    block_tree_sum<kBondedBlock>({e, w}, {se, sw});
    if (threadIdx.x == 0) {
      a.partials[2 * blockIdx.x] = se[0];
      a.partials[2 * blockIdx.x + 1] = sw[0];
    }
    if (last_block(a.counter)) {
      sum_partials<kBondedBlock, PartialsLoad::cache_global>(a.partials, gridDim.x, {se, sw});
      if (threadIdx.x == 0) {
        a.sums[0] = se[0];
        a.sums[1] = sw[0];
      }
      stop_on_fault();
    }
  } else {
    if (last_block(a.counter)) stop_on_fault();
  }
}

}  // namespace

template <class P>
void compute_bonded_forces(const BondedArgs<P>& a, bool sums, cudaStream_t s) {
  index_of_tag_kernel<<<(a.n + kMapBlock - 1) / kMapBlock, kMapBlock, 0, s>>>(a.tag, a.n,
                                                                              a.index_of_tag);
  MESO_CUDA_CHECK(cudaGetLastError());
  const uint32_t blocks = bonded_blocks(a.n);
  if (sums) bonded_force_kernel<P, true><<<blocks, kBondedBlock, 0, s>>>(a);
  else bonded_force_kernel<P, false><<<blocks, kBondedBlock, 0, s>>>(a);
  MESO_CUDA_CHECK(cudaGetLastError());
}

template void compute_bonded_forces<PrecDouble>(const BondedArgs<PrecDouble>&, bool, cudaStream_t);
template void compute_bonded_forces<PrecMixed>(const BondedArgs<PrecMixed>&, bool, cudaStream_t);
template void compute_bonded_forces<PrecSingle>(const BondedArgs<PrecSingle>&, bool, cudaStream_t);

}  // namespace meso::cuda
