// GPU (label gpu): forces straight from the cells (nlist=cells). Every pair
// within r_c is evaluated once from the half stencil of cells, on boxes of
// 3 cells an axis (every row wraps) and more: the forces equal a brute-force
// O(N^2) sum over all pairs of the same stored positions (DPD and LJ,
// double and mixed); what the traversal cannot run is refused by name. Its
// initial forces, energy and pressure against the reference are in
// CudaDpdBackend.InitialForcesLargeRandom, its place in the reference
// comparison over every DPD axis is a layout of
// CudaDpdBackend.GatherAndNoiseAxesMatchReference, its DPD trajectory is in
// CudaDpdBackend.Trajectory100StepsWithinRoundoffGrowth, LJ's comparisons
// are in CudaLj.ForcesEnergyVirialMatchReference and IntegratorsTrackReference,
// and its bitwise reproducibility (whatever the lanes a particle, the
// storage order or the graph path, and run to run) in
// CudaDpdHalfList.TrajectoryIsBitwiseAnyOrder. Skips (not passes) without a
// device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "cuda_backend_test_support.hpp"
#include "gpu_test_support.hpp"
#include "meso/core/error.hpp"
#include "meso/physics/dpd_force.hpp"
#include "meso/physics/lj_force.hpp"
#include "meso/run/simulation.hpp"
#include "support/rel_l2.hpp"

namespace {

using namespace meso;

using test::fresh_seed;
using test::make_registry;
using test::rel_l2;
using test::two_type_fluid;

// A one-type DPD fluid of conservative forces only (gamma = sigma = 0: no
// noise, so a host sum can reproduce it) in a box of lx x ly x lz at
// rho = 3, random positions from `seed`.
System conservative_dpd(uint64_t seed, double lx, double ly, double lz) {
  DpdFluidParams fp;
  fp.rho = 3.0;
  fp.gamma = 0.0;
  fp.lx = lx, fp.ly = ly, fp.lz = lz;
  fp.n = uint64_t(fp.rho * lx * ly * lz);
  fp.seed = seed;
  return make_dpd_fluid(fp);
}

// An LJ liquid (shifted, r_c = 2.5) on make_lj_liquid's start, jittered by
// up to 0.1 sigma: no overlaps, so every pair force stays far inside the
// fixed-point range.
System jittered_lj(uint64_t seed, uint64_t n) {
  LjLiquidParams lp;
  lp.n = n;
  lp.seed = seed;
  System sys = make_lj_liquid(lp);
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-0.1, 0.1);
  for (std::size_t k = 0; k < sys.particles.n_local; ++k) {
    sys.particles.position[k] += Vec3d{u(g), u(g), u(g)};
    sys.box.wrap(sys.particles.position[k], sys.particles.image[k]);
  }
  return sys;
}

// Every pair (i < j) of the positions p in the box by minimum image, the
// pair force from `pair(rsq)` (f_over_r), for one type: O(N^2), no cells.
// pairs[i]: how many pairs particle i is in.
template <class Pair>
std::vector<Vec3d> brute_force(const Box& box, const std::vector<Vec3d>& p, double rc, Pair&& pair,
                               std::vector<uint32_t>& pairs) {
  std::vector<Vec3d> f(p.size(), Vec3d{0, 0, 0});
  pairs.assign(p.size(), 0);
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      const Vec3d d = box.min_image(p[i] - p[j]);
      const double rsq = dot(d, d);
      if (rsq >= rc * rc || rsq == 0.0) continue;
      const double s = pair(rsq);
      f[i] += s * d;
      f[j] -= s * d;
      ++pairs[i], ++pairs[j];
    }
  return f;
}

// The relative L2 error the kernel's fixed point may add in double: each
// pair's component is rounded to the 2^-40 grid of pair_force_half.cuh
// (at most 2^-41 off), so particle i's component is at most pairs[i] 2^-41
// off; over all components, relative to |f|.
double fixed_point_bound(const std::vector<Vec3d>& f, const std::vector<uint32_t>& pairs) {
  double err2 = 0.0, norm2 = 0.0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    const double e = std::ldexp(double(pairs[i]), -41);
    err2 += 3.0 * e * e;
    norm2 += dot(f[i], f[i]);
  }
  return std::sqrt(err2 / norm2);
}

// Runs `sys` on the GPU with each variant (in double and mixed) and holds
// its forces at t = 0 to the brute-force sum of `pair` over the GPU's own
// stored positions (fp32 in mixed), so that the comparison sees the
// traversal and the pair arithmetic only.
template <class Pair>
void expect_brute_force(const BackendRegistry& reg, const System& sys, double rc, Pair&& pair,
                        const std::vector<const char*>& variants, double tol_mixed, const char* what) {
  for (const char* prec : {"double", "mixed"})
    for (const char* v : variants) {
      const std::string text = std::string(v) + ",precision=" + prec;
      const Vec3d l = sys.box.lengths();
      SCOPED_TRACE(text + " box " + std::to_string(l.x) + " x " + std::to_string(l.y) + " x " + std::to_string(l.z));
      Simulation gpu(reg.create("cuda", Variant::parse(text)), sys, RunParams{});
      const ParticleData<double> got = gpu.particles();
      const std::vector<Vec3d> pos(got.position.begin(), got.position.begin() + got.n_local);
      const std::vector<Vec3d> f(got.force.begin(), got.force.begin() + got.n_local);
      std::vector<uint32_t> pairs;
      const std::vector<Vec3d> want = brute_force(sys.box, pos, rc, pair, pairs);
      const double err = rel_l2(f, want), fixed = fixed_point_bound(want, pairs);
      std::printf("%s cells %s N=%zu: force rel L2 against brute force %.3e (fixed-point bound %.3e)\n", what,
                  text.c_str(), got.n_local, err, fixed);
      // double: fp64 round-off (1e-12, as the other lists) plus the fixed
      // point's own rounding (LJ's 1.3e-12 on an H200 exceeded 1e-12 alone).
      EXPECT_LT(err, std::string(prec) == "double" ? 1e-12 + fixed : tol_mixed);
    }
}

// DPD on boxes of 3 x 4 x 7 cells (each row wraps, the three x-cells of a
// row are all the row), 3 x 3 x 3 and 10^3; one, four and 32 lanes a
// particle, both cell lists, a reorder. In double 1e-12 plus the fixed
// point's rounding (fixed_point_bound); mixed evaluates in
// fp64 and stores the forces in fp32 (2^-24 relative each): 1e-6.
TEST(CudaCells, DpdForcesEqualBruteForce) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const Vec3d l : {Vec3d{3.05, 4.5, 7.2}, Vec3d{3.3, 3.3, 3.3}, Vec3d{10.0, 10.0, 10.0}}) {
    const System sys = conservative_dpd(seed, l.x, l.y, l.z);
    const physics::DpdPairParams pp = sys.pair_table<physics::DpdPairParams>()(0, 0);
    ASSERT_EQ(pp.gamma, 0.0);
    ASSERT_EQ(pp.sigma, 0.0);
    const auto pair = [&](double rsq) {
      return physics::dpd_pair_force<double>(rsq, 0.0, 0.0, 1.0, pp, physics::LibmPow{}).f_over_r;
    };
    expect_brute_force(reg, sys, pp.rcut, pair,
                       {"nlist=cells", "nlist=cells,tpp=4,cells=sorted", "nlist=cells,tpp=32,reorder=hilbert"}, 1e-6,
                       "DPD");
  }
}

// A dense clump: 600 of the 3000 particles of a 10^3 box moved into a ball
// of radius 1.2 at the box's centre (about 80 times the fluid's density
// there; the first version put the ball at (5, 5, 5), a corner of the
// [-5, 5) box, half outside it, and failed at 0.10 on an H200), so that a
// clump particle finds far more partners within r_c than the kernel keeps
// slots for (at most 64 a lane): it finds and evaluates them over several
// rounds, each resuming where the last stopped, and every pair must still
// be taken exactly once. Bounds as above (pair forces stay below a = 25).
TEST(CudaCells, DpdForcesEqualBruteForceInADenseClump) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  System sys = conservative_dpd(seed, 10.0, 10.0, 10.0);
  std::mt19937_64 g(seed ^ 0x5bd1e995u);
  std::uniform_real_distribution<double> u(-1.2, 1.2);
  ASSERT_EQ(sys.particles.n_local, 3000u);
  for (std::size_t moved = 0; moved < 600;) {  // every fifth particle
    const Vec3d d{u(g), u(g), u(g)};
    if (dot(d, d) <= 1.44) sys.particles.position[5 * moved++] = d;  // the box is [-5, 5): a ball at its centre
  }
  const physics::DpdPairParams pp = sys.pair_table<physics::DpdPairParams>()(0, 0);
  const auto pair = [&](double rsq) {
    return physics::dpd_pair_force<double>(rsq, 0.0, 0.0, 1.0, pp, physics::LibmPow{}).f_over_r;
  };
  expect_brute_force(reg, sys, pp.rcut, pair, {"nlist=cells", "nlist=cells,tpp=4"}, 1e-6, "DPD clump");
}

// LJ the same way (r_c = 2.5: 250 particles at rho = 0.4 make a box of 3
// cells an axis, 2000 one of 6). Mixed evaluates each pair in fp32
// (isotropic_pair_force.cuh): the LJ tests' fp32 bound, 1e-4.
TEST(CudaCells, LjForcesEqualBruteForce) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (uint64_t n : {250ull, 2000ull}) {
    const System sys = jittered_lj(seed, n);
    const physics::LjPairParams lp = sys.pair_table<physics::LjPairParams>()(0, 0);
    const auto pair = [&](double rsq) { return physics::lj_pair_force<double>(rsq, lp).f_over_r; };
    expect_brute_force(reg, sys, lp.rcut, pair, {"nlist=cells", "nlist=cells,tpp=8"}, 1e-4, "LJ");
  }
}

// What nlist=cells cannot run, refused with the value named: a box of fewer
// than 3 cells an axis, a table or an orientational style (full rows only),
// gather=record, dynamic pruning, and the cpu backend.
TEST(CudaCells, RefusesWhatItCannotRun) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  auto refused = [&](const char* backend, const System& sys, const char* v, const char* needle,
                     double inner_skin = 0.0) {
    RunParams rp;
    rp.inner_skin = inner_skin;
    try {
      Simulation s(reg.create(backend, Variant::parse(v)), sys, rp);
      ADD_FAILURE() << v << " accepted on " << backend;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  const System fluid = two_type_fluid(1, 3000);
  refused("cuda", conservative_dpd(1, 2.9, 5.0, 5.0), "nlist=cells", "3 cells");
  refused("cuda", fluid, "nlist=cells,gather=record", "gather=split");
  refused("cuda", fluid, "nlist=cells", "inner_skin", 0.1);
  refused("cpu", fluid, "nlist=cells", "nlist=cells");
}

}  // namespace
