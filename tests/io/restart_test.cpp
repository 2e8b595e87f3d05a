// Exact restarts on the CPU reference: run(a + b) == run(a), checkpoint
// written to a file and read back, new Simulation, run(b), bit for bit, for
// every workload's dynamics (DPD with vv and Groot-Warren, LJ with
// Nose-Hoover and Langevin, the SRD solvent), with and without reordering
// and with a fixed rebuild period, and the checkpoint taken between two list
// builds so that the restart must rebuild the list from the positions of
// the last build rather than from the current ones.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "meso/io/checkpoint_file.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/systems/gay_berne_liquid.hpp"
#include "meso/run/simulation.hpp"
#include "meso/systems/water.hpp"
#include "support/expect_bitwise.hpp"
#include "support/temporary_files.hpp"

namespace meso {
namespace {

std::string temp_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("meso_restart_" + name)).string();
}

using test::expect_same_vec3;

void expect_same(const ParticleData<double>& a, const ParticleData<double>& b) {
  expect_same_vec3(a.position, b.position, "position");
  expect_same_vec3(a.velocity, b.velocity, "velocity");
  expect_same_vec3(a.force, b.force, "force");
  expect_same_vec3(a.image, b.image, "image");
  EXPECT_EQ(a.tag, b.tag);
  ASSERT_EQ(a.rotational, b.rotational);
  if (!a.rotational) return;
  std::vector<Vec3d> qa, qb;
  for (std::size_t i = 0; i < a.n_local; ++i) {
    qa.push_back(a.orientation[i].v);
    qb.push_back(b.orientation[i].v);
    EXPECT_EQ(a.orientation[i].s, b.orientation[i].s) << "orientation of tag " << a.tag[i];
  }
  expect_same_vec3(qa, qb, "orientation");
  expect_same_vec3(a.angmom, b.angmom, "angular momentum");
  expect_same_vec3(a.torque, b.torque, "torque");
  expect_same_vec3(a.inertia, b.inertia, "moment of inertia");
}

// The checkpoint as `mesobench run --restart` sees it: through the file.
Checkpoint through_file(const Checkpoint& cp, const std::string& name) {
  const std::string path = temp_file(name);
  const io::CheckpointIdentity id{"test", name, "cpu", "double", cp.particles.n_local};
  io::write_checkpoint(path, id, cp);
  EXPECT_TRUE(test::temporaries_of(path).empty());
  io::CheckpointFile f = io::read_checkpoint(path);
  std::remove(path.c_str());
  EXPECT_FALSE(f.mpcd);
  EXPECT_EQ(f.step, cp.step);
  return f.md;
}

template <class Real>
void expect_exact_restart(const System& sys, const RunParams& rp, const std::string& variant, uint64_t a,
                          uint64_t b, const std::string& name) {
  SCOPED_TRACE(name + " variant '" + variant + "'");
  auto make = [&] { return std::make_unique<reference::CpuBackend<Real>>(Variant::parse(variant)); };
  Simulation whole(make(), sys, rp);
  whole.run(a + b);
  Simulation first(make(), sys, rp);
  first.run(a);
  const Checkpoint cp = through_file(first.checkpoint(), name);
  ASSERT_TRUE(cp.exact());
  // Between two builds: the restart cannot simply build from where the particles are.
  EXPECT_GT(cp.lists.steps_since_build, 0u);
  Simulation second(make(), sys, rp, cp);
  second.run(b);
  EXPECT_EQ(second.step(), a + b);
  expect_same(whole.particles(), second.particles());
  EXPECT_EQ(whole.integrator_state().xi, second.integrator_state().xi);
  EXPECT_EQ(whole.integrator_state().eta, second.integrator_state().eta);
  // Lists rebuilt and particles reordered on the same steps as the whole run.
  const Checkpoint end_whole = whole.checkpoint(), end_second = second.checkpoint();
  EXPECT_EQ(end_whole.lists.order, end_second.lists.order);
  expect_same_vec3(end_whole.lists.build_position, end_second.lists.build_position, "build position");
  EXPECT_EQ(end_whole.lists.steps_since_build, end_second.lists.steps_since_build);
  EXPECT_EQ(end_whole.lists.steps_since_sort, end_second.lists.steps_since_sort);
  EXPECT_EQ(whole.thermo().potential_energy, second.thermo().potential_energy);
}

System dpd_fluid() {
  DpdFluidParams f;
  f.rho = 3.0;
  f.s = 0.5;
  f.lx = f.ly = f.lz = 6.0;
  f.seed = 11;
  return make_dpd_fluid(f);
}

System lj_liquid() {
  LjLiquidParams l;
  l.n = 500;
  l.rho = 0.4;
  l.kT = 1.2;
  l.rcut = 2.5;
  l.seed = 5;
  return make_lj_liquid(l);
}

TEST(Restart, DpdVelocityVerletIsBitwise) {
  expect_exact_restart<double>(dpd_fluid(), RunParams{}, "", 137, 163, "dpd-vv");
}

TEST(Restart, DpdVelocityVerletReorderedIsBitwise) {
  // A sort every 20 steps, at rebuilds: the restart must keep the storage
  // order and the sort counter.
  expect_exact_restart<double>(dpd_fluid(), RunParams{}, "reorder=cell,sort=20", 137, 163, "dpd-vv-cell");
}

TEST(Restart, DpdGrootWarrenFixedRebuildIsBitwise) {
  RunParams rp;
  rp.integrator = Integrator::groot_warren;
  rp.rebuild_every = 7;
  expect_exact_restart<double>(dpd_fluid(), rp, "rng=tea", 101, 99, "dpd-gw-every7");
}

TEST(Restart, DpdSinglePrecisionIsBitwise) {
  expect_exact_restart<float>(dpd_fluid(), RunParams{}, "precision=single,reorder=cell,sort=15", 90, 110,
                              "dpd-single");
}

// The lj-liquid workload's thermostat (kT = 1.2) with either integrator.
RunParams lj_run(Integrator integrator) {
  RunParams rp;
  rp.integrator = integrator;
  rp.kT = 1.2;
  rp.tau = 0.5;
  rp.seed = 3;
  return rp;
}

TEST(Restart, LjNoseHooverIsBitwise) {
  expect_exact_restart<double>(lj_liquid(), lj_run(Integrator::nvt), "reorder=cell,sort=25", 151, 149, "lj-nvt");
}

TEST(Restart, LjLangevinIsBitwise) {
  expect_exact_restart<double>(lj_liquid(), lj_run(Integrator::langevin), "", 151, 149, "lj-langevin");
}

// Orientational particles: orientations, angular momenta and torques go
// through the file too.
TEST(Restart, GayBerneLangevinReorderedIsBitwise) {
  GbLiquidParams g;
  g.n = 250;
  g.seed = 4;
  RunParams rp;
  rp.integrator = Integrator::langevin;
  rp.kT = 2.0;
  rp.dt = 0.002;
  rp.skin = 0.4;
  rp.seed = 8;
  expect_exact_restart<double>(make_gb_liquid(g), rp, "reorder=cell,sort=20", 57, 63, "gb-langevin");
}

TEST(Restart, SsdWaterNveIsBitwise) {
  SsdWaterParams w;
  w.n = 343;
  RunParams rp;
  rp.integrator = Integrator::nve;
  rp.dt = 0.02;
  rp.skin = 1.0;
  expect_exact_restart<double>(make_ssd_water(w), rp, "", 41, 39, "ssd-nve");
}

TEST(Restart, DpdWithoutListStateIsNotBitwise) {
  // The check above can fail: a checkpoint without forces and list state
  // (the JSON form) recomputes DPD forces from v(t) and drifts off.
  const System sys = dpd_fluid();
  auto make = [] { return std::make_unique<reference::CpuBackend<double>>(Variant{}); };
  Simulation whole(make(), sys, RunParams{});
  whole.run(200);
  Simulation first(make(), sys, RunParams{});
  first.run(100);
  Checkpoint cp = first.checkpoint();
  cp.lists = {};
  Simulation second(make(), sys, RunParams{}, cp);
  second.run(100);
  EXPECT_NE(whole.particles().velocity[0].x, second.particles().velocity[0].x);
}

void expect_same(const MpcdParticles& a, const MpcdParticles& b) {
  expect_same_vec3(a.position, b.position, "position");
  expect_same_vec3(a.velocity, b.velocity, "velocity");
  expect_same_vec3(a.image, b.image, "image");
  EXPECT_EQ(a.tag, b.tag);
}

TEST(Restart, SrdSolventIsBitwise) {
  for (const char* variant : {"", "reorder=cell,sort=5"}) {
    SCOPED_TRACE(variant);
    SrdFluidParams f;
    f.L = 6;
    f.rho = 5;
    f.seed = 9;
    MpcdParams m;
    m.thermostat = true;
    const MpcdSystem sys = make_srd_fluid(f, m);
    auto make = [&] { return std::make_unique<reference::CpuBackend<double>>(Variant::parse(variant)); };
    Simulation whole(make(), sys);
    whole.run(40);
    Simulation first(make(), sys);
    first.run(17);
    const std::string path = temp_file("srd");
    io::write_checkpoint(path, {"srd-fluid", "L=6", "cpu", "double", 0}, first.checkpoint());
    const io::CheckpointFile cf = io::read_checkpoint(path);
    std::remove(path.c_str());
    ASSERT_TRUE(cf.mpcd);
    EXPECT_EQ(cf.step, 17u);
    const Checkpoint from = cf.state();
    Simulation second(make(), SimulationSetup{std::nullopt, {}, sys}, {}, &from);
    EXPECT_EQ(second.step(), 17u);
    second.run(23);
    expect_same(whole.solvent_particles(), second.solvent_particles());
  }
}

}  // namespace
}  // namespace meso
