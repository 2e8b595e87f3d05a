// Bonded forces on the reference backend ("bonded", reference/src/
// bonded_force.cpp) through the whole machinery: a chain by hand across
// periodic boundaries, forces against finite differences of the thermo
// energy, zero net force and torque, NVE energy conservation of a
// bead-spring melt with its dt^2 scaling, invariance under reordering and
// thread count, the bonded energy and virial in thermo, and the FENE
// out-of-bounds error.
#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/core/init.hpp"
#include "meso/physics/bonded.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"
#include "meso/core/topology.hpp"

namespace {

using namespace meso;

Topology topology(const std::string& text) {
  std::istringstream in(text);
  return read_topology(in, "test.top");
}

std::unique_ptr<Backend> cpu(const char* variant = "") {
  return std::make_unique<reference::CpuBackend<double>>(Variant::parse(variant));
}

Vec3d cross(Vec3d a, Vec3d b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// N particles at the given positions (wrapped into the box), at rest, with
// DPD pair parameters (a, gamma = sigma = 0: conservative only; a = 0: no
// pair force at all), tags in the given order.
System particles_at(double L, const std::vector<Vec3d>& pos, const std::vector<uint32_t>& tags,
                    double a = 0.0) {
  System sys;
  sys.box = Box(L);
  sys.pair_table<physics::DpdPairParams>().set(0, 0, {a, 0.0, 0.0, 1.0, 1.0});
  auto& p = sys.particles;
  p.resize(pos.size());
  for (std::size_t i = 0; i < pos.size(); ++i) {
    p.position[i] = pos[i];
    p.image[i] = {0, 0, 0};
    sys.box.wrap(p.position[i], p.image[i]);
    p.velocity[i] = {0.0, 0.0, 0.0};
    p.tag[i] = tags[i];
    p.type[i] = 0;
  }
  return sys;
}

// Three beads a-b-c (tags 0, 1, 2; b the vertex), stored in the order c, a,
// b: r_a - r_b = (0.5, 0, 0) across the x boundary, r_c - r_b = (0, 0.8, 0)
// across the y boundary of a box of 10.
System three_bead_chain() {
  System sys = particles_at(10.0, {{4.7, -4.6, 0.0}, {-4.8, 4.6, 0.0}, {4.7, 4.6, 0.0}}, {2, 0, 1});
  sys.topology = topology(
      "bond_type s harmonic 100 0.6\n"
      "angle_type b harmonic 25 120\n"
      "bond s 0 1\nbond s 1 2\nangle b 0 1 2\n");
  return sys;
}

TEST(BondedForce, ThreeBeadChainByHandAcrossBoundaries) {
  Simulation sim(cpu(), three_bead_chain(), RunParams{});
  const ParticleData<double> p = sim.particles();  // tag order: a, b, c
  // Bond a-b at r = 0.5: F_a = -k (r - r0) e_ab = (10, 0, 0); bond b-c at
  // r = 0.8: F_c = -k (0.8 - 0.6) e_cb = (0, -20, 0). The right angle is
  // 30 degrees below theta0: dV/dtheta = -25 pi/6, and the angle opens: a
  // moves along -y with |dV/dtheta| / 0.5, c along -x with |dV/dtheta| / 0.8.
  const double g = 25.0 * std::numbers::pi / 6.0;
  const Vec3d fa{10.0, -g / 0.5, 0.0}, fc{-g / 0.8, -20.0, 0.0};
  const Vec3d fb{-10.0 + g / 0.8, 20.0 + g / 0.5, 0.0};
  for (auto [got, want] : {std::pair{p.force[0], fa}, std::pair{p.force[1], fb}, std::pair{p.force[2], fc}}) {
    EXPECT_NEAR(got.x, want.x, 1e-12);
    EXPECT_NEAR(got.y, want.y, 1e-12);
    EXPECT_EQ(got.z, 0.0);
  }
  // Energy 100/2 (0.1^2 + 0.2^2) + 25/2 (pi/6)^2; virial sum r . F of the
  // bonds, -k (r - r0) r = 5 and -16 (the angle's is zero).
  const ThermoSample t = sim.thermo();
  EXPECT_NEAR(t.potential_energy, 2.5 + 12.5 * (std::numbers::pi / 6) * (std::numbers::pi / 6), 1e-12);
  EXPECT_NEAR(t.pressure * 3.0 * 1000.0, 5.0 - 16.0, 1e-12);
}

TEST(BondedForce, SinglePrecisionStorage) {
  Simulation sim(std::make_unique<reference::CpuBackend<float>>(Variant::parse("precision=single")),
                 three_bead_chain(), RunParams{});
  const ParticleData<double> p = sim.particles();
  const double g = 25.0 * std::numbers::pi / 6.0;
  EXPECT_NEAR(p.force[0].y, -g / 0.5, 1e-5 * g / 0.5);
  EXPECT_NEAR(p.force[2].x, -g / 0.8, 1e-5 * g / 0.8);
}

TEST(BondedForce, FeneWcaBondByHandAcrossZ) {
  // Kremer-Grest at r = 0.97 across the z boundary.
  System sys = particles_at(6.0, {{0.0, 0.0, 2.5}, {0.0, 0.0, -2.53}}, {0, 1});
  sys.topology = topology("bond_type kg fene 30 1.5 1 1\nbond kg 1 0\n");
  Simulation sim(cpu(), sys, RunParams{});
  const double r = 0.97, x = 1.0 - r * r / 2.25, s6 = std::pow(r, -6.0);
  const double f = -30.0 / x * r + 24.0 * (2.0 * s6 * s6 - s6) / r;  // along r_0 - r_1 = -0.97 e_z
  const ParticleData<double> p = sim.particles();
  EXPECT_NEAR(p.force[0].z, -f, 1e-9);
  EXPECT_NEAR(p.force[1].z, f, 1e-9);
  EXPECT_NEAR(sim.thermo().potential_energy, -0.5 * 30 * 2.25 * std::log(x) + 4 * (s6 * s6 - s6) + 1, 1e-9);
}

// Five beads with every term kind: bonds FENE+WCA, FENE, harmonic, harmonic
// (one of them across a boundary), and angles at 120, 180 and 70 degrees.
const char* kFiveBeadTopology =
    "bond_type kg fene 30 1.5 1 1\nbond_type bare fene 20 2.0\nbond_type s harmonic 50 0.8\n"
    "angle_type bent harmonic 25 120\nangle_type line harmonic 8 180\nangle_type tight harmonic 12 70\n"
    "bond kg 0 1\nbond bare 1 2\nbond s 2 3\nbond s 3 4\n"
    "angle bent 0 1 2\nangle line 1 2 3\nangle tight 4 3 2\n";

std::vector<Vec3d> random_chain(std::mt19937_64& rng, Vec3d start, int n) {
  std::normal_distribution<double> gauss;
  std::vector<Vec3d> pos{start};
  for (int k = 1; k < n; ++k) {
    Vec3d u{gauss(rng), gauss(rng), gauss(rng)};
    u = (0.9 / std::sqrt(dot(u, u))) * u;
    pos.push_back(pos.back() + u);
  }
  return pos;
}

TEST(BondedForce, ForcesAreMinusTheGradientOfTheThermoEnergy) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const double L = 8.0;
  const std::vector<Vec3d> chain = random_chain(rng, {3.6, -3.7, 3.5}, 5);  // crosses boundaries
  // Stored out of tag order: storage index i holds tag tags[i].
  const std::vector<uint32_t> tags{3, 0, 4, 1, 2};
  std::vector<Vec3d> pos;
  for (uint32_t t : tags) pos.push_back(chain[t]);
  auto make = [&](const std::vector<Vec3d>& r) {
    System sys = particles_at(L, r, tags);
    sys.topology = topology(kFiveBeadTopology);
    return sys;
  };
  Simulation sim(cpu(), make(pos), RunParams{});
  const ParticleData<double> p = sim.particles();
  const double h = 1e-6;
  double scale = 0.0;
  for (const auto& f : p.force) scale = std::max(scale, std::sqrt(dot(f, f)));
  for (std::size_t i = 0; i < pos.size(); ++i)
    for (int d = 0; d < 3; ++d) {
      auto energy_at = [&](double shift) {
        std::vector<Vec3d> r = pos;
        (d == 0 ? r[i].x : d == 1 ? r[i].y : r[i].z) += shift;
        return Simulation(cpu(), make(r), RunParams{}).thermo().potential_energy;
      };
      const double fd = -(energy_at(h) - energy_at(-h)) / (2 * h);
      const Vec3d f = p.force[tags[i]];
      EXPECT_NEAR(d == 0 ? f.x : d == 1 ? f.y : f.z, fd, 1e-6 * std::max(scale, 1.0))
          << "tag " << tags[i] << " axis " << d;
    }
}

TEST(BondedForce, NoNetForceAndNoTorque) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  // Away from the boundaries, so that positions are a frame for the torque.
  const std::vector<Vec3d> pos = random_chain(rng, {0.3, -0.2, 0.1}, 5);
  System sys = particles_at(20.0, pos, {0, 1, 2, 3, 4});
  sys.topology = topology(kFiveBeadTopology);
  Simulation sim(cpu(), sys, RunParams{});
  const ParticleData<double> p = sim.particles();
  Vec3d net{0, 0, 0}, torque{0, 0, 0};
  double scale = 0.0;
  for (std::size_t i = 0; i < p.n_local; ++i) {
    net += p.force[i];
    torque += cross(p.position[i], p.force[i]);
    scale += std::sqrt(dot(p.force[i], p.force[i]));
  }
  EXPECT_GT(scale, 1.0);
  EXPECT_LT(std::sqrt(dot(net, net)), 1e-13 * scale);
  EXPECT_LT(std::sqrt(dot(torque, torque)), 1e-12 * scale);
}

TEST(BondedForce, FeneOutOfBoundsNamesTheBond) {
  System sys = particles_at(10.0, {{0.0, 0.0, 0.0}, {1.6, 0.0, 0.0}, {3.0, 0.0, 0.0}}, {0, 1, 2});
  sys.topology = topology("bond_type kg fene 30 1.5 1 1\nbond_type s harmonic 1 1\nbond s 1 2\nbond kg 0 1\n");
  try {
    Simulation sim(cpu(), sys, RunParams{});
    FAIL() << "an overstretched FENE bond was accepted";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bond.fene: bond out of bounds: bond 1 (type kg) between tags 0 and 1 has r = 1.6 >= "
                       "R0 = 1.5 at step 0"),
              std::string::npos)
        << msg;
  }
}

// A bead-spring melt: `chains` chains of `beads` beads (tags chain-major) at
// bead density rho, as persistent random walks of step 0.97; bonds alternate
// FENE+WCA (Kremer-Grest) and harmonic, angles alternate straight (180) and
// bent (120). Pair force: DPD conservative a (gamma = sigma = 0: the
// dynamics is Hamiltonian). Maxwell-Boltzmann velocities at kT = 1.
//
// Straight angles start above 101.5 degrees (successive bonds at most 78.5
// degrees apart), so none starts near 0. A bent angle starts within 20
// degrees of its rest angle (100-140), and is stiff (k = 25): V = k/2
// (theta - theta0)^2 with theta0 < pi is not smooth at theta = pi (it is a
// cone in the bond directions, apex pi: the force keeps the magnitude k
// (pi - theta0) / r and flips direction through it), and velocity Verlet
// across that apex makes an energy error that is not O(dt^2) (of either
// sign, and it stays). The apex is k/2 (pi/3)^2 = 13.7 kT above the rest
// angle, out of reach at kT = 1 without the pair force. (Bent angles of k = 6
// drawn like the straight ones start up to 3.3 kT high on the cone, and some
// pass within 0.001 rad of the apex: ratios 3.6-5.3 in the first test below,
// 2.2-6.3 in the second.)
System bead_spring(uint32_t chains, uint32_t beads, double rho, double a, uint64_t seed) {
  const std::size_t n = std::size_t(chains) * beads;
  const double L = std::cbrt(double(n) / rho);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uni(-L / 2, L / 2);
  std::normal_distribution<double> gauss;
  std::vector<Vec3d> pos;
  std::vector<uint32_t> tags;
  std::ostringstream top;
  top << "bond_type kg fene 30 1.5 1 1\nbond_type s harmonic 100 0.97\n"
         "angle_type line harmonic 4 180\nangle_type bent harmonic 25 120\n";
  // cos of the angle between successive bonds (pi - theta): bent 40-80 degrees.
  const double bent_max = std::cos(40.0 * std::numbers::pi / 180.0);
  const double bent_min = std::cos(80.0 * std::numbers::pi / 180.0);
  for (uint32_t c = 0; c < chains; ++c) {
    Vec3d r{uni(rng), uni(rng), uni(rng)};
    Vec3d u{1.0, 0.0, 0.0};
    for (uint32_t k = 0; k < beads; ++k) {
      const uint32_t tag = c * beads + k;
      if (k > 0) {
        // The angle (tag - 2, tag - 1, tag) is bent for k even.
        const bool bent = k > 1 && k % 2 == 0;
        Vec3d v;
        do {
          v = u + 0.7 * Vec3d{gauss(rng), gauss(rng), gauss(rng)};
          v = (1.0 / std::sqrt(dot(v, v))) * v;
        } while (k > 1 && (bent ? dot(v, u) > bent_max || dot(v, u) < bent_min : dot(v, u) < 0.2));
        u = v;
        r += 0.97 * u;
        top << "bond " << (k % 2 ? "kg " : "s ") << tag - 1 << " " << tag << "\n";
      }
      if (k > 1) top << "angle " << (k % 2 ? "line " : "bent ") << tag - 2 << " " << tag - 1 << " " << tag << "\n";
      pos.push_back(r);
      tags.push_back(tag);
    }
  }
  System sys = particles_at(L, pos, tags, a);
  sys.topology = topology(top.str());
  draw_maxwell_boltzmann(sys, 1.0, seed);
  return sys;
}

// The root-mean-square deviation of the total energy from its start over a
// run of total time T, sampled at the same times for every dt; and the last
// deviation.
struct EnergyError {
  double rms = 0.0;
  double last = 0.0;
  double e0 = 0.0;
};
EnergyError energy_error(const System& sys, double dt, double T, double sample_time) {
  RunParams rp;
  rp.integrator = Integrator::nve;
  rp.dt = dt;
  Simulation sim(cpu(), sys, rp);
  EnergyError out;
  out.e0 = sim.thermo().total_energy();
  double sum2 = 0.0;
  std::size_t count = 0;
  sim.run(std::llround(T / dt), std::llround(sample_time / dt), [&](const ThermoSample& t) {
    out.last = t.total_energy() - out.e0;
    sum2 += out.last * out.last;
    ++count;
  });
  out.rms = std::sqrt(sum2 / count);
  return out;
}

// Velocity Verlet: the energy error is O(dt^2), so halving dt divides it by
// 4. A force that is not minus the gradient of the energy (a wrong sign, a
// missed or doubled term, a wrong role in an angle) leaves an error that
// does not shrink with dt (ratio near 1, or 2 for an O(dt) drift). That
// holds only where the potential is smooth along the trajectory: see
// bead_spring for the bent angles.
// The energy errors at dt and dt/2 over time T: the ratio of their rms, and
// for the drift checks each run's final deviation over its rms and the
// coarse run's rms per particle's kinetic energy (1.5 kT).
struct DtSquared {
  double ratio = 0.0;
  double coarse_last_over_rms = 0.0, fine_last_over_rms = 0.0;
  double coarse_rms_per_ke = 0.0;
};
DtSquared dt_squared(const System& sys, double dt, double T) {
  const EnergyError coarse = energy_error(sys, dt, T, 0.02);
  const EnergyError fine = energy_error(sys, dt / 2, T, 0.02);
  DtSquared d;
  d.ratio = coarse.rms / fine.rms;
  d.coarse_last_over_rms = std::fabs(coarse.last) / coarse.rms;
  d.fine_last_over_rms = std::fabs(fine.last) / fine.rms;
  d.coarse_rms_per_ke = coarse.rms / (1.5 * double(sys.particles.n_local));
  std::cout << "E0 = " << coarse.e0 << ", rms(dt) = " << coarse.rms << ", rms(dt/2) = " << fine.rms
            << ", ratio = " << d.ratio << ", last(dt) = " << coarse.last << ", last(dt/2) = " << fine.last << "\n";
  return d;
}

// One run's checks: no drift (the final deviation of the size of the
// fluctuation) and a fluctuation small against the kinetic energy.
void expect_no_drift(const DtSquared& d) {
  EXPECT_LT(d.coarse_last_over_rms, 5.0);
  EXPECT_LT(d.fine_last_over_rms, 5.0);
  EXPECT_LT(d.coarse_rms_per_ke, 2e-3);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

TEST(BondedDynamics, NveEnergyErrorScalesAsDtSquared) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  // 100 chains of 10 beads at rho = 3, dt = 0.004 (about 40 steps per
  // period of the stiffest bond, FENE+WCA near 0.97). Bonded forces alone
  // (a = 0): the runs at dt and dt/2 stay close over t = 1, so the ratio
  // is 4 within a per cent (4.014-4.021 measured over 190 seeds; no bent
  // angle came within 0.26 rad of straight). Forces that are not minus the
  // gradient gave 0.92-1.10 (angle force times -1 or 1.1, harmonic bond
  // force times 1.05, the two bond roles in an angle swapped); without the
  // WCA force the run blows up.
  {
    const DtSquared d = dt_squared(bead_spring(100, 10, 3.0, 0.0, seed), 0.004, 1.0);
    EXPECT_GT(d.ratio, 3.6);
    EXPECT_LT(d.ratio, 4.4);
    expect_no_drift(d);
  }
  // With the DPD conservative force between all beads (a = 25): its force
  // has a kink at r_c, whose crossings add an error that is O(dt^2) but
  // not the same in both runs (3.25-4.85 measured over t = 2, 140 seeds;
  // with both angles straight the spread is the same, 3.26-4.57). The pair
  // force also brings a bent angle near straight at times, where the
  // harmonic-in-theta force grows as 1/sin(theta): one seed in 40 gave 6.8
  // (814302516). The kinks' crossings also make the energy error walk, so
  // that one run's final deviation can exceed 5 of its rms though nothing
  // drifts. So every statistic of this part is the median of five seeds
  // (issue 57: a per-seed check failed on some seeds): the median leaves
  // the band only when three of the five seeds do (for the ratio, with one
  // seed in 40 outside it, about 1e-4), while a wrong force (0.92-1.10)
  // moves every seed out of it, and a drift every seed's final deviation.
  std::vector<double> ratio, coarse_last, fine_last, rms;
  for (uint64_t k = 0; k < 5; ++k) {
    SCOPED_TRACE("a = 25, seed " + std::to_string(seed + k));
    const DtSquared d = dt_squared(bead_spring(100, 10, 3.0, 25.0, seed + k), 0.004, 2.0);
    ratio.push_back(d.ratio);
    coarse_last.push_back(d.coarse_last_over_rms);
    fine_last.push_back(d.fine_last_over_rms);
    rms.push_back(d.coarse_rms_per_ke);
  }
  EXPECT_GT(median(ratio), 2.8);
  EXPECT_LT(median(ratio), 5.5);
  EXPECT_LT(median(coarse_last), 5.0);
  EXPECT_LT(median(fine_last), 5.0);
  EXPECT_LT(median(rms), 2e-3);
}

TEST(BondedDynamics, ReorderingDoesNotChangeTheBondedTrajectory) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  // Without a pair force (a = 0) the bonded sums are the whole force, and
  // they are taken by tag: a run that reorders the particles is bitwise the
  // same trajectory.
  const System ideal = bead_spring(40, 10, 3.0, 0.0, seed);
  RunParams rp;
  rp.integrator = Integrator::nve;
  Simulation plain(cpu(), ideal, rp);
  Simulation sorted(cpu("reorder=cell,sort=10"), ideal, rp);
  plain.run(300);
  sorted.run(300);
  ListRestartState order;
  sorted.backend().list_state(sorted.plan(), order);
  bool permuted = false;
  for (std::size_t k = 0; k < order.order.size(); ++k) permuted |= order.order[k] != k;
  EXPECT_TRUE(permuted);
  const auto a = plain.particles(), b = sorted.particles();
  for (std::size_t i = 0; i < a.n_local; ++i) {
    ASSERT_EQ(a.position[i].x, b.position[i].x) << "tag " << i;
    ASSERT_EQ(a.position[i].y, b.position[i].y) << "tag " << i;
    ASSERT_EQ(a.velocity[i].z, b.velocity[i].z) << "tag " << i;
  }
  // With the DPD pair force the order of its sums changes, so the same
  // trajectory up to round-off (compared after a short run: it is chaotic).
  const System melt = bead_spring(40, 10, 3.0, 25.0, seed);
  Simulation plain2(cpu(), melt, rp);
  Simulation sorted2(cpu("reorder=cell,sort=0"), melt, rp);
  plain2.run(100);
  sorted2.run(100);
  const auto c = plain2.particles(), d = sorted2.particles();
  double max_dx = 0.0;
  for (std::size_t i = 0; i < c.n_local; ++i) {
    const Vec3d dx = melt.box.min_image(c.position[i] - d.position[i]);
    max_dx = std::max(max_dx, std::sqrt(dot(dx, dx)));
  }
  EXPECT_LT(max_dx, 1e-8);
}

TEST(BondedDynamics, ForcesIndependentOfThreadCount) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System ideal = bead_spring(40, 10, 3.0, 0.0, seed);
  auto forces_with = [&](int threads) {
    omp_set_num_threads(threads);
    Simulation sim(cpu(), ideal, RunParams{});
    sim.run(20);
    return sim.particles();
  };
  const int saved = omp_get_max_threads();
  const auto a = forces_with(1), b = forces_with(3);
  omp_set_num_threads(saved);
  for (std::size_t i = 0; i < a.n_local; ++i) {
    ASSERT_EQ(a.force[i].x, b.force[i].x) << "tag " << i;
    ASSERT_EQ(a.force[i].y, b.force[i].y) << "tag " << i;
    ASSERT_EQ(a.force[i].z, b.force[i].z) << "tag " << i;
  }
}

TEST(BondedDynamics, ThermoIncludesTheBondedEnergyAndVirial) {
  const uint64_t seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const System sys = bead_spring(30, 10, 3.0, 25.0, seed);
  System no_bonds = sys;
  no_bonds.topology = {};
  const ThermoSample with = Simulation(cpu(), sys, RunParams{}).thermo();
  const ThermoSample without = Simulation(cpu(), no_bonds, RunParams{}).thermo();
  // The direct sums over the terms, by tag (positions are in tag order).
  const Topology& t = sys.topology;
  const auto& r = sys.particles.position;
  double energy = 0.0, virial = 0.0;
  for (const Bond& b : t.bonds) {
    const Vec3d d = sys.box.min_image(r[b.a] - r[b.b]);
    const BondType& bt = t.bond_types[b.type];
    const auto f = bt.kind == BondKind::fene ? physics::fene_bond<double>(dot(d, d), bt.fene)
                                             : physics::harmonic_bond<double>(dot(d, d), bt.harmonic);
    ASSERT_TRUE(f.ok);
    energy += f.energy;
    virial += f.f_over_r * dot(d, d);
  }
  for (const Angle& a : t.angles)
    energy += physics::harmonic_angle<double>(sys.box.min_image(r[a.a] - r[a.b]),
                                              sys.box.min_image(r[a.c] - r[a.b]),
                                              t.angle_types[a.type].harmonic)
                  .energy;
  EXPECT_GT(energy, 1.0);
  EXPECT_NEAR(with.potential_energy - without.potential_energy, energy, 1e-10 * std::fabs(with.potential_energy));
  const double volume = sys.box.volume();
  EXPECT_NEAR((with.pressure - without.pressure) * 3.0 * volume, virial, 1e-10 * std::fabs(with.pressure * 3.0 * volume));
  EXPECT_EQ(with.kinetic_energy, without.kinetic_energy);
}

}  // namespace
