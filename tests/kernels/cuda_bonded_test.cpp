// GPU (label gpu): the CUDA bonded force ("bonded" and "bonded/table",
// kernels/md/bonded_force.cu and bonded_force_op.cu) against the CPU
// reference (reference/src/bonded_force.cpp) on fresh random polymer
// solutions, with analytic terms and with tabulated ones: forces, energy and
// virial in every precision; 200-step runs in double (velocity Verlet with
// the DPD thermostat, Langevin) within the round-off growth measured on the
// reference; the graph path bitwise the host-driven path, and two runs
// bitwise the same (an overstretched FENE bond: cuda_bonded_fene_test.cpp).
// Skips (not passes) without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "cuda_bonded_test_support.hpp"
#include "gpu_test_support.hpp"
#include "meso/physics/bonded.hpp"
#include "meso/run/simulation.hpp"
#include "meso/core/topology.hpp"
#include "support/roundoff_growth.hpp"

namespace {

using namespace meso;

using test::fresh_seed;
using test::make_registry;
using test::polymer_solution;
using test::with_tables;

// fp32's unit round-off: |fl(x) - x| <= 2^-24 |x| (round to nearest).
const double kFp32Roundoff = std::ldexp(1.0, -24);

// The system with positions and velocities rounded to fp32, as precision=
// mixed stores them (positions relative to the box centre, the origin):
// the reference then sees the GPU's inputs exactly.
System rounded_to_fp32(System sys) {
  auto round = [](Vec3d& v) { v = vec_cast<double>(vec_cast<float>(v)); };
  for (auto& r : sys.particles.position) round(r);
  for (auto& v : sys.particles.velocity) round(v);
  return sys;
}

// In tag order (ParticleData from Simulation::particles()).
std::vector<Vec3d> forces_of(const ParticleData<double>& p) { return {p.force.begin(), p.force.begin() + p.n_local}; }

double norm(const std::vector<Vec3d>& a) {
  double s = 0.0;
  for (const Vec3d& v : a) s += dot(v, v);
  return std::sqrt(s);
}
double rel_l2(const std::vector<Vec3d>& a, const std::vector<Vec3d>& b) {
  double num = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Vec3d d = a[i] - b[i];
    num += dot(d, d);
  }
  return std::sqrt(num) / norm(b);
}
double max_abs_diff(const ParticleData<double>& a, const ParticleData<double>& b, const Box& box) {
  double m = 0.0;
  for (std::size_t i = 0; i < a.n_local; ++i) {
    const Vec3d d = box.min_image(a.position[i] - b.position[i]);
    m = std::max({m, std::fabs(d.x), std::fabs(d.y), std::fabs(d.z)});
  }
  return m;
}

PairSums bonded_sums(Simulation& s) {
  for (const auto& f : s.plan().forces())
    if (f->name() == "bonded" || f->name() == "bonded/table") return f->sums();
  ADD_FAILURE() << "the plan has no bonded force";
  return {};
}

// The scale of round-off in the bonded energy and virial sums: the sums of
// the terms' magnitudes, from the state p (tag order).
PairSums term_magnitudes(const System& sys, const ParticleData<double>& p) {
  const Topology& t = sys.topology;
  const auto& r = p.position;
  PairSums s;
  for (const Bond& b : t.bonds) {
    const Vec3d d = sys.box.min_image(r[b.a] - r[b.b]);
    const BondType& bt = t.bond_types[b.type];
    const auto f = bt.kind == BondKind::fene ? physics::fene_bond<double>(dot(d, d), bt.fene)
                                             : physics::harmonic_bond<double>(dot(d, d), bt.harmonic);
    s.energy += std::fabs(f.energy);
    s.virial += std::fabs(f.f_over_r * dot(d, d));
  }
  for (const Angle& a : t.angles) {
    const auto f = physics::harmonic_angle<double>(sys.box.min_image(r[a.a] - r[a.b]),
                                                   sys.box.min_image(r[a.c] - r[a.b]),
                                                   t.angle_types[a.type].harmonic);
    s.energy += std::fabs(f.energy);
    s.virial += std::fabs(dot(sys.box.min_image(r[a.a] - r[a.b]), f.fa)) +
                std::fabs(dot(sys.box.min_image(r[a.c] - r[a.b]), f.fc));
  }
  return s;
}

// The forces of t = 0 (the plan's prepare), with a pair force or without
// one (a = 0, thermostat off: the net force is the bonded force alone), in
// every precision, against the reference. Reorder (morton2) permutes the
// GPU's storage on top of the random given order.
//
// Tolerances (relative L2 of the forces; energy and virial: the relative
// round-off 1e-12 times the sum of the terms' magnitudes):
//  - double: 1e-12 (ARCHITECTURE.md, "Correctness strategy").
//  - mixed: the GPU stores fp32 positions and velocities, so the reference
//    runs on the same values rounded to fp32 (rounded_to_fp32) and the
//    arithmetic (fp64 on both) agrees to 1e-12 as in double; what remains
//    is the fp32 storage of the forces: the pair force is stored (rounding
//    F_pair) and the bonded force added to it and stored again (rounding
//    F), so |error| <= 2^-24 (|F_pair| + |F|) per component, and the
//    relative L2 error at most 2^-24 (||F_pair|| + ||F||) / ||F||, with
//    ||F_pair|| from a reference run without the topology. The energy and
//    virial are fp64 sums of fp64 terms from the same positions: 1e-12.
//  - single: fp32 arithmetic as well; 1e-4 and 1e-5 for the sums, as the
//    single DPD comparisons (cuda_backend_test.cpp), a sanity bound, not a
//    gate.
TEST(CudaBonded, InitialForcesEnergyAndVirialMatchReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  RunParams rp;
  rp.seed = uint32_t(seed);
  for (const bool tables : {false, true})
  for (double a : {0.0, 25.0}) {
    const System sys = tables ? with_tables(polymer_solution(seed, 4000, a, a > 0.0))
                              : polymer_solution(seed, 4000, a, a > 0.0);
    ASSERT_GT(sys.topology.bonds.size(), 1500u);
    ASSERT_GT(sys.topology.angles.size(), 1000u);
    for (const char* prec : {"double", "mixed", "single"}) {
      const std::string p = prec;
      SCOPED_TRACE(std::string(tables ? "tables, " : "") + "a = " + std::to_string(a) + " precision=" + p);
      const System in = p == "double" ? sys : rounded_to_fp32(sys);
      Simulation cpu(reg.create("cpu", Variant{}), in, rp);
      Simulation gpu(reg.create("cuda", Variant::parse("reorder=morton2,sort=5,precision=" + p)), in, rp);
      const ParticleData<double> want = cpu.particles(), got = gpu.particles();
      double tol = 1e-12, sum_tol = 1e-12;
      if (p == "mixed") {
        System no_bonds = in;
        no_bonds.topology = {};
        Simulation pair(reg.create("cpu", Variant{}), no_bonds, rp);
        const double f_pair = norm(forces_of(pair.particles())), f = norm(forces_of(want));
        tol = kFp32Roundoff * (f_pair + f) / f + 1e-12;
      } else if (p == "single") {
        tol = 1e-4;
        sum_tol = 1e-5;
      }
      const double err = rel_l2(forces_of(got), forces_of(want));
      std::printf("bonded initial forces%s a=%.0f precision=%s: rel L2 = %.3e (tolerance %.3e)\n",
                  tables ? " (tables)" : "", a, prec, err, tol);
      EXPECT_LT(err, tol);
      const PairSums sg = bonded_sums(gpu), sc = bonded_sums(cpu), scale = term_magnitudes(in, want);
      EXPECT_GT(sc.energy, 1.0);
      EXPECT_NEAR(sg.energy, sc.energy, sum_tol * scale.energy);
      EXPECT_NEAR(sg.virial, sc.virial, sum_tol * scale.virial);
      for (std::size_t i = 0; i < got.n_local; ++i) ASSERT_EQ(got.tag[i], want.tag[i]);
    }
  }
}

// 200 steps of a polymer solution in double (DPD pair force with its
// thermostat under velocity Verlet; the same with Langevin), the bonded
// force with every list and reorder the pair force uses. After 10 steps
// forces and velocities agree to 1e-12 and the bonded energy and virial to
// 1e-12 of the terms' magnitudes (round-off growth over 10 steps is
// negligible, as in cuda_backend_test's 20-step comparisons). After 200
// steps the trajectories are compared as Trajectory100StepsWithinRoundoffGrowth
// does: the GPU stays within 10 times the distance a 1e-13 perturbation of
// the reference's start grows to in the reference itself.
TEST(CudaBonded, PolymerRunStaysWithReference) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const bool tables : {false, true}) {
  SCOPED_TRACE(tables ? "tables" : "analytic");
  const System sys = tables ? with_tables(polymer_solution(seed, 3000, 25.0, true))
                            : polymer_solution(seed, 3000, 25.0, true);
  const System perturbed = test::perturbed_start(sys, seed);
  for (Integrator integ : {Integrator::velocity_verlet, Integrator::langevin}) {
    RunParams rp;
    rp.integrator = integ;
    rp.seed = uint32_t(seed);
    SCOPED_TRACE(std::string("integrator=") + to_string(integ));
    Simulation ref(reg.create("cpu", Variant{}), sys, rp);
    ref.run(10);
    const ParticleData<double> want10 = ref.particles();
    const PairSums sums10 = bonded_sums(ref), scale = term_magnitudes(sys, want10);
    ref.run(190);
    Simulation ref2(reg.create("cpu", Variant{}), perturbed, rp);
    ref2.run(200);
    const double growth = max_abs_diff(ref2.particles(), ref.particles(), sys.box);
    for (const char* v : {"reorder=morton2,sort=20", "nlist=atomic,cells=sorted,reorder=hilbert,sort=7",
                          "nlist=tiled,reorder=none"}) {
      SCOPED_TRACE(v);
      Simulation gpu(reg.create("cuda", Variant::parse(v)), sys, rp);
      gpu.run(10);
      const ParticleData<double> got = gpu.particles();
      EXPECT_LT(rel_l2(forces_of(got), forces_of(want10)), 1e-12);
      EXPECT_LT(rel_l2({got.velocity.begin(), got.velocity.end()}, {want10.velocity.begin(), want10.velocity.end()}),
                1e-12);
      const PairSums s = bonded_sums(gpu);
      EXPECT_NEAR(s.energy, sums10.energy, 1e-12 * scale.energy);
      EXPECT_NEAR(s.virial, sums10.virial, 1e-12 * scale.virial);
      gpu.run(190);
      const double err = max_abs_diff(gpu.particles(), ref.particles(), sys.box);
      std::printf("bonded 200 steps %s %s: max |dx| GPU-CPU = %.3e, perturbed-reference growth = %.3e\n",
                  to_string(integ), v, err, growth);
      EXPECT_LT(err, 10.0 * growth);
    }
  }
  }
}

ParticleData<double> run_cuda(const BackendRegistry& reg, const System& sys, const std::string& v,
                              uint64_t steps, bool graphs) {
  Variant variant = Variant::parse(v);
  variant.graphs = graphs;
  auto b = reg.create("cuda", variant);
  RunParams rp;
  rp.seed = 11;
  Simulation s(std::move(b), sys, rp);
  s.run(steps);
  return s.particles();
}

void expect_bitwise(const ParticleData<double>& a, const ParticleData<double>& b) {
  ASSERT_EQ(a.n_local, b.n_local);
  for (std::size_t i = 0; i < a.n_local; ++i) {
    ASSERT_EQ(a.position[i].x, b.position[i].x) << "tag " << i;
    ASSERT_EQ(a.position[i].y, b.position[i].y) << "tag " << i;
    ASSERT_EQ(a.position[i].z, b.position[i].z) << "tag " << i;
    ASSERT_EQ(a.velocity[i].x, b.velocity[i].x) << "tag " << i;
    ASSERT_EQ(a.force[i].y, b.force[i].y) << "tag " << i;
  }
}

// The bonded kernel inside the captured step graph (with rebuilds and
// reorders inside the graph) is bitwise the host-driven path, and two runs
// are bitwise the same (no atomics in the forces, fixed-order sums).
TEST(CudaBonded, GraphPathIsTheHostPathAndDeterministic) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = polymer_solution(seed, 3000, 25.0, true);
  for (const char* prec : {"double", "mixed"}) {
    const std::string v = std::string("reorder=morton2,sort=10,precision=") + prec;
    SCOPED_TRACE(v);
    const ParticleData<double> graph = run_cuda(reg, sys, v, 60, true);
    expect_bitwise(graph, run_cuda(reg, sys, v, 60, false));
    expect_bitwise(graph, run_cuda(reg, sys, v, 60, true));
  }
}

}  // namespace
