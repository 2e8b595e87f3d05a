// Velocity-Verlet half steps, and the Groot-Warren velocity prediction
// (Groot & Warren, J. Chem. Phys. 107, 4423 (1997), eq. 16):
//   v(t+dt/2) = v(t) + dt/2 f(t)/m;  r(t+dt) = r(t) + dt v(t+dt/2)
//   v~        = v(t) + lambda dt f(t)/m   (forces at t+dt use v~; lambda = 1/2
//                                          is exactly velocity Verlet)
//   v(t+dt)   = v(t+dt/2) + dt/2 f(t+dt)/m
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "meso/ops/operation.hpp"
#include "meso/core/system.hpp"

namespace meso::reference {

// The first half-step of step `step` (kick, drift, wrap): the positions
// reach t = step dt, the time of the Lees-Edwards offset the wrap uses.
template <class Real>
void integrate_first_half(const System& sys, ParticleData<Real>& p, double dt, uint64_t step);

// v~ from the state right after integrate_first_half (v holds v(t+dt/2), f
// still f(t)): v~ = v(t+dt/2) + (lambda - 1/2) dt f(t)/m.
template <class Real>
void predict_velocity(const System& sys, const ParticleData<Real>& p, double dt, double lambda,
                      std::vector<Vec3<Real>>& v_pred);

template <class Real>
void integrate_second_half(const System& sys, ParticleData<Real>& p, double dt);

template <class Real>
struct CpuContext;

// The "integrate/vv", "integrate/nve" (the same steps) and "integrate/gw"
// operations (gw: the prediction goes to the context's v_pred, which the DPD
// force reads).
template <class Real>
std::unique_ptr<Operation> make_verlet(CpuContext<Real>& c, bool groot_warren);

}  // namespace meso::reference
