// Nose-Hoover NVT (one thermostat variable; HOOMD-blue's TwoStepNVT / the
// NVT part of Martyna, Tobias & Klein, Mol. Phys. 87 (1996) 1117), integrated
// with a time-reversible Trotter splitting around velocity Verlet:
//
//   first half:  xi  += dt/2 (T(t)/kT - 1)/tau^2;  eta += dt/2 xi
//                v    = exp(-xi dt/2) v + dt/2 F(t)/m;  r += dt v
//   second half: v    = exp(-xi dt/2) (v + dt/2 F(t+dt)/m)
//                eta += dt/2 xi;  xi += dt/2 (T(t+dt)/kT - 1)/tau^2
//
// with T = 2K/g, g = 3N - 3 (the scaling keeps zero net momentum zero); the
// rate and the conserved term are meso/physics/thermostats.hpp's. The
// conserved quantity K + U + g kT (tau^2 xi^2/2 + eta) is exact to O(dt^2)
// per unit time and carries no drift beyond that of plain velocity Verlet.
// K is summed serially in index order: it feeds the dynamics, and an OpenMP
// reduction would make the trajectory depend on the thread schedule.
#pragma once

#include <memory>

#include "meso/run/backend.hpp"
#include "meso/core/system.hpp"

namespace meso {
class Communicator;
}

namespace meso::reference {

// Kinetic energy sum_i m v^2 / 2 in double, in index order (deterministic).
template <class Real>
double kinetic_energy_ordered(const System& sys, const ParticleData<Real>& p);

template <class Real>
void nose_hoover_first_half(const System& sys, ParticleData<Real>& p, const RunParams& rp,
                            IntegratorState& s,
                            const Communicator* comm = nullptr);

template <class Real>
void nose_hoover_second_half(const System& sys, ParticleData<Real>& p, const RunParams& rp,
                             IntegratorState& s,
                             const Communicator* comm = nullptr);

template <class Real>
struct CpuContext;

// The "integrate/nvt" operation: the two halves above around the forces,
// with the thermostat state for restarts and the conserved quantity.
template <class Real>
std::unique_ptr<Operation> make_nose_hoover(CpuContext<Real>& c);

}  // namespace meso::reference
