// The thermostat arithmetic of the integration methods, written once for the
// CPU reference (reference/src/integrate_*.cpp) and the CUDA kernels
// (kernels/integrate_*.cu).
//
// Nose-Hoover (one thermostat variable; HOOMD-blue's TwoStepNVT, Martyna,
// Tobias & Klein, Mol. Phys. 87 (1996) 1117): with T = 2K/g over g = 3N - 3
// degrees of freedom,
//   dxi/dt = (T/kT - 1)/tau^2,  deta/dt = xi,
// conserved H = K + U + g kT (tau^2 xi^2/2 + eta).
// Langevin BAOAB (Leimkuhler & Matthews 2013), the O step:
//   v = c1 v + c2 R,  c1 = exp(-gamma dt/m),  c2 = sqrt((1 - c1^2) kT/m).
// Berendsen (Berendsen et al., J. Chem. Phys. 81, 3684 (1984)), the weak
// coupling GALAMOST's leapfrog uses: each step scales the velocities by
//   lambda = sqrt(1 + (dt/tau) (kT/T - 1)),
// so that T relaxes to kT as dT/dt = (kT - T)/tau; lambda is held to
// [0.8, 1.25] per step (GROMACS's limits), so that a cold or empty start
// cannot scale by an unbounded factor.
#pragma once

#include <cmath>
#include <cstddef>

#include "meso_hd.hpp"
#include "vec3.hpp"

namespace meso::physics {

// Degrees of freedom g = 3N - 3 of the Nose-Hoover temperature (momentum is
// conserved); 3 for a single particle.
MESO_HD double nose_hoover_dof(std::size_t n) { return n > 1 ? 3.0 * double(n) - 3.0 : 3.0; }

// dxi/dt from sum m v^2 (twice the kinetic energy).
MESO_HD double nose_hoover_rate(double mv2, double dof, double kT, double tau) {
  const double kinetic = 0.5 * mv2;
  return (2.0 * kinetic / dof / kT - 1.0) / (tau * tau);
}

// Nose-Hoover's half-steps, as both backends take them: the thermostat
// variables (xi at the rate of the kinetic energy, eta at xi; the first
// half-step moves xi and then eta at the new xi, the second eta and then xi),
// and the velocity with s = nose_hoover_scale(dt, xi) = exp(-dt xi/2) and
// h = dt/(2m):
//   first half  v <- s v + h f   (then r += dt v),
//   second half v <- s (v + h f).
MESO_HD double nose_hoover_xi_half(double xi, double dt, double rate) { return xi + 0.5 * dt * rate; }
MESO_HD double nose_hoover_eta_half(double eta, double dt, double xi) { return eta + 0.5 * dt * xi; }
MESO_HD double nose_hoover_scale(double dt, double xi) { return exp(-0.5 * dt * xi); }
MESO_HD Vec3d nose_hoover_first_velocity(const Vec3d& v, const Vec3d& f, double s, double h) { return s * v + h * f; }
MESO_HD Vec3d nose_hoover_second_velocity(const Vec3d& v, const Vec3d& f, double s, double h) {
  return s * (v + h * f);
}

// The thermostat's term g kT (tau^2 xi^2/2 + eta) of the conserved quantity.
MESO_HD double nose_hoover_energy(double dof, double kT, double tau, double xi, double eta) {
  return dof * kT * (0.5 * tau * tau * xi * xi + eta);
}

struct LangevinCoeffs {
  double c1;  // velocity memory exp(-gamma dt/m)
  double c2;  // noise amplitude sqrt((1 - c1^2) kT/m)
};

MESO_HD LangevinCoeffs langevin_coeffs(double gamma, double dt, double m, double kT) {
  using std::exp;
  using std::sqrt;
  const double c1 = exp(-gamma * dt / m);
  return {c1, sqrt((1.0 - c1 * c1) * kT / m)};
}

// Berendsen's scale of one step from the temperature T the velocities have
// before it (T = 0: the largest scale; no velocity to scale either way).
MESO_HD double berendsen_scale(double temperature, double kT, double dt, double tau) {
  const double lo = 0.8, hi = 1.25;
  if (!(temperature > 0.0)) return hi;
  const double l2 = 1.0 + dt / tau * (kT / temperature - 1.0);
  const double l = l2 > 0.0 ? std::sqrt(l2) : 0.0;
  return l < lo ? lo : (l > hi ? hi : l);
}

}  // namespace meso::physics
