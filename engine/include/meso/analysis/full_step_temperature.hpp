// The kinetic temperature of a velocity-Verlet or BAOAB step, read at the
// full step, with its O(dt^2) bias removed.
//
// Both steps end with the half kick v += (h/2) F(r_{n+1}) / m, and F moved
// with the drift before it, against the velocity: to leading order the
// full-step velocities hold m <v_k^2> = kT - h^2 <F_k^2> / (4 m) per degree
// of freedom (a harmonic oscillator of frequency w under BAOAB: kT (1 - h^2
// w^2 / 4) exactly, its configuration exact). A velocity-Verlet NVE run at
// the energy a BAOAB bath measured carries the same bias, so its full-step
// temperature reads low by it too. The same holds for the torque's half
// kick of the body-frame L_k over I_k. Stiff motions feel it: SSD/RF water
// at 2 fs under-reads translation by 0.34 K and rotation (the librations)
// by 2.9 K, four times that at 4 fs (validation/ssd-water/README.md).
#pragma once

#include "meso/core/system.hpp"

namespace meso {

// What 2 K (translation) and 2 K_rot (rotation) under-read by at the full
// step: h^2 sum_i |F_i|^2 / (4 m_i) and h^2 sum_i sum_k tau_{i,k}^2 / (4
// I_{i,k}) over the body axes with inertia (tau in the body frame). Added
// to 2 K and divided by the degrees of freedom, they give the temperature.
struct FullStepBias {
  double twice_kinetic = 0.0;
  double twice_rotational = 0.0;
};

FullStepBias full_step_bias(const System& sys, const ParticleData<double>& p, double dt);

}  // namespace meso
