// Domain decomposition of the MPCD solvent (srd-fluid), on CPU ranks
// (decomposition_test) and on CUDA ranks (decomposition_gpu_test, built with
// MESO_DECOMPOSITION_CUDA); main() and the MPI environment are
// decomposition_test.cpp's. Migration after streaming and the shared cells'
// properties combined between ranks reproduce the one-rank run bitwise
// (fixed-point cell sums), collision after collision; on CUDA ranks in fp64
// and in the srd-fluid default (fp32 storage, sorted).
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>
#ifdef MESO_DECOMPOSITION_CUDA
#include <cuda_runtime_api.h>

#include "meso/cuda/cuda_backend.hpp"
#endif

#include "decomposition_test_support.hpp"
#include "meso/core/error.hpp"
#include "meso/scaling/mpi_communicator.hpp"
#include "meso/run/simulation.hpp"

namespace meso::scaling {
namespace {

using test::backend;
using test::kBackend;
using test::srd_case;
using test::world_rank;
using test::world_size;

// --- The MPCD solvent -------------------------------------------------------

// Every tag 0..n-1 once, in tag order (as Simulation::solvent_particles gathers).
void expect_each_solvent_tag_once(const MpcdParticles& p, std::size_t n, uint64_t collision) {
  ASSERT_EQ(p.size(), n) << "solvent particles after collision " << collision;
  for (std::size_t k = 0; k < n; ++k)
    ASSERT_EQ(p.tag[k], k) << "after collision " << collision << ": solvent tag " << k << " is missing or duplicated";
}

bool same(const Vec3d& a, const Vec3d& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

// `collisions` collisions of the same solvent on one rank and on all: after
// each, every tag once and every position and velocity bitwise equal (the
// collision's cell sums are fixed-point integers, so combining a shared
// cell's parts over ranks is exact); the global thermo agrees to round-off
// of the kinetic-energy sum over ranks.
// `per_call` collisions run in one call between comparisons: through NCCL
// the host then runs ahead of the device, and the solvent's count stays on
// it across migrations, capacity agreements and sorts.
void compare_solvent_with_one_rank(const char* name, const MpcdSystem& sys, const Variant& v, uint64_t collisions,
                                   Transport transport = Transport::ipc, uint64_t per_call = 1) {
  SCOPED_TRACE(std::string(name) + ", transport " + to_string(transport));
  const std::size_t n = sys.particles.size();
  Simulation one(backend(v), sys);
  Simulation many(backend(v), sys, MpiCommunicator::factory(MPI_COMM_WORLD, {0, 0, 0}, transport));
  EXPECT_EQ(many.ranks(), world_size());
  for (uint64_t k = per_call; k <= collisions; k += per_call) {
    one.run(per_call);
    many.run(per_call);
    const MpcdParticles got = many.solvent_particles();  // collective
    int failed = 0;
    if (world_rank() == 0) {
      expect_each_solvent_tag_once(got, n, k);
      if (!::testing::Test::HasFatalFailure()) {
        const MpcdParticles ref = one.solvent_particles();  // in tag order, as the gathered ones
        std::size_t differ = 0, first = n;
        for (std::size_t i = 0; i < n; ++i)
          if (!same(got.velocity[i], ref.velocity[i]) || !same(got.position[i], ref.position[i]) ||
              got.image[i].x != ref.image[i].x || got.image[i].y != ref.image[i].y || got.image[i].z != ref.image[i].z) {
            ++differ;
            first = std::min(first, i);
          }
        EXPECT_EQ(differ, 0u) << "after collision " << k << " on " << world_size() << " ranks; first: tag " << first;
      }
      failed = ::testing::Test::HasFailure() ? 1 : 0;
    }
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (failed) return;
  }
#ifdef MESO_DECOMPOSITION_CUDA
  // With solvent_graphs=on the collisions through NCCL run as CUDA
  // graphs, one a touched range (at most 8), each range's first collision
  // enqueued directly.
  const Variant& ran = many.backend().variant();
  if (transport == Transport::nccl && world_size() > 1 && ran.graphs && ran.solvent_graphs) {
    const auto* info = dynamic_cast<const cuda::CudaBackendInfo*>(&many.backend());
    ASSERT_NE(info, nullptr);
    EXPECT_GE(info->mpcd_graph_collisions(), collisions > 8 ? collisions - 8 : 0) << "on rank " << world_rank();
  }
#endif
  const MpcdThermo a = one.solvent_thermo(), b = many.solvent_thermo();  // b: collective
  if (world_rank() != 0) return;
  // Sums of the same terms in another order (per rank, then over ranks).
  EXPECT_NEAR(b.kinetic_energy, a.kinetic_energy, 1e-12 * a.kinetic_energy);
  EXPECT_NEAR(b.temperature, a.temperature, 1e-12 * a.temperature);
  EXPECT_NEAR(b.momentum.x, a.momentum.x, 1e-10);
  EXPECT_NEAR(b.momentum.y, a.momentum.y, 1e-10);
  EXPECT_NEAR(b.momentum.z, a.momentum.z, 1e-10);
}

// The solvent's variant: the CPU reference's default; on CUDA ranks fp64
// storage (the srd-fluid default, mixed, is SrdCudaDefaultIsBitwiseOneRank's).
Variant srd_variant(const char* extra = "") {
  std::string v = std::string(kBackend) == "cuda" ? "precision=double" : "";
  if (*extra) v += (v.empty() ? "" : ",") + std::string(extra);
  return v.empty() ? Variant{} : Variant::parse(v);
}

// Lees-Edwards shear of the solvent is not decomposed: refused by name on
// several ranks, before anything streams (docs/walls.md).
TEST(Decomposition, ShearedSolventIsRefusedOnRanks) {
  if (world_size() < 2) GTEST_SKIP() << "one rank runs the shear";
  MpcdParams prm;
  prm.shear.rate = 0.05;
  try {
    Simulation many(backend(srd_variant()), srd_case(prm), MpiCommunicator::factory(MPI_COMM_WORLD));
    ADD_FAILURE() << "a sheared solvent on ranks was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("shear_rate = 0.05 (Lees-Edwards) is not decomposed over ranks yet"),
              std::string::npos)
        << e.what();
  }
}

TEST(Decomposition, SrdSolventIsBitwiseOneRank) {
  MpcdParams prm;  // SRD, 130 degrees, grid shift, dt = 0.1
  prm.seed = 5;
  compare_solvent_with_one_rank("srd", srd_case(prm), srd_variant(), 20);
}

TEST(Decomposition, SrdVariantsAreBitwiseOneRank) {
  // The cell thermostat reads the combined relative kinetic energy; the AT
  // rule the combined sums of its draws; without the grid shift the cells
  // align with the domains (the last touched layer holds no local particle);
  // a flow (body force) makes migration one-sided; sorting by cell permutes
  // the local particles between migration and collision.
  MpcdParams thermo;
  thermo.thermostat = true;
  thermo.kT = 1.3;  // the thermostat rescales towards another temperature
  compare_solvent_with_one_rank("thermostat", srd_case(thermo), srd_variant(), 10);
  MpcdParams at;
  at.rule = MpcdRule::at;
  compare_solvent_with_one_rank("at", srd_case(at), srd_variant(), 10);
  MpcdParams fixed;
  fixed.grid_shift = false;
  compare_solvent_with_one_rank("no grid shift", srd_case(fixed), srd_variant(), 10);
  MpcdParams flow;
  flow.body_force.g = {0.5, 0.2, 0.0};
  compare_solvent_with_one_rank("body force", srd_case(flow), srd_variant(), 10);
  compare_solvent_with_one_rank("sorted", srd_case(MpcdParams{}), srd_variant("reorder=cell,sort=3"), 10);
}

// Slit walls (docs/walls.md) on grids of one rank along z: bounce-back is
// each particle's, and a cell a wall cuts draws its virtual particles from
// its global index, the collision and the seed, with its count summed over
// the ranks (mpcd_collide_decomposed.cpp; on CUDA ranks the shared cells'
// kernel, mpcd_collide_layers.cu), so the solvent driven between moving
// walls is bitwise one rank's, with and without the cell thermostat (which
// leaves the cut cells alone); on CUDA ranks in fp64 and in mixed precision.
// The grid chosen keeps z whole (without the walls two ranks would split z);
// a grid that splits z is refused.
TEST(Decomposition, SrdSlitWallsAreBitwiseOneRank) {
  MpcdParams prm;
  prm.seed = 5;
  prm.body_force.g = {0.02, 0.0, 0.0};
  prm.wall.speed = 0.1;
  MpcdParams thermo = prm;
  thermo.thermostat = true;
  compare_solvent_with_one_rank("slit", test::srd_slit_case(prm), srd_variant(), 20);
  compare_solvent_with_one_rank("slit, thermostat", test::srd_slit_case(thermo), srd_variant(), 10);
#ifdef MESO_DECOMPOSITION_CUDA
  compare_solvent_with_one_rank("slit, mixed", test::srd_slit_case(thermo), Variant::parse("precision=mixed"), 10);
#endif
  if (world_size() == 1) return;
  Simulation many(backend(srd_variant()), test::srd_slit_case(prm), MpiCommunicator::factory(MPI_COMM_WORLD));
  EXPECT_EQ(many.communicator().domain().grid[2], 1) << "a grid across the slit walls";
  try {
    Simulation split(backend(srd_variant()), test::srd_slit_case(prm),
                     MpiCommunicator::factory(MPI_COMM_WORLD, {1, 1, world_size()}));
    ADD_FAILURE() << "slit walls on a grid that splits z were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("splits z, the axis normal to the slit walls"), std::string::npos)
        << e.what();
  }
}

#ifdef MESO_DECOMPOSITION_CUDA
// The srd-fluid default on CUDA ranks: fp32 storage (relative to the box
// centre), sorted every 25 collisions. Records carry the stored values, so
// migration is exact and the run is bitwise one rank's as in fp64; a larger
// box (12 cells: domains of 6 on 2 ranks, 3 on 4 along an axis) over 30
// collisions sorts once and moves the range's first cell with the shift.
TEST(Decomposition, SrdCudaDefaultIsBitwiseOneRank) {
  MpcdParams thermo;
  thermo.thermostat = true;
  compare_solvent_with_one_rank("mixed, sorted", srd_case(MpcdParams{}, 12.0),
                                Variant::parse("precision=mixed,reorder=cell,sort=25"), 30);
  compare_solvent_with_one_rank("mixed, thermostat", srd_case(thermo), Variant::parse("precision=mixed"), 10);
}

// --transport nccl: the solvent's migrants and the shared cells' values
// cross GPU to GPU by NCCL (no host copy, no host wait in a collision); the
// run stays bitwise one rank's, for every rule and option above. NCCL wants
// a GPU per rank.
TEST(Decomposition, SrdNcclIsBitwiseOneRank) {
  if (const std::string why = test::nccl_unavailable(); !why.empty()) GTEST_SKIP() << why;
  MpcdParams prm;
  prm.seed = 5;
  compare_solvent_with_one_rank("srd", srd_case(prm), srd_variant(), 20, Transport::nccl);
  MpcdParams thermo;
  thermo.thermostat = true;
  thermo.kT = 1.3;
  compare_solvent_with_one_rank("thermostat", srd_case(thermo), srd_variant(), 10, Transport::nccl);
  MpcdParams at;
  at.rule = MpcdRule::at;
  compare_solvent_with_one_rank("at", srd_case(at), srd_variant(), 10, Transport::nccl);
  MpcdParams fixed;
  fixed.grid_shift = false;
  compare_solvent_with_one_rank("no grid shift", srd_case(fixed), srd_variant(), 10, Transport::nccl);
  MpcdParams flow;
  flow.body_force.g = {0.5, 0.2, 0.0};
  compare_solvent_with_one_rank("body force", srd_case(flow), srd_variant(), 10, Transport::nccl);
  compare_solvent_with_one_rank("mixed, sorted", srd_case(MpcdParams{}, 12.0),
                                Variant::parse("precision=mixed,reorder=cell,sort=25"), 30, Transport::nccl);
  // Runs of 40 collisions a call: the capacity is agreed anew every 8
  // migrations from reports the host reads late; sorting every 3 sorts the
  // slots past the device's count to the end.
  compare_solvent_with_one_rank("srd, 40 a call", srd_case(prm), srd_variant(), 80, Transport::nccl, 40);
  compare_solvent_with_one_rank("mixed, sorted, 30 a call", srd_case(flow, 12.0),
                                Variant::parse("precision=mixed,reorder=cell,sort=3"), 60, Transport::nccl, 30);
  // The collision as CUDA graphs (solvent_graphs=on): the same bits,
  // collision after collision and in runs of 40, with sorting.
  const char* graphs = "solvent_graphs=on";
  compare_solvent_with_one_rank("srd, graphs", srd_case(prm), srd_variant(graphs), 20, Transport::nccl);
  compare_solvent_with_one_rank("thermostat, graphs", srd_case(thermo), srd_variant(graphs), 10, Transport::nccl);
  compare_solvent_with_one_rank("srd, graphs, 40 a call", srd_case(prm), srd_variant(graphs), 80, Transport::nccl,
                                40);
  compare_solvent_with_one_rank("mixed, sorted, graphs", srd_case(flow, 12.0),
                                Variant::parse("precision=mixed,reorder=cell,sort=3,solvent_graphs=on"), 60,
                                Transport::nccl, 30);
}

// Messages too small for what leaves a face (solvent_capacity=2; a
// face passes about 25 particles a period here): no leaver moves on that
// axis, and after the run every rank stops with the overflow named, none
// hangs.
TEST(Decomposition, SrdNcclOverflowStopsEveryRank) {
  if (const std::string why = test::nccl_unavailable(); !why.empty()) GTEST_SKIP() << why;
  std::string what;
  try {
    Simulation many(backend(srd_variant("solvent_capacity=2")), srd_case(MpcdParams{}),
                    MpiCommunicator::factory(MPI_COMM_WORLD, {0, 0, 0}, Transport::nccl));
    many.run(20);
  } catch (const InputError& e) {
    what = e.what();
  }
  EXPECT_NE(what.find("than a migration message holds"), std::string::npos) << what;
  EXPECT_NE(what.find("2 a message"), std::string::npos) << what;
}
#endif

TEST(Decomposition, NcclTransportRefusals) {
  if (world_size() < 2) GTEST_SKIP() << "one rank makes no transport";
  if (std::string(kBackend) == "cpu") {
    try {
      Simulation many(backend(Variant{}), srd_case(MpcdParams{}),
                      MpiCommunicator::factory(MPI_COMM_WORLD, {0, 0, 0}, Transport::nccl));
      FAIL() << "--transport nccl was accepted on CPU ranks";
    } catch (const InputError& e) {
      const std::string w = e.what();
      EXPECT_TRUE(w.find("needs --backend cuda") != std::string::npos ||
                  w.find("built without NCCL") != std::string::npos)
          << w;
    }
  }
  EXPECT_THROW(parse_transport("mpi"), InputError);
  EXPECT_EQ(parse_transport("nccl"), Transport::nccl);
}

TEST(Decomposition, SrdRefusesWhatItCannotSplit) {
  if (world_size() < 2) GTEST_SKIP() << "one rank splits nothing";
  // Three cells a side: any grid of two or more ranks makes domains 1.5
  // cells wide, under the two cells the grid shift needs.
  try {
    Simulation many(backend(Variant{}), srd_case(MpcdParams{}, 3.0), MpiCommunicator::factory(MPI_COMM_WORLD));
    FAIL() << "domains 1.5 cells wide were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("two cells of an MPCD solvent"), std::string::npos) << e.what();
  }
  // Solute coupling needs MD particles (not decomposed with them yet).
  MpcdParams embed;
  embed.embed_types = 1;
  try {
    Simulation many(backend(Variant{}), srd_case(embed), MpiCommunicator::factory(MPI_COMM_WORLD));
    FAIL() << "embed_types without MD particles was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("embed_types"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace meso::scaling
