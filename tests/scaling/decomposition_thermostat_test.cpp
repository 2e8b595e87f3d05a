// The thermostats on several ranks (decomposition_test, and on CUDA ranks
// decomposition_gpu_test; main() and the MPI environment are
// decomposition_test.cpp's): Nose-Hoover and Berendsen take the kinetic
// energy of every rank's particles, so a run on several ranks follows the
// one-rank run to round-off.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "decomposition_test_support.hpp"
#include "meso/scaling/mpi_communicator.hpp"
#include "meso/run/simulation.hpp"

namespace meso::scaling {
namespace {

using test::Case;
using test::cpu;
using test::lj_case;

// On CUDA ranks the kinetic energy of each rank is summed on its device and
// over the ranks between the second half-step and the thermostat update:
// through the host (ipc), or by an NCCL all-reduce on the stream (nccl).
void nose_hoover_follows_one_rank(Transport transport) {
  SCOPED_TRACE(std::string("transport ") + to_string(transport));
  Case c = lj_case();
  c.rp.integrator = Integrator::nvt;
  c.rp.kT = 1.2;
  Simulation one(cpu(), c.sys, c.rp);
  Simulation many(cpu(), c.sys, c.rp, MpiCommunicator::factory(MPI_COMM_WORLD, {0, 0, 0}, transport));
  one.run(50);
  many.run(50);
  const IntegratorState a = one.integrator_state(), b = many.integrator_state();
  const ThermoSample ta = one.thermo(), tb = many.thermo();
  // xi integrates (T/kT - 1) from the global kinetic energy: the same on
  // every rank and as on one rank, up to round-off growth.
  EXPECT_NEAR(b.xi, a.xi, 1e-8 * std::max(1.0, std::fabs(a.xi)));
  EXPECT_NEAR(tb.conserved_energy(), ta.conserved_energy(), 1e-7 * std::fabs(ta.conserved_energy()));
}

TEST(Decomposition, NoseHooverThermostatIsGlobal) {
  nose_hoover_follows_one_rank(Transport::ipc);
#ifdef MESO_DECOMPOSITION_CUDA
  if (test::nccl_unavailable().empty()) nose_hoover_follows_one_rank(Transport::nccl);
#endif
}

// Berendsen's leapfrog scales by the temperature of every rank's particles
// (the sums added over the ranks as Nose-Hoover's are): the run follows one
// rank's to round-off. tau = 0.1 with the start at 1 and the bath at 1.5:
// a scale computed from one rank's particles alone would move T visibly.
void berendsen_follows_one_rank(Transport transport) {
  SCOPED_TRACE(std::string("transport ") + to_string(transport));
  Case c = lj_case();
  c.rp.integrator = Integrator::berendsen;
  c.rp.kT = 1.5;
  c.rp.tau = 0.1;
  Simulation one(cpu(), c.sys, c.rp);
  Simulation many(cpu(), c.sys, c.rp, MpiCommunicator::factory(MPI_COMM_WORLD, {0, 0, 0}, transport));
  one.run(50);
  many.run(50);
  const ThermoSample ta = one.thermo(), tb = many.thermo();
  EXPECT_NEAR(tb.temperature, ta.temperature, 1e-9 * ta.temperature);
  EXPECT_NEAR(tb.total_energy(), ta.total_energy(), 1e-8 * std::fabs(ta.total_energy()));
}

TEST(Decomposition, BerendsenScaleIsGlobal) {
  berendsen_follows_one_rank(Transport::ipc);
#ifdef MESO_DECOMPOSITION_CUDA
  if (test::nccl_unavailable().empty()) berendsen_follows_one_rank(Transport::nccl);
#endif
}

}  // namespace
}  // namespace meso::scaling
