// Leapfrog with Berendsen scaling, GALAMOST's integrator (Zhu et al., J.
// Comput. Chem. 34, 2197 (2013)), the CPU reference of
// kernels/md/integrate_berendsen.cu:
//
//   integrate/berendsen        v(t + dt/2) = lambda [v(t - dt/2) + dt F(t)/m],
//                              r(t + dt) = r(t) + dt v(t + dt/2);
//   integrate/berendsen/aniso  the same for translation, and for rotation
//                              L(t + dt/2) = lambda_r [L(t - dt/2) + dt tau(t)]
//                              (body frame) followed by the free rotor of dt
//                              (meso/physics/rigid_body.hpp).
//
// The velocities and angular momenta are those of the half steps: the whole
// step is the first half, and the second half does nothing. lambda and
// lambda_r follow physics::berendsen_scale from the translational (3N - 3
// degrees of freedom) and rotational (the axes with inertia) temperatures of
// v(t - dt/2) and L(t - dt/2), summed over every rank. Without the scaling
// (tau -> infinity) the positions and orientations are those of
// integrate/nve(/aniso): leapfrog and velocity Verlet are the same map.
#pragma once

#include <memory>

#include "meso/ops/operation.hpp"

namespace meso::reference {

template <class Real>
struct CpuContext;

template <class Real>
std::unique_ptr<Operation> make_berendsen(CpuContext<Real>& c, bool rotation);

}  // namespace meso::reference
