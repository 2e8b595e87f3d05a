// Checkpoints and restarts on ranks, on CPU ranks (decomposition_test) and
// on CUDA ranks (decomposition_gpu_test); main() and the MPI environment are
// decomposition_test.cpp's. Every checkpoint goes through a file (rank 0
// writes it, every rank reads it), and a continued run is compared with the
// uninterrupted one byte for byte:
//   - MD particles (DPD, DPD with cell reordering, LJ under Nose-Hoover) on
//     the rank count and grid they were written on: positions, velocities,
//     forces, images and the thermostat, and the list state of every rank;
//   - the solvent alone on the same ranks and on one rank (its collisions
//     are bitwise one rank's on any rank count);
//   - MD particles on another rank count or grid are refused, naming both.
#include <mpi.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "decomposition_test_support.hpp"
#include "meso/core/error.hpp"
#include "meso/io/checkpoint_file.hpp"
#include "meso/scaling/mpi_communicator.hpp"
#include "meso/run/simulation.hpp"

namespace meso::scaling {
namespace {

using namespace test;  // the ranks, the backend and the cases the decomposition tests share

// A file rank 0 writes and every rank reads, named after rank 0's process.
std::string shared_path(const char* name) {
  long pid = world_rank() == 0 ? long(getpid()) : 0;
  MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  return (std::filesystem::temp_directory_path() / ("meso-ranks-" + std::to_string(pid) + "-" + name)).string();
}

// The checkpoint as a restart reads it: written by rank 0 (which holds the
// gathered state), read back by every rank.
io::CheckpointFile through_file(const Checkpoint& cp, const char* name) {
  const std::string path = shared_path(name);
  const io::CheckpointIdentity id{"decomposition-test", name, kBackend, "double", 0};
  if (world_rank() == 0) io::write_checkpoint(path, id, cp);
  MPI_Barrier(MPI_COMM_WORLD);
  io::CheckpointFile f = io::read_checkpoint(path);
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::filesystem::remove(path);
  return f;
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Whether every rank passed so far (collective), so that all stop together.
bool all_passed() {
  int failed = ::testing::Test::HasFailure() ? 1 : 0, any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any == 0;
}

void expect_refused(const std::function<void()>& start, const std::string& words) {
  try {
    start();
    ADD_FAILURE() << "accepted; expected a refusal saying '" << words << "'";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

// On several cuda ranks MD checkpoints are refused (Simulation: the restart
// did not finish on an H200): true there, after checking that writing one
// and continuing one are both refused by name, on every rank alike.
bool md_checkpoints_refused_here(const Case& c) {
  if (std::string(kBackend) != "cuda" || world_size() == 1) return false;
  const CommunicatorFactory ranks = MpiCommunicator::factory(MPI_COMM_WORLD);
  const std::string words = "checkpoints of MD particles on several cuda ranks are not provided yet";
  Simulation many(cpu(), c.sys, c.rp, ranks);
  many.run(2);
  expect_refused([&] { (void)many.checkpoint(); }, words);
  Simulation one(cpu(), c.sys, c.rp);
  one.run(2);
  const Checkpoint single = one.checkpoint();
  expect_refused([&] { Simulation s(cpu(), SimulationSetup{c.sys, c.rp, std::nullopt}, ranks, &single); }, words);
  return true;
}

// `steps` on the ranks in one piece, and in two halves with a checkpoint
// between them: the gathered particles, the thermostat and every rank's
// list state must be the same bytes.
void md_restart_is_bitwise(const Case& c, const std::string& axes, uint64_t steps) {
  SCOPED_TRACE(std::string(c.name) + (axes.empty() ? "" : ", " + axes));
  if (md_checkpoints_refused_here(c)) return;
  const CommunicatorFactory ranks = MpiCommunicator::factory(MPI_COMM_WORLD);
  Simulation whole(cpu(axes), c.sys, c.rp, ranks);
  whole.run(steps);
  Simulation first(cpu(axes), c.sys, c.rp, ranks);
  first.run(steps / 2);
  const io::CheckpointFile f = through_file(first.checkpoint(), c.name);
  EXPECT_EQ(f.md.ranks(), world_size());
  EXPECT_EQ(f.md.lists.order.size(), c.sys.particles.n_local);
  Simulation second(cpu(axes), SimulationSetup{c.sys, c.rp, std::nullopt}, ranks, &f.md);
  EXPECT_EQ(second.step(), steps / 2);
  second.run(steps - steps / 2);
  const Checkpoint a = whole.checkpoint(), b = second.checkpoint();  // collective
  if (world_size() > 1) {
    EXPECT_GT(whole.communicator().times().migrations, 1u) << "the test should rebuild its lists several times";
  }
  if (world_rank() != 0) return;
  ASSERT_EQ(b.particles.n_local, a.particles.n_local);
  EXPECT_TRUE(same_bytes(b.particles.position, a.particles.position)) << "positions";
  EXPECT_TRUE(same_bytes(b.particles.velocity, a.particles.velocity)) << "velocities";
  EXPECT_TRUE(same_bytes(b.particles.force, a.particles.force)) << "forces";
  EXPECT_TRUE(same_bytes(b.particles.image, a.particles.image)) << "images";
  EXPECT_EQ(std::memcmp(&b.integrator, &a.integrator, sizeof(IntegratorState)), 0) << "thermostat";
  EXPECT_EQ(b.rank_counts, a.rank_counts);
  EXPECT_TRUE(same_bytes(b.lists.order, a.lists.order)) << "the ranks' storage orders";
  EXPECT_TRUE(same_bytes(b.lists.build_position, a.lists.build_position)) << "the last build's positions";
  EXPECT_EQ(b.lists.steps_since_build, a.lists.steps_since_build);
  EXPECT_EQ(b.lists.steps_since_sort, a.lists.steps_since_sort);
}

TEST(DecompositionRestart, DpdContinuesBitwiseOnTheSameRanks) { md_restart_is_bitwise(dpd_case(), "", 60); }

TEST(DecompositionRestart, DpdWithCellReorderingContinuesBitwise) {
  // The sort counter continues: reorders fall on the same rebuilds.
  md_restart_is_bitwise(dpd_case(), "reorder=cell,sort=10", 60);
}

TEST(DecompositionRestart, NoseHooverContinuesBitwise) {
  Case c = lj_case();
  c.rp.integrator = Integrator::nvt;
  c.rp.kT = 1.2;
  md_restart_is_bitwise(c, "", 80);
}

TEST(DecompositionRestart, MdOnAnotherRankCountIsRefused) {
  const int r = world_size();
  if (r == 1) GTEST_SKIP() << "one rank: no other rank count to refuse";
  const Case c = dpd_case();
  if (md_checkpoints_refused_here(c)) return;
  const CommunicatorFactory ranks = MpiCommunicator::factory(MPI_COMM_WORLD);
  // A one-rank checkpoint (every rank makes the same) on r ranks.
  Simulation one(cpu(), c.sys, c.rp);
  one.run(5);
  const Checkpoint single = one.checkpoint();
  expect_refused([&] { Simulation s(cpu(), SimulationSetup{c.sys, c.rp, std::nullopt}, ranks, &single); },
                 "written on 1 rank and this run has " + std::to_string(r));
  // Without list state (validate's JSON checkpoints) there is no rank's part to take back.
  Checkpoint loose = single;
  loose.lists = {};
  expect_refused([&] { Simulation s(cpu(), SimulationSetup{c.sys, c.rp, std::nullopt}, ranks, &loose); },
                 "without list state continues on one rank only (this run has " + std::to_string(r) + " ranks)");
  // An r-rank checkpoint (rank 0 holds it) on one rank.
  Simulation many(cpu(), c.sys, c.rp, ranks);
  many.run(5);
  const Checkpoint cp = many.checkpoint();
  if (world_rank() == 0)
    expect_refused([&] { Simulation s(cpu(), c.sys, c.rp, cp); },
                   "written on " + std::to_string(r) + " ranks and this run has 1");
  ASSERT_TRUE(all_passed());
}

TEST(DecompositionRestart, MdOnAnotherGridIsRefused) {
  if (world_size() != 4) GTEST_SKIP() << "two grids of the same rank count: 4 ranks";
  const Case c = dpd_case();
  if (md_checkpoints_refused_here(c)) return;
  Simulation line(cpu(), c.sys, c.rp, MpiCommunicator::factory(MPI_COMM_WORLD, {4, 1, 1}));
  line.run(5);
  const io::CheckpointFile f = through_file(line.checkpoint(), "grid");
  expect_refused(
      [&] {
        Simulation s(cpu(), SimulationSetup{c.sys, c.rp, std::nullopt},
                     MpiCommunicator::factory(MPI_COMM_WORLD, {2, 2, 1}), &f.md);
      },
      "written on the rank grid 4x1x1 and this run's is 2x2x1");
}

bool same_solvent(const MpcdParticles& a, const MpcdParticles& b) {
  return same_bytes(a.position, b.position) && same_bytes(a.velocity, b.velocity) && same_bytes(a.image, b.image) &&
         same_bytes(a.tag, b.tag);
}

TEST(DecompositionRestart, SolventContinuesBitwiseOnAnyRankCount) {
  MpcdParams prm;  // SRD, grid shift
  prm.seed = 5;
  prm.thermostat = true;
  const MpcdSystem sys = srd_case(prm);
  const Variant v = Variant::parse(std::string(kBackend) == "cuda" ? "precision=double" : "");
  const CommunicatorFactory ranks = MpiCommunicator::factory(MPI_COMM_WORLD);
  Simulation whole(backend(v), sys, ranks);
  whole.run(10);
  Simulation first(backend(v), sys, ranks);
  first.run(5);
  const io::CheckpointFile f = through_file(first.checkpoint(), "solvent");
  ASSERT_TRUE(f.mpcd);
  const Checkpoint from = f.state();
  Simulation second(backend(v), SimulationSetup{std::nullopt, {}, sys}, ranks, &from);
  second.run(5);
  const MpcdParticles a = whole.solvent_particles(), b = second.solvent_particles();  // collective
  if (world_rank() != 0) return;
  EXPECT_TRUE(same_solvent(b, a)) << "continued on " << world_size() << " ranks";
  // The same checkpoint continued on one rank.
  Simulation alone(backend(v), SimulationSetup{std::nullopt, {}, sys}, {}, &from);
  alone.run(5);
  EXPECT_TRUE(same_solvent(alone.solvent_particles(), a)) << "continued on one rank";
}

}  // namespace
}  // namespace meso::scaling
