// The reference MD-SCF field ("field/mdscf", reference/src/mdscf/mdscf_force.cpp)
// through the plan: the cloud-in-cell density of particles on vertices by
// hand, the potential at a vertex by hand, zero force in a uniform field,
// the force of one particle in the field of another (direction and
// symmetry), the filter keeping the particle count, the composition list
// (an absent type changes nothing), and the update period.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>

#include "meso/ops/field.hpp"
#include "meso/physics/mdscf.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"

namespace {

using namespace meso;

std::unique_ptr<Backend> cpu() { return std::make_unique<reference::CpuBackend<double>>(Variant::parse("")); }

// Pair style none, `ntypes` types, a grid of n^3 vertices in a cube of edge L.
System field_system(double L, uint32_t n, uint32_t ntypes, const std::vector<Vec3d>& pos,
                    const std::vector<uint32_t>& types) {
  System sys;
  sys.box = Box(L);
  sys.pair = {};
  sys.type_names.clear();
  for (uint32_t t = 0; t < ntypes; ++t) sys.type_names.push_back(std::string(1, char('A' + t)));
  sys.type_mass.assign(ntypes, 1.0);
  auto& p = sys.particles;
  p.resize(pos.size());
  for (std::size_t i = 0; i < pos.size(); ++i) {
    p.position[i] = pos[i];
    p.image[i] = {0, 0, 0};
    sys.box.wrap(p.position[i], p.image[i]);
    p.velocity[i] = {0, 0, 0};
    p.type[i] = types[i];
    p.tag[i] = static_cast<uint32_t>(i);
  }
  MdscfField& f = sys.mdscf;
  f.nx = f.ny = f.nz = n;
  f.chi.assign(ntypes * ntypes, 0.0);
  f.inv_kappa = 2.0;
  f.rho0 = 1.0;
  f.update_every = 1;
  return sys;
}

RunParams nve() {
  RunParams r;
  r.integrator = Integrator::nve;
  r.dt = 0.001;
  r.skin = 0.0;
  return r;
}

const MdscfFieldOp& field_of(Simulation& sim) {
  return dynamic_cast<const MdscfFieldOp&>(*sim.plan().forces().back());
}

TEST(MdscfForce, DensityAndPotentialByHand) {
  // Box 8, grid 8^3 (h = 1, vertices at -4 + i). Type A at vertex (4, 4, 4)
  // = (0, 0, 0); type B at (0.25, 0, 0): weight 3/4 on (4,4,4), 1/4 on (5,4,4).
  System sys = field_system(8.0, 8, 2, {{0.0, 0.0, 0.0}, {0.25, 0.0, 0.0}}, {0, 1});
  sys.mdscf.chi = {0.0, 3.0, 3.0, 0.0};
  sys.mdscf.rho0 = 0.5;  // phi = rho / rho0 = weight / (h^3 rho0) = 2 weight
  Simulation sim(cpu(), sys, nve());
  MdscfSnapshot s;
  field_of(sim).snapshot(s);
  ASSERT_EQ(s.types, (std::vector<uint32_t>{0, 1}));
  const physics::GridShape g{8, 8, 8};
  const std::size_t nv = g.size();
  const uint32_t v0 = g.index(4, 4, 4), v1 = g.index(5, 4, 4);
  EXPECT_NEAR(s.phi[v0], 2.0, 1e-14);
  EXPECT_NEAR(s.phi[nv + v0], 1.5, 1e-14);
  EXPECT_NEAR(s.phi[nv + v1], 0.5, 1e-14);
  double total = 0.0;
  for (double x : s.phi) total += x;
  EXPECT_NEAR(total, 2.0 * 2.0, 1e-12);  // 2 particles, 2 per unit weight
  // V_A(v0) = chi_AB phi_B + (1/kappa)(phi_A + phi_B - 1) = 3 * 1.5 + 2 * 2.5
  EXPECT_NEAR(s.potential[v0], 4.5 + 5.0, 1e-13);
  // V_B(v1) = chi_BA phi_A + 2 (0 + 0.5 - 1) = 0 - 1
  EXPECT_NEAR(s.potential[nv + v1], -1.0, 1e-13);
  // An empty vertex: V = (1/kappa)(0 - 1) = -2 for both types.
  EXPECT_NEAR(s.potential[g.index(0, 0, 0)], -2.0, 1e-14);
  // Energy: rho0 h^3 sum_v [chi_AB phi_A phi_B + (1/kappa)/2 (phi_A + phi_B - 1)^2].
  double e = 0.0;
  for (std::size_t v = 0; v < nv; ++v) {
    const double a = s.phi[v], b = s.phi[nv + v];
    e += 3.0 * a * b + 1.0 * (a + b - 1.0) * (a + b - 1.0);
  }
  EXPECT_NEAR(sim.thermo().potential_energy, 0.5 * e, 1e-10);
}

TEST(MdscfForce, UniformDensityExertsNoForce) {
  // One particle on every vertex: phi uniform, V uniform, gradient zero.
  std::vector<Vec3d> pos;
  std::vector<uint32_t> types;
  for (int k = 0; k < 6; ++k)
    for (int j = 0; j < 6; ++j)
      for (int i = 0; i < 6; ++i) {
        pos.push_back({-3.0 + i, -3.0 + j, -3.0 + k});
        types.push_back((i + j + k) % 2 ? 0u : 0u);
      }
  System sys = field_system(6.0, 6, 1, pos, types);
  sys.mdscf.filter_sigma = 0.7;
  Simulation sim(cpu(), sys, nve());
  const ParticleData<double> p = sim.particles();
  for (std::size_t i = 0; i < p.n_local; ++i) {
    EXPECT_NEAR(p.force[i].x, 0.0, 1e-12);
    EXPECT_NEAR(p.force[i].y, 0.0, 1e-12);
    EXPECT_NEAR(p.force[i].z, 0.0, 1e-12);
  }
}

TEST(MdscfForce, RepulsiveFieldPushesApartSymmetrically) {
  // Two particles of type A at +-d along x, compressible field only
  // (chi = 0): each sits in the other's density bump and is pushed away,
  // with equal and opposite x forces and no y, z force.
  System sys = field_system(12.0, 24, 1, {{-0.6, 0.0, 0.0}, {0.6, 0.0, 0.0}}, {0, 0});
  sys.mdscf.filter_sigma = 0.5;  // smooth enough that the bumps overlap
  Simulation sim(cpu(), sys, nve());
  const ParticleData<double> p = sim.particles();
  EXPECT_LT(p.force[0].x, -1e-3);
  EXPECT_NEAR(p.force[0].x, -p.force[1].x, 1e-12 * std::fabs(p.force[0].x));
  EXPECT_NEAR(p.force[0].y, 0.0, 1e-12);
  EXPECT_NEAR(p.force[0].z, 0.0, 1e-12);
}

TEST(MdscfForce, FilterKeepsTheParticleCount) {
  // One type, chi = 0: V = G * ((1/kappa)(G * phi - 1)), and G keeps sums,
  // so sum_v V = (1/kappa)(sum_v phi - nv) exactly (to round-off).
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-5.0, 5.0);
  std::vector<Vec3d> pos;
  for (int i = 0; i < 300; ++i) pos.push_back({u(rng), u(rng), u(rng)});
  System sys = field_system(10.0, 12, 1, pos, std::vector<uint32_t>(300, 0));
  sys.mdscf.filter_sigma = 1.1;
  Simulation sim(cpu(), sys, nve());
  MdscfSnapshot s;
  field_of(sim).snapshot(s);
  double sum_phi = 0.0, sum_v = 0.0;
  for (double x : s.phi) sum_phi += x;
  for (double x : s.potential) sum_v += x;
  const double nv = 12.0 * 12 * 12;
  EXPECT_NEAR(sum_phi, 300.0 / (1.0 * (10.0 / 12) * (10.0 / 12) * (10.0 / 12)), 1e-9);
  EXPECT_NEAR(sum_v, 2.0 * (sum_phi - nv), 1e-9 * nv);
}

TEST(MdscfForce, AbsentTypesChangeNothing) {
  // The same particles of types A, B with a third type C declared (with
  // non-zero chi) but absent: forces identical bit for bit.
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(-4.0, 4.0);
  std::vector<Vec3d> pos;
  std::vector<uint32_t> types;
  for (int i = 0; i < 200; ++i) {
    pos.push_back({u(rng), u(rng), u(rng)});
    types.push_back(i % 2);
  }
  System two = field_system(8.0, 10, 2, pos, types);
  two.mdscf.chi = {0.0, 5.0, 5.0, 0.0};
  System three = field_system(8.0, 10, 3, pos, types);
  three.mdscf.chi = {0.0, 5.0, 7.0, 5.0, 0.0, -2.0, 7.0, -2.0, 1.0};
  Simulation a(cpu(), two, nve()), b(cpu(), three, nve());
  MdscfSnapshot sb;
  field_of(b).snapshot(sb);
  EXPECT_EQ(sb.types, (std::vector<uint32_t>{0, 1}));
  a.run(20);
  b.run(20);
  const ParticleData<double> pa = a.particles(), pb = b.particles();
  for (std::size_t i = 0; i < pa.n_local; ++i) {
    EXPECT_EQ(pa.position[i].x, pb.position[i].x);
    EXPECT_EQ(pa.force[i].y, pb.force[i].y);
  }
}

TEST(MdscfForce, FieldUpdatesEveryNSteps) {
  std::vector<Vec3d> pos{{0.1, 0.2, 0.3}, {1.0, -1.0, 0.5}};
  System sys = field_system(8.0, 8, 1, pos, {0, 0});
  sys.particles.velocity[0] = {1.0, 0.0, 0.0};
  sys.mdscf.update_every = 5;
  Simulation sim(cpu(), sys, nve());
  MdscfSnapshot s;
  field_of(sim).snapshot(s);
  EXPECT_EQ(s.updates, 1u);  // the initial forces
  sim.run(4);                // steps 1..4: no multiple of 5
  field_of(sim).snapshot(s);
  EXPECT_EQ(s.updates, 1u);
  sim.run(1);  // step 5
  field_of(sim).snapshot(s);
  EXPECT_EQ(s.updates, 2u);
  sim.run(10);  // steps 6..15: 10, 15
  field_of(sim).snapshot(s);
  EXPECT_EQ(s.updates, 4u);
}

TEST(MdscfForce, PlanRefusesNoForcesAndFuse) {
  System sys = field_system(8.0, 8, 1, {{0, 0, 0}}, {0});
  sys.mdscf.nx = 0;  // no field, no topology, pair style none
  EXPECT_THROW(Simulation(cpu(), sys, nve()), InputError);
  System bad = field_system(8.0, 3, 1, {{0, 0, 0}}, {0});
  try {
    Simulation s(cpu(), bad, nve());
    FAIL() << "a 3^3 grid was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("MD-SCF grid 3 x 3 x 3"), std::string::npos) << e.what();
  }
}

}  // namespace

namespace {

using namespace meso;

TEST(MdscfForce, MirrorImageGivesMirrorForces) {
  // The grid of a box centred at 0 is symmetric under z -> -z (vertex
  // planes at -L/2 + k h), and so are cloud-in-cell, the filter and the
  // central differences: the mirror image of a configuration feels the
  // mirror image of its forces.
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> u(-3.9, 3.9);
  std::vector<Vec3d> pos, mirror;
  std::vector<uint32_t> types;
  for (int i = 0; i < 400; ++i) {
    pos.push_back({u(rng), u(rng), u(rng)});
    mirror.push_back({pos.back().x, pos.back().y, -pos.back().z});
    types.push_back(i % 3);
  }
  auto make = [&](const std::vector<Vec3d>& p) {
    System sys = field_system(8.0, 11, 3, p, types);
    sys.box = Box(8.0, 8.0, 9.0);
    sys.mdscf.nz = 13;
    sys.mdscf.chi = {0.0, 4.0, -1.0, 4.0, 0.0, 2.0, -1.0, 2.0, 0.0};
    sys.mdscf.filter_sigma = 0.6;
    return sys;
  };
  Simulation a(cpu(), make(pos), nve()), b(cpu(), make(mirror), nve());
  const ParticleData<double> pa = a.particles(), pb = b.particles();
  for (std::size_t i = 0; i < pa.n_local; ++i) {
    EXPECT_NEAR(pa.force[i].x, pb.force[i].x, 1e-11) << i;
    EXPECT_NEAR(pa.force[i].z, -pb.force[i].z, 1e-11) << i;
  }
}

}  // namespace

namespace {

using namespace meso;

TEST(MdscfForce, ShiftedGridIsTheGridAtTheShift) {
  // With grid_shift the initial update places the grid at lo + s, s =
  // mdscf_grid_shift(0, seed, h): the density of particles at r on it is
  // the density of particles at r - s on the unshifted grid.
  const std::vector<Vec3d> pos{{0.3, -1.2, 2.0}, {-2.5, 0.7, -0.1}, {3.9, 3.9, -3.9}};
  const std::vector<uint32_t> types{0, 1, 0};
  RunParams rp = nve();
  rp.seed = 77;
  System shifted = field_system(8.0, 10, 2, pos, types);
  shifted.mdscf.grid_shift = true;
  const Vec3d s = physics::mdscf_grid_shift(0, 77, {0.8, 0.8, 0.8});
  EXPECT_GT(s.x + s.y + s.z, 0.0);
  std::vector<Vec3d> moved;
  for (const Vec3d& r : pos) moved.push_back(r - s);
  const System fixed = field_system(8.0, 10, 2, moved, types);
  Simulation a(cpu(), shifted, rp), b(cpu(), fixed, rp);
  MdscfSnapshot sa, sb;
  field_of(a).snapshot(sa);
  field_of(b).snapshot(sb);
  ASSERT_EQ(sa.phi.size(), sb.phi.size());
  for (std::size_t v = 0; v < sa.phi.size(); ++v) EXPECT_NEAR(sa.phi[v], sb.phi[v], 1e-12) << v;
}

}  // namespace
