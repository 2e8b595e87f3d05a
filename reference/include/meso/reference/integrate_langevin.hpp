// Langevin dynamics by the BAOAB splitting (Leimkuhler & Matthews, Appl.
// Math. Res. Express 2013, 34): per step
//   B: v += dt/2 F/m;  A: r += dt/2 v;
//   O: v  = c1 v + sqrt((1 - c1^2) kT/m) R,  c1 = exp(-gamma dt/m);
//   A: r += dt/2 v;  (forces)  B: v += dt/2 F/m
// with drag coefficient gamma (force -gamma v, as HOOMD-blue's Langevin) and
// R three unit normals from meso/physics/langevin_noise.hpp (c1, c2 from
// meso/physics/thermostats.hpp) keyed by (tag, step,
// seed): independent of particle order and thread count, so a run restarts
// bit for bit. BAOAB samples configurations with O(dt^2) error and its O step
// draws exactly Maxwell-Boltzmann velocities; it is the splitting with the
// smallest configurational bias among the Langevin schemes compared there.
#pragma once

#include <cstdint>
#include <memory>

#include "meso/run/backend.hpp"
#include "meso/core/system.hpp"

namespace meso::reference {

// B A O A; the closing B is integrate_second_half (integrate_verlet.hpp).
template <class Real>
void langevin_first_half(const System& sys, ParticleData<Real>& p, const RunParams& rp,
                         uint64_t step);

template <class Real>
struct CpuContext;

// The "integrate/langevin" operation: langevin_first_half, then the closing
// velocity-Verlet kick.
template <class Real>
std::unique_ptr<Operation> make_langevin(CpuContext<Real>& c);

}  // namespace meso::reference
