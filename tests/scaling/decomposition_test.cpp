// Domain decomposition on CPU ranks (label mpi; run by ctest under
// `mpirun -np R --oversubscribe` for R = 1, 2, 4, 8), and the same tests on
// CUDA ranks (decomposition_gpu_test, built with MESO_DECOMPOSITION_CUDA;
// labels mpi and gpu: the ranks share the device(s) there are, and the
// backend's variant is precision=double unless a test says otherwise, so
// that the 1e-12 force gate applies unchanged). Every rank also runs
// the whole system on its own (the single-rank reference) and the
// distributed run is compared with it on rank 0:
//   - forces at t = 0 agree to 1e-12 relative L2 (double; the same pairs,
//     summed in another order);
//   - every step, the gathered particles are exactly the tags 0..N-1, once
//     each (migration neither loses nor duplicates);
//   - Langevin's per-particle noise follows the particle across ranks;
//   - after 100 steps, kinetic and potential energy and pressure agree with
//     the single-rank run within a bound from round-off growth: 20 times the
//     difference between two single-rank runs that differ only in the order
//     particles are stored (hence summed), plus 1e-12 relative.
// The MPCD solvent (srd-fluid, CPU and CUDA ranks): migration after
// streaming and the shared cells' properties combined between ranks
// reproduce the one-rank run bitwise (fixed-point cell sums), collision
// after collision; on CUDA ranks in fp64 and in the srd-fluid default (fp32
// storage, sorted).
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>

#include <gtest/gtest.h>

#include "meso/error.hpp"
#include "meso/mpcd_simulation.hpp"
#include "meso/reference/cpu_backend.hpp"
#ifdef MESO_DECOMPOSITION_CUDA
#include "meso/cuda/cuda_backend.hpp"
#include "meso/cuda/device_info.hpp"
#endif
#include "meso/scaling/mpi_communicator.hpp"
#include "meso/simulation.hpp"

namespace meso::scaling {
namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

#ifdef MESO_DECOMPOSITION_CUDA
constexpr const char* kBackend = "cuda";
std::unique_ptr<Backend> backend(const Variant& v) {
  BackendRegistry r;
  cuda::register_cuda_backend(r);
  return r.create("cuda", v);
}
// The CUDA variant of the gates: fp64 storage and arithmetic.
std::unique_ptr<Backend> cpu() { return backend(Variant::parse("precision=double")); }
#else
constexpr const char* kBackend = "cpu";
std::unique_ptr<Backend> backend(const Variant& v) { return std::make_unique<reference::CpuBackend<double>>(v); }
std::unique_ptr<Backend> cpu() { return backend(Variant{}); }
#endif

// The same system with its particles stored in reverse order: the same
// physics, summed in another order (the round-off yardstick).
System reversed(System s) {
  ParticleData<double>& p = s.particles;
  std::reverse(p.position.begin(), p.position.end());
  std::reverse(p.velocity.begin(), p.velocity.end());
  std::reverse(p.force.begin(), p.force.end());
  std::reverse(p.type.begin(), p.type.end());
  std::reverse(p.tag.begin(), p.tag.end());
  std::reverse(p.image.begin(), p.image.end());
  return s;
}

double rel_l2(const std::vector<Vec3d>& a, const std::vector<Vec3d>& b) {
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Vec3d d = a[i] - b[i];
    num += dot(d, d);
    den += dot(b[i], b[i]);
  }
  return std::sqrt(num / den);
}

// The largest distance (minimum image) between the same particle in two
// runs, both in tag order.
double largest_displacement(const Box& box, const ParticleData<double>& a, const ParticleData<double>& b) {
  double worst = 0.0;
  for (std::size_t k = 0; k < b.n_local; ++k) {
    const Vec3d d = box.min_image(a.position[k] - b.position[k]);
    worst = std::max(worst, std::sqrt(dot(d, d)));
  }
  return worst;
}

// Every tag 0..n-1 exactly once (p in tag order, as gather returns it).
void expect_each_tag_once(const ParticleData<double>& p, std::size_t n, uint64_t step) {
  ASSERT_EQ(p.n_local, n) << "particles after step " << step;
  for (std::size_t k = 0; k < n; ++k)
    ASSERT_EQ(p.tag[k], k) << "after step " << step << ": tag " << k << " is missing or duplicated";
}

struct Case {
  const char* name;
  System sys;
  RunParams rp;
};

Case dpd_case() {
  DpdFluidParams f;
  f.n = 3000;  // L = 10: 8 ranks make domains of 5 > r_c + skin
  f.seed = 7;
  Case c{"dpd", make_dpd_fluid(f), {}};
  c.rp.dt = 0.02;
  c.rp.skin = 0.3;
  c.rp.seed = 11;
  return c;
}

Case lj_case() {
  LjLiquidParams l;
  l.n = 4000;
  l.rho = 0.5;  // L = 20: 8 ranks make domains of 10 > r_c + skin = 2.8
  l.seed = 3;
  Case c{"lj", make_lj_liquid(l), {}};
  c.rp.dt = 0.004;
  c.rp.integrator = Integrator::nve;
  c.rp.skin = 0.3;
  return c;
}

// How the ghosts travelled in `many`: on CUDA ranks of one node (every
// run of decomposition_gpu_test) the exchanges after the first and every
// update go GPU to GPU unless MESO_PEER_UPDATES=0; on the CPU never.
void expect_ghost_paths(const Simulation& many) {
  if (world_size() == 1) return;
  const CommTimes t = many.communicator().times();
  EXPECT_GT(t.ghost_exchanges, 2u) << "the test should rebuild its lists several times";
  EXPECT_GT(t.ghost_updates, 0u);
#ifdef MESO_DECOMPOSITION_CUDA
  const char* env = std::getenv("MESO_PEER_UPDATES");
  if (!(env && std::string(env) == "0")) {
    EXPECT_EQ(t.peer_exchanges, t.ghost_exchanges - 1) << "ghost exchanges GPU to GPU after the first";
    EXPECT_EQ(t.peer_updates, t.ghost_updates) << "ghost updates GPU to GPU";
    return;
  }
#endif
  EXPECT_EQ(t.peer_exchanges, 0u);
  EXPECT_EQ(t.peer_updates, 0u);
}

void compare_with_one_rank(const Case& c, RankGrid grid = {0, 0, 0}) {
  const int rank = world_rank();
  const std::size_t n = c.sys.particles.n_local;
  Simulation one(cpu(), c.sys, c.rp);
  Simulation other_order(cpu(), reversed(c.sys), c.rp);
  Simulation many(cpu(), c.sys, c.rp, MpiCommunicator::factory(MPI_COMM_WORLD, grid));
  EXPECT_EQ(many.ranks(), world_size());

  // Forces of t = 0.
  {
    const ParticleData<double> ref = one.particles(), got = many.particles();
    if (rank == 0) {
      expect_each_tag_once(got, n, 0);
      EXPECT_LT(rel_l2(got.force, ref.force), 1e-12) << c.name << ": forces at t = 0 on " << world_size() << " ranks";
    }
  }
  // 100 steps, particles checked after every one.
  for (uint64_t s = 1; s <= 100; ++s) {
    one.run(1);
    other_order.run(1);
    many.run(1);
    const ParticleData<double> got = many.particles();
    if (rank == 0) expect_each_tag_once(got, n, s);
    // Every rank stops together (the next step's collectives need them all).
    int failed = ::testing::Test::HasFatalFailure() ? 1 : 0;
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (failed) return;
  }
  expect_ghost_paths(many);
  // Thermo reductions are collective: every rank computes them.
  const ThermoSample a = one.thermo(), b = other_order.thermo(), m = many.thermo();
  const ParticleData<double> ref = one.particles(), got = many.particles();  // collective too
  if (rank != 0) return;
  auto bound = [](double ref, double yardstick) { return 20.0 * std::fabs(yardstick - ref) + 1e-12 * std::fabs(ref); };
  EXPECT_NEAR(m.kinetic_energy, a.kinetic_energy, bound(a.kinetic_energy, b.kinetic_energy)) << c.name;
  EXPECT_NEAR(m.potential_energy, a.potential_energy, bound(a.potential_energy, b.potential_energy)) << c.name;
  EXPECT_NEAR(m.pressure, a.pressure, bound(a.pressure, b.pressure)) << c.name;
  EXPECT_NEAR(m.temperature, a.temperature, bound(a.temperature, b.temperature)) << c.name;
  // The yardstick itself is round-off, not physics: tiny compared with E.
  EXPECT_LT(std::fabs(b.kinetic_energy - a.kinetic_energy), 1e-6 * a.kinetic_energy);
  // Momentum is conserved by the pair forces on any number of ranks.
  EXPECT_LT(std::fabs(m.momentum.x) + std::fabs(m.momentum.y) + std::fabs(m.momentum.z), 1e-9);
  // And the particles of both runs are still near each other (the runs did
  // not diverge beyond round-off growth).
  EXPECT_LT(largest_displacement(c.sys.box, got, ref), 1e-6) << c.name << ": largest position difference after 100 steps";
}

TEST(Decomposition, DpdAgreesWithOneRank) { compare_with_one_rank(dpd_case()); }

TEST(Decomposition, LjAgreesWithOneRank) { compare_with_one_rank(lj_case()); }

// Ranks in a line along x (R x 1 x 1; 8 ranks: 4 x 2 x 1): from three ranks
// on, every rank has two neighbours along x, a message each way, and each
// records a different part of the other's send lists.
TEST(Decomposition, DpdAgreesWithOneRankOnALineOfRanks) {
  const int r = world_size();
  const RankGrid grid = r <= 4 ? RankGrid{r, 1, 1} : r == 8 ? RankGrid{4, 2, 1} : RankGrid{0, 0, 0};
  compare_with_one_rank(dpd_case(), grid);
}

TEST(Decomposition, NoseHooverThermostatIsGlobal) {
#ifdef MESO_DECOMPOSITION_CUDA
  // The CUDA thermostat sums the kinetic energy on the device inside the
  // step; on several ranks the run is refused, naming the integrator.
  if (world_size() > 1) {
    Case c = lj_case();
    c.rp.integrator = Integrator::nvt;
    c.rp.kT = 1.2;
    try {
      Simulation many(cpu(), c.sys, c.rp, MpiCommunicator::factory(MPI_COMM_WORLD));
      FAIL() << "nvt on several cuda ranks was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("nvt"), std::string::npos) << e.what();
    }
    return;
  }
#endif
  Case c = lj_case();
  c.rp.integrator = Integrator::nvt;
  c.rp.kT = 1.2;
  Simulation one(cpu(), c.sys, c.rp);
  Simulation many(cpu(), c.sys, c.rp, MpiCommunicator::factory(MPI_COMM_WORLD));
  one.run(50);
  many.run(50);
  const IntegratorState a = one.integrator_state(), b = many.integrator_state();
  const ThermoSample ta = one.thermo(), tb = many.thermo();
  // xi integrates (T/kT - 1) from the global kinetic energy: the same on
  // every rank and as on one rank, up to round-off growth.
  EXPECT_NEAR(b.xi, a.xi, 1e-8 * std::max(1.0, std::fabs(a.xi)));
  EXPECT_NEAR(tb.conserved_energy(), ta.conserved_energy(), 1e-7 * std::fabs(ta.conserved_energy()));
}

TEST(Decomposition, GrootWarrenPredictionReachesGhosts) {
  Case c = dpd_case();
  c.rp.integrator = Integrator::groot_warren;
  Simulation one(cpu(), c.sys, c.rp);
  Simulation many(cpu(), c.sys, c.rp, MpiCommunicator::factory(MPI_COMM_WORLD));
  one.run(20);
  many.run(20);
  const ParticleData<double> ref = one.particles(), got = many.particles();
  if (world_rank() == 0) {
    EXPECT_LT(rel_l2(got.force, ref.force), 1e-9);
  }
}

TEST(Decomposition, TeaNoiseAndCellReorderingAgreeWithOneRank) {
  // TEA signatures are computed for ghosts too, and a reorder (every 10
  // steps) permutes the local particles between migration and the ghost
  // exchange: neither may change the physics.
  const Variant v = Variant::parse(std::string(kBackend) == "cuda" ? "precision=double,rng=tea,reorder=cell,sort=10"
                                                                   : "rng=tea,reorder=cell,sort=10");
  Case c = dpd_case();
  Simulation one(backend(v), c.sys, c.rp);
  Simulation many(backend(v), c.sys, c.rp, MpiCommunicator::factory(MPI_COMM_WORLD));
  one.run(40);
  many.run(40);
  const ParticleData<double> ref = one.particles(), got = many.particles();
  if (world_rank() != 0) return;
  expect_each_tag_once(got, c.sys.particles.n_local, 40);
  EXPECT_LT(rel_l2(got.force, ref.force), 1e-9);
}

TEST(Decomposition, LangevinNoiseFollowsTheParticle) {
  // BAOAB's noise is keyed by (tag, step, seed): a particle draws the same
  // kick whichever rank owns it, so the trajectories stay together.
  Case c = lj_case();
  c.rp.integrator = Integrator::langevin;
  c.rp.kT = 1.2;
  Simulation one(cpu(), c.sys, c.rp);
  Simulation many(cpu(), c.sys, c.rp, MpiCommunicator::factory(MPI_COMM_WORLD));
  one.run(30);
  many.run(30);
  const ParticleData<double> ref = one.particles(), got = many.particles();
  if (world_rank() != 0) return;
  // Round-off of the force sums only (1e-16 relative), grown over 30 steps.
  EXPECT_LT(largest_displacement(c.sys.box, got, ref), 1e-9);
}

#ifdef MESO_DECOMPOSITION_CUDA
// The CUDA variants whose code paths differ around ghosts: list builders
// that skip ghost rows (ballot, tiled, atomic), the record gather that packs
// ghosts' records too, the sorted cell list sized for locals and ghosts,
// fused velocity Verlet (ghosts carry v(t + dt/2) from vel_pred), and mixed
// precision (the default storage). 20 steps each, with migration.
TEST(Decomposition, CudaVariantsAgreeWithOneRank) {
  const char* variants[] = {"precision=double,nlist=ballot,cells=sorted", "precision=double,nlist=tiled",
                            "precision=double,nlist=atomic,cells=atomic", "precision=double,gather=record,tpp=2",
                            "precision=double,fuse=on",                   "precision=mixed"};
  Case c = dpd_case();
  for (const char* spec : variants) {
    SCOPED_TRACE(spec);
    const Variant v = Variant::parse(spec);
    const bool fp32 = v.precision != Precision::double_;
    Simulation one(backend(v), c.sys, c.rp);
    Simulation many(backend(v), c.sys, c.rp, MpiCommunicator::factory(MPI_COMM_WORLD));
    for (uint64_t s = 1; s <= 20; ++s) {
      one.run(1);
      many.run(1);
      const ParticleData<double> got = many.particles();
      if (world_rank() == 0) expect_each_tag_once(got, c.sys.particles.n_local, s);
    }
    const ParticleData<double> ref = one.particles(), got = many.particles();
    if (world_rank() != 0) continue;
    // fp32 storage: the same pairs in another order, rounded to float (the
    // mixed gate of the force tests, 1e-5), grown over 20 steps.
    EXPECT_LT(rel_l2(got.force, ref.force), fp32 ? 1e-4 : 1e-9);
    EXPECT_LT(largest_displacement(c.sys.box, got, ref), fp32 ? 1e-4 : 1e-9);
  }
}
#endif

TEST(Decomposition, ThinDomainsAreRefused) {
  const int n = world_size();
  if (n < 2) GTEST_SKIP() << "one rank has no domains to split";
  // A box n x 10 x 10 split n ways along x: domains 1 wide < r_c + skin = 1.3.
  try {
    MpiCommunicator comm(MPI_COMM_WORLD, Box(1.0 * n, 10.0, 10.0), 1.3, RankGrid{n, 1, 1});
    FAIL() << "a grid of domains 1.0 wide with a ghost layer of 1.3 was accepted";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("thinner than the ghost layer"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1.3"), std::string::npos) << msg;
  }
}

// --- The MPCD solvent -------------------------------------------------------

MpcdSystem srd_case(const MpcdParams& prm, double L = 8.0) {
  SrdFluidParams f;
  f.L = L;  // 8 cells: 8 ranks (2 x 2 x 2) make domains of 4 cells >= 2
  f.rho = 10.0;
  f.seed = 17;
  return make_srd_fluid(f, prm);
}

// Every tag 0..n-1 once, in tag order (as MpcdSimulation::particles gathers).
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
void compare_solvent_with_one_rank(const char* name, const MpcdSystem& sys, const Variant& v, uint64_t collisions) {
  SCOPED_TRACE(name);
  const std::size_t n = sys.particles.size();
  MpcdSimulation one(backend(v), sys);
  MpcdSimulation many(backend(v), sys, MpiCommunicator::factory(MPI_COMM_WORLD));
  EXPECT_EQ(many.ranks(), world_size());
  for (uint64_t k = 1; k <= collisions; ++k) {
    one.run(1);
    many.run(1);
    const MpcdParticles got = many.particles();  // collective
    int failed = 0;
    if (world_rank() == 0) {
      expect_each_solvent_tag_once(got, n, k);
      if (!::testing::Test::HasFatalFailure()) {
        const MpcdParticles ref = one.particles();  // in tag order, as the gathered ones
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
  const MpcdThermo a = one.thermo(), b = many.thermo();  // b: collective
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
#endif

TEST(Decomposition, SrdRefusesWhatItCannotSplit) {
  if (world_size() < 2) GTEST_SKIP() << "one rank splits nothing";
  // Three cells a side: any grid of two or more ranks makes domains 1.5
  // cells wide, under the two cells the grid shift needs.
  try {
    MpcdSimulation many(backend(Variant{}), srd_case(MpcdParams{}, 3.0), MpiCommunicator::factory(MPI_COMM_WORLD));
    FAIL() << "domains 1.5 cells wide were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("two cells of an MPCD solvent"), std::string::npos) << e.what();
  }
  // Solute coupling needs the MD simulation (not decomposed with it yet).
  MpcdParams embed;
  embed.embed_types = 1;
  try {
    MpcdSimulation many(backend(Variant{}), srd_case(embed), MpiCommunicator::factory(MPI_COMM_WORLD));
    FAIL() << "embed_types on the solvent-alone constructor was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("embed_types"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace meso::scaling

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
#ifdef MESO_DECOMPOSITION_CUDA
  // A GPU test without a GPU is skipped as a whole (ctest's SKIP_RETURN_CODE),
  // never passed.
  if (meso::cuda::device_count() == 0) {
    if (meso::scaling::world_rank() == 0) std::fprintf(stderr, "no CUDA device: skipped\n");
    MPI_Finalize();
    return 77;
  }
  // Ranks of one node share its devices round-robin.
  meso::cuda::select_device(meso::scaling::world_rank());
#endif
  // Only rank 0 prints; every rank's result counts (mpirun fails if any fails).
  if (meso::scaling::world_rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int rc = RUN_ALL_TESTS();
  int worst = 0;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
