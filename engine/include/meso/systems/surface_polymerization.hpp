// GALAMOST's surface-initiated polymerization from a ball (Zhu et al., J.
// Comput. Chem. 34, 2197 (2013), sec. "Surface initiated polymerization",
// Table 2): a ball of frozen particles at the box centre, initiators on its
// surface, free monomers filling the rest of the box at a melt density;
// chains grow from the initiators by the stochastic chain-growth rule
// (meso/core/polymerization.hpp) into a brush. docs/polymerization.md states the
// model and which of its values Table 2 gives and which are ours.
#pragma once

#include <cstdint>

#include "meso/core/system.hpp"

namespace meso {

struct SurfacePolymerizationParams {
  // Table 2's geometry (its rows: surface_polymerization_table2).
  double ball_radius = 5.0;
  uint64_t frozen = 1086;     // ball particles
  uint64_t initiators = 166;  // on the ball's surface
  uint64_t total = 48210;     // every particle
  double box = 38.25;         // cubic box edge
  // The model (not in Table 2; docs/polymerization.md).
  double capture_radius = 1.1;
  double probability = 0.01;
  uint64_t period = 100;
  double frozen_mass = 1e20;  // the ball and the initiators: no motion to round-off
  double kT = 1.0;
  uint64_t seed = 1;

  uint64_t monomers() const { return total - frozen - initiators; }
  void validate() const;  // InputError naming the bad value
};

// Table 2's row of ball radius R (5, 10, 15, 25, 45); InputError otherwise.
SurfacePolymerizationParams surface_polymerization_table2(double ball_radius);

// Types B (ball), I (initiator), M (free monomer), P (reacted monomer).
// The ball: the outermost `frozen` sites within R + a/2 of a cubic lattice
// of spacing a = 0.784 (1086 sites fill R = 5's sphere at it), a shell
// 1.7-2.2 thick in every row of Table 2, whose frozen counts grow as R^2. The initiators: a
// Fibonacci lattice on the sphere of radius R + 0.5. The monomers: sites of
// a cubic lattice filling the box outside radius R + 1.5, `monomers()` of
// them drawn at random (keyed by seed). B and I have frozen_mass; M and P
// mass 1. Pairs: WCA (epsilon 1, sigma 1, cut at 2^(1/6), shifted) between
// all types but the frozen ones among themselves (epsilon 0). Growth bonds:
// FENE, K = 30, R0 = 1.5, their core from the pair table (Kremer-Grest).
// Velocities: Maxwell-Boltzmann at kT for the monomers, with no net
// momentum; the frozen particles at rest. The free monomers' density outside
// the ball is 0.85 in every row (Kremer-Grest's melt).
System make_surface_polymerization(const SurfacePolymerizationParams& p);

}  // namespace meso
