// An integration method (HOOMD-blue's IntegrationMethodTwoStep): the two
// halves of a step around the force evaluation.
//
//   integrate/vv        velocity Verlet, forces from v(t + dt/2) (DPD as in
//                       LAMMPS and HOOMD-blue)
//   integrate/gw        Groot-Warren: forces from the predicted v + lambda dt f/m
//   integrate/nve       plain velocity Verlet (MD name; the same steps as vv)
//   integrate/nvt       Nose-Hoover, one thermostat variable (state below)
//   integrate/langevin  BAOAB Langevin, Philox noise keyed by (tag, step, seed)
#pragma once

#include <cstdint>

#include "meso/core/error.hpp"
#include "meso/ops/operation.hpp"

namespace meso {

class Communicator;

// Thermostat state that is not in the particles, so that a run can stop and
// continue bit for bit (Simulation::checkpoint). Nose-Hoover (nvt):
//   dv/dt = F/m - xi v,  dxi/dt = (T/kT - 1)/tau^2,  deta/dt = xi,
// with T = 2 K/g, g = 3N - 3; the conserved quantity is
//   H = K + U + g kT (tau^2 xi^2 / 2 + eta).
// The other integrators have no state here (Langevin noise is keyed by tag,
// step and seed, and the step is the Simulation's).
struct IntegratorState {
  double xi = 0.0;
  double eta = 0.0;
};

class IntegrationMethodOp : public Operation {
 public:
  // step: the number of the step being advanced (keys Langevin noise).
  virtual void first_half(uint64_t step) = 0;
  virtual void second_half(uint64_t step) = 0;
  // Whether the last force may perform the second half instead (fuse=on):
  // true for the plain kicks (vv, nve, gw), false where the second half
  // needs a reduction (nvt) or noise (langevin).
  virtual bool second_half_fusable() const { return false; }
  // Told by the StepPlan when the last force performs the second half.
  virtual void set_second_half_fused(bool) {}

  // Thermostat variables for exact restarts. The defaults suit a method
  // without state: it has the zero state and refuses any other.
  virtual IntegratorState state() const { return {}; }
  virtual void set_state(const IntegratorState& s) {
    if (s.xi != 0.0 || s.eta != 0.0)
      throw_input_error("integrator '", name(), "' keeps no thermostat state: xi = ", s.xi,
                        ", eta = ", s.eta, " cannot be restored");
  }
  // The thermostat's term of the conserved quantity (0 without one).
  virtual double thermostat_energy() const { return 0.0; }
  // A multi-rank run: a method whose step needs a global sum (nvt's kinetic
  // energy and N) takes it through `comm`; the others need nothing.
  virtual void set_communicator(const Communicator*) {}
  // Whether it runs on several ranks (false: the plan refuses the run).
  virtual bool decomposable() const { return true; }
};

}  // namespace meso
