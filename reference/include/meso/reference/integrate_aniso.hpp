// Integrators of orientational particles (ParticleData::rotational): the
// translational step of integrate/nve or integrate/langevin together with
// the rotation of every particle with its moments of inertia
// (meso/physics/rigid_body.hpp).
//
//   integrate/nve/aniso       velocity Verlet for r, v and a torque kick
//                             around the NO_SQUISH free rotor for q, L
//                             (Miller et al. 2002): symplectic, time
//                             reversible, energy error O(dt^2)
//   integrate/langevin/aniso  BAOAB (integrate_langevin.hpp) for both: the
//                             A steps move r and turn the free rotor by
//                             dt/2; the O step draws v and each body-frame
//                             L_k with c1 = exp(-gamma_r dt / I_k) from
//                             Philox noise keyed by (tag, step, seed), its
//                             own draws (langevin_gaussian3_rotation)
#pragma once

#include <memory>

#include "meso/ops/operation.hpp"

namespace meso::reference {

template <class Real>
struct CpuContext;

template <class Real>
std::unique_ptr<Operation> make_nve_aniso(CpuContext<Real>& c);
template <class Real>
std::unique_ptr<Operation> make_langevin_aniso(CpuContext<Real>& c);

}  // namespace meso::reference
