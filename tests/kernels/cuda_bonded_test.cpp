// GPU (label gpu): the CUDA bonded force ("bonded", kernels/md/bonded_force.cu
// and bonded_force_op.cu) against the CPU reference (reference/src/
// bonded_force.cpp) on fresh random polymer solutions: forces, energy and
// virial in every precision; 200-step runs in double (velocity Verlet with
// the DPD thermostat, Langevin) within the round-off growth measured on the
// reference; the graph path bitwise the host-driven path, and two runs
// bitwise the same; an overstretched FENE bond refused with the reference's
// message, at the start and in the middle of a batch of graph steps.
// Skips (not passes) without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "meso/error.hpp"
#include "meso/init.hpp"
#include "meso/physics/bonded.hpp"
#include "meso/simulation.hpp"
#include "meso/topology.hpp"

namespace {

using namespace meso;

using test::fresh_seed;
using test::make_registry;

constexpr double kPi = std::numbers::pi;
// fp32's unit round-off: |fl(x) - x| <= 2^-24 |x| (round to nearest).
const double kFp32Roundoff = std::ldexp(1.0, -24);

// Every kind of term: FENE with the WCA core (Kremer-Grest) and without,
// two harmonic bonds, and harmonic angles straight, bent and tight.
void add_types(Topology& t) {
  t.bond_types = {{"kg", BondKind::fene, {}, {30.0, 1.5, 1.0, 1.0}},
                  {"soft", BondKind::fene, {}, {20.0, 2.0, 0.0, 1.0}},
                  {"s", BondKind::harmonic, {100.0, 0.97}, {}},
                  {"np", BondKind::harmonic, {400.0, 0.9}, {}}};
  t.angle_types = {{"line", {4.0, kPi}}, {"bent", {6.0, 2.0 * kPi / 3.0}}, {"tight", {12.0, 70.0 * kPi / 180.0}}};
}

// Storage index of each tag.
std::vector<uint32_t> index_of_tags(const ParticleData<double>& p) {
  std::vector<uint32_t> idx(p.n_local);
  for (uint32_t i = 0; i < p.n_local; ++i) idx[p.tag[i]] = i;
  return idx;
}

// A DPD solution of random chains at rho = 3 (make_dpd_fluid: uniform
// positions, Maxwell-Boltzmann velocities), N = n, two bead types at random
// with their own a_ij (a = 0: no conservative pair force; thermostat:
// gamma = 4.5, else no dissipative or random force). 60% of the tags, drawn
// at random (so a chain's tags are scattered and its beads far apart in the
// given order), form chains of 2 to 40 beads: persistent random walks of
// steps 0.8 to 1.2 wrapped across the box, with angles between 60 and 162
// degrees (away from 0 and 180, where acos is ill-conditioned and the
// comparison would measure the conditioning, not the kernel); each bond and
// angle of a random type, the angle's end tags in random order. The rest is
// solvent with no bonded rows. The particles are then stored in a random
// permutation of the tags.
System polymer_solution(uint64_t seed, uint64_t n, double a, bool thermostat) {
  DpdFluidParams fp;
  fp.n = n;
  fp.seed = seed;
  System sys = make_dpd_fluid(fp);
  sys.type_names = {"A", "B"};
  sys.type_mass = {1.0, 1.5};
  const double gamma = thermostat ? 4.5 : 0.0, sigma = std::sqrt(2.0 * gamma * sys.kT);
  PairTable<physics::DpdPairParams> t(2);
  t.set(0, 0, {a, gamma, sigma, 1.0, 1.0});
  t.set(1, 1, {1.2 * a, gamma, sigma, 1.0, 1.0});
  t.set(0, 1, {1.5 * a, gamma, sigma, 1.0, 1.0});
  sys.dpd = t;
  std::mt19937_64 g(seed ^ 0x5bd1e995u);
  auto& p = sys.particles;
  for (auto& ty : p.type) ty = uint32_t(g() & 1u);
  draw_maxwell_boltzmann(sys, 1.0, seed);

  std::vector<uint32_t> tags(n);
  std::iota(tags.begin(), tags.end(), 0u);
  std::shuffle(tags.begin(), tags.end(), g);
  const std::vector<uint32_t> idx = index_of_tags(p);
  Topology& top = sys.topology;
  add_types(top);
  std::uniform_real_distribution<double> uni(0.0, 1.0);
  std::normal_distribution<double> gauss;
  const Vec3d L = sys.box.lengths();
  const std::size_t bonded = std::size_t(0.6 * double(n));
  for (std::size_t c0 = 0; c0 + 1 < bonded;) {
    const std::size_t len = std::min<std::size_t>(2 + g() % 39, bonded - c0);
    if (len < 2) break;
    Vec3d r{(uni(g) - 0.5) * L.x, (uni(g) - 0.5) * L.y, (uni(g) - 0.5) * L.z};
    Vec3d u{gauss(g), gauss(g), gauss(g)};
    u = (1.0 / std::sqrt(dot(u, u))) * u;
    for (std::size_t k = 0; k < len; ++k) {
      const uint32_t tag = tags[c0 + k];
      if (k > 0) {
        Vec3d v;
        double c;
        do {
          v = u + 0.8 * Vec3d{gauss(g), gauss(g), gauss(g)};
          v = (1.0 / std::sqrt(dot(v, v))) * v;
          c = dot(u, v);
        } while (k > 1 && (c <= -0.5 || c >= 0.95));
        u = v;
        r += (0.8 + 0.4 * uni(g)) * u;
        top.bonds.push_back({tags[c0 + k - 1], tag, uint32_t(g() % top.bond_types.size())});
      }
      if (k > 1) {
        uint32_t ta = tags[c0 + k - 2], tc = tag;
        if (g() & 1u) std::swap(ta, tc);
        top.angles.push_back({ta, tags[c0 + k - 1], tc, uint32_t(g() % top.angle_types.size())});
      }
      const uint32_t i = idx[tag];
      p.position[i] = r;
      p.image[i] = {0, 0, 0};
      sys.box.wrap(p.position[i], p.image[i]);
    }
    c0 += len;
  }
  // A random storage order.
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), g);
  ParticleData<double> q;
  q.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const uint32_t i = order[k];
    q.position[k] = p.position[i];
    q.velocity[k] = p.velocity[i];
    q.force[k] = p.force[i];
    q.type[k] = p.type[i];
    q.tag[k] = p.tag[i];
    q.image[k] = p.image[i];
  }
  p = q;
  return sys;
}

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
    if (f->name() == "bonded") return f->sums();
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
  for (double a : {0.0, 25.0}) {
    const System sys = polymer_solution(seed, 4000, a, a > 0.0);
    ASSERT_GT(sys.topology.bonds.size(), 1500u);
    ASSERT_GT(sys.topology.angles.size(), 1000u);
    for (const char* prec : {"double", "mixed", "single"}) {
      const std::string p = prec;
      SCOPED_TRACE("a = " + std::to_string(a) + " precision=" + p);
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
      std::printf("bonded initial forces a=%.0f precision=%s: rel L2 = %.3e (tolerance %.3e)\n", a, prec,
                  err, tol);
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
  const System sys = polymer_solution(seed, 3000, 25.0, true);
  System perturbed = sys;
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1e-13, 1e-13);
  for (auto& r : perturbed.particles.position) r += Vec3d{u(g), u(g), u(g)};
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

ParticleData<double> run_cuda(const BackendRegistry& reg, const System& sys, const std::string& v,
                              uint64_t steps, bool graphs) {
  if (!graphs) setenv("MESO_CUDA_GRAPHS", "0", 1);
  auto b = reg.create("cuda", Variant::parse(v));
  unsetenv("MESO_CUDA_GRAPHS");
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

// The parts of the reference's message: before " has r = ", r, and the step.
struct FeneMessage {
  std::string head;
  double r = 0.0;
  uint64_t step = 0;
};
FeneMessage parse(const std::string& msg) {
  FeneMessage m;
  const std::size_t h = msg.find(" has r = "), s = msg.find(" at step ");
  EXPECT_NE(h, std::string::npos) << msg;
  EXPECT_NE(s, std::string::npos) << msg;
  if (h == std::string::npos || s == std::string::npos) return m;
  m.head = msg.substr(0, h);
  m.r = std::strtod(msg.c_str() + h + 9, nullptr);
  m.step = std::strtoull(msg.c_str() + s + 9, nullptr, 10);
  return m;
}

TEST(CudaBonded, OverstretchedFeneBondAtTheStartIsRefusedNamingIt) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  // The reference's case (bonded_dynamics_test.cpp): bond 1 at r = 1.6.
  System sys;
  sys.box = Box(10.0);
  sys.dpd.set(0, 0, {0.0, 0.0, 0.0, 1.0, 1.0});
  auto& p = sys.particles;
  p.resize(3);
  const Vec3d at[] = {{0.0, 0.0, 0.0}, {1.6, 0.0, 0.0}, {3.0, 0.0, 0.0}};
  for (uint32_t i = 0; i < 3; ++i) {
    p.position[i] = at[i];
    p.velocity[i] = {0.0, 0.0, 0.0};
    p.image[i] = {0, 0, 0};
    p.tag[i] = i;
    p.type[i] = 0;
  }
  add_types(sys.topology);
  sys.topology.bonds = {{1, 2, 2}, {0, 1, 0}};  // s, then kg
  for (const char* prec : {"double", "mixed", "single"}) {
    SCOPED_TRACE(prec);
    try {
      Simulation sim(reg.create("cuda", Variant::parse(std::string("precision=") + prec)), sys, RunParams{});
      ADD_FAILURE() << "an overstretched FENE bond was accepted";
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("bond.fene: bond out of bounds: bond 1 (type kg) between tags 0 and 1 has r = 1.6 >= "
                         "R0 = 1.5 at step 0"),
                std::string::npos)
          << msg;
    }
  }
}

// Two FENE bonds (topology indices m and m + 1) whose beads fly apart at a
// relative speed of 40 in a polymer solution: r goes 1.0, 1.20, 1.39, then
// about 1.57 >= R0 = 1.5 at step 3, well clear of R0 at every step, so the
// reference and the GPU fail at the same step on the same bond (the first
// in topology order: m), inside a batch of 20 graph steps (the state frozen
// there) and on the host-driven path. r as printed (6 significant digits):
// double to 1e-5 relative (the print's rounding; the trajectories differ by
// round-off only), mixed to 1e-4 (fp32 positions over 3 steps).
TEST(CudaBonded, FeneBondStretchedDuringARunIsRefusedNamingIt) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  System sys = polymer_solution(seed, 3000, 25.0, false);
  // Four solvent beads (no bonded rows) become the two flying pairs.
  std::vector<bool> bonded(sys.particles.n_local, false);
  for (const Bond& b : sys.topology.bonds) bonded[b.a] = bonded[b.b] = true;
  std::vector<uint32_t> free;
  for (uint32_t t = 0; t < bonded.size() && free.size() < 4; ++t)
    if (!bonded[t]) free.push_back(t);
  ASSERT_EQ(free.size(), 4u);
  const std::vector<uint32_t> idx = index_of_tags(sys.particles);
  const uint32_t m = uint32_t(sys.topology.bonds.size());
  for (int pair = 0; pair < 2; ++pair) {
    const Vec3d centre{pair ? 2.0 : -2.0, 0.5, -1.0};
    for (int end = 0; end < 2; ++end) {
      const uint32_t i = idx[free[2 * pair + end]];
      const double sgn = end ? 1.0 : -1.0;
      sys.particles.position[i] = centre + Vec3d{0.5 * sgn, 0.0, 0.0};
      sys.particles.velocity[i] = {20.0 * sgn, 0.0, 0.0};
      sys.particles.image[i] = {0, 0, 0};
    }
    sys.topology.bonds.push_back({free[2 * pair], free[2 * pair + 1], 0});  // kg
  }
  RunParams rp;
  rp.seed = uint32_t(seed);
  auto message = [&](std::unique_ptr<Backend> b) {
    try {
      Simulation sim(std::move(b), sys, rp);
      sim.run(20);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const FeneMessage want = parse(message(reg.create("cpu", Variant{})));
  EXPECT_EQ(want.head, "bond.fene: bond out of bounds: bond " + std::to_string(m) + " (type kg) between tags " +
                           std::to_string(free[0]) + " and " + std::to_string(free[1]));
  EXPECT_EQ(want.step, 3u);
  EXPECT_GT(want.r, 1.52);
  for (const char* prec : {"double", "mixed"})
    for (bool graphs : {true, false}) {
      SCOPED_TRACE(std::string(prec) + (graphs ? " graphs" : " host path"));
      if (!graphs) setenv("MESO_CUDA_GRAPHS", "0", 1);
      auto b = reg.create("cuda", Variant::parse(std::string("reorder=morton2,sort=2,precision=") + prec));
      unsetenv("MESO_CUDA_GRAPHS");
      const std::string msg = message(std::move(b));
      const FeneMessage got = parse(msg);
      EXPECT_EQ(got.head, want.head) << msg;
      EXPECT_EQ(got.step, want.step) << msg;
      EXPECT_NEAR(got.r, want.r, (std::string(prec) == "double" ? 1e-5 : 1e-4) * want.r) << msg;
    }
}

}  // namespace
