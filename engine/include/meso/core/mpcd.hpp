// The MPCD solvent (SRD or MPC-AT; Howard, Panagiotopoulos & Nikoubashman,
// CPC 2018, HOOMD-blue's MPCD package): its parameters, its particles and the
// benchmark solvent. The solvent is a lean container of its own beside the MD
// ParticleData (ARCHITECTURE.md, "Data model"): every particle has the one
// solvent mass, no force field acts on it, and collisions act per cell.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meso/core/box.hpp"
#include "meso/ops/communicator.hpp"
#include "meso/physics/body_force.hpp"
#include "meso/physics/srd.hpp"
#include "meso/physics/srd_lees_edwards.hpp"
#include "meso/physics/srd_slit.hpp"
#include "meso/physics/vec3.hpp"
#include "meso/analysis/thermo.hpp"

namespace meso {

enum class MpcdRule { srd, at };
const char* to_string(MpcdRule r);
MpcdRule parse_mpcd_rule(const std::string& name);

struct MpcdParams {
  double cell_size = 1.0;    // a
  double mass = 1.0;         // m of every solvent particle
  double kT = 1.0;           // of the initial state, the AT rule and the cell thermostat
  double angle_deg = 130.0;  // SRD rotation angle alpha
  double dt = 0.1;           // collision period dt_c: particles stream dt_c between collisions
  bool grid_shift = true;    // random shift of the cell grid each collision
  bool thermostat = false;   // SRD: Maxwell-Boltzmann cell thermostat
  MpcdRule rule = MpcdRule::srd;
  uint32_t seed = 1;         // keys the grid shift, axes, thermostat and AT draws
  // Constant acceleration of the solvent while it streams (flows; the
  // reverse-Poiseuille viscosity measurement), as in HOOMD's mpcd streaming
  // with a constant force.
  physics::BodyForce body_force;
  // Solute coupling (HOOMD-blue's embedded group): MD particles of these
  // types (bit t: type t) join every collision with their own masses; the
  // MD system must share the solvent's box (require_embeddable). 0: none.
  uint32_t embed_types = 0;
  // Planar slit walls normal to z at z = +-wall.h (docs/walls.md): bounce-
  // back while streaming, virtual particles in the cut cells while
  // colliding. wall.h = 0: periodic in z. The srd rule only, no embedded
  // solutes, one rank, and no body force along z.
  physics::SlitWall wall;
  // Lees-Edwards shear u_x = shear.rate z (docs/walls.md): the images across
  // the z faces offset by delta(t) along x and moving at rate L_z. The srd
  // rule only, no walls, no embedded solutes, one rank.
  physics::SrdShear shear;

  void validate() const;  // throws InputError naming the bad value
};

// Host copy of the solvent in double precision, in tag order when it comes
// out of a backend.
struct MpcdParticles {
  std::vector<Vec3d> position;  // wrapped into the box
  std::vector<Vec3d> velocity;
  std::vector<uint32_t> type;
  std::vector<uint32_t> tag;
  std::vector<Image> image;

  std::size_t size() const { return position.size(); }
  void resize(std::size_t n);
};

struct MpcdSystem {
  Box box;
  MpcdParams params;
  MpcdParticles particles;

  // The cell grid of edge params.cell_size (box lengths must be multiples).
  physics::MpcdGrid grid() const;
  // Throws InputError: params, box lengths integer multiples of a (within
  // 1e-9 relative) and at least 2 cells a side, finite wrapped positions,
  // finite velocities, unique tags; with walls, a box at least one cell
  // taller than the slit and every particle between the walls.
  void validate() const;
};

// The benchmark solvent (docs/reference.md, "SRD and MPCD solvent"): a cubic
// box of L cells a side, rho particles per cell on average, uniform random
// positions and Maxwell-Boltzmann velocities at kT with the total momentum
// removed exactly (the "initial correction"), all from `seed`.
struct SrdFluidParams {
  double L = 50.0;   // box edge in cells (a = params.cell_size)
  double rho = 10.0; // particles per cell
  uint64_t seed = 1;
};
MpcdSystem make_srd_fluid(const SrdFluidParams& f, const MpcdParams& params);
// The same solvent without its particles, and their count n: what each rank
// of a decomposed start completes with place_stratified and the over-ranks
// draw_maxwell_boltzmann (SimulationSetup::solvent_owned).
MpcdSystem srd_fluid_parameters(const SrdFluidParams& f, const MpcdParams& params, uint64_t& n);

// The solvent between slit walls (docs/walls.md): a box of lx x ly cells
// across and height + 2 cells along z, the walls at z = +-height a / 2 (one
// cell of padding beyond each), rho particles per cell of the slit on
// average, uniform random positions between the walls and Maxwell-Boltzmann
// velocities at kT with the total momentum removed, all from `seed`.
// params.wall keeps its speed, density and switches; its h is set here.
struct SrdSlitParams {
  double lx = 16.0, ly = 16.0;  // across, in cells
  double height = 8.0;          // between the walls, in cells (>= 2)
  double rho = 10.0;
  uint64_t seed = 1;
};
MpcdSystem make_srd_slit(const SrdSlitParams& f, const MpcdParams& params);

// Observables of the solvent: total momentum, kinetic energy, the kinetic
// temperature 2 K / (3 (N - 1)) (the momentum is conserved; a mean flow
// counts as temperature here), all summed with compensation so that their
// own rounding stays far below the conservation bounds of srd-momentum.
struct MpcdThermo {
  uint64_t step = 0;  // collisions done
  Vec3d momentum{0.0, 0.0, 0.0};
  double kinetic_energy = 0.0;
  double temperature = 0.0;
};
MpcdThermo mpcd_thermo(const MpcdParticles& p, double mass, uint64_t step);
// The same as a thermo sample of the MD kind: no potential energy, pressure 0
// (the ideal-gas solvent's is not computed), no thermostat term.
ThermoSample thermo_sample(const MpcdThermo& t);

// The cells of the grid shifted by `shift` that the particles of domain `d`
// can fall into (several ranks): along a split axis from the cell of d.lo to
// the cell of d.hi (the last may hold no particle of this rank: the
// neighbour's first layer is the same plane), along an unsplit axis all of
// them. The first and the last layer along a split axis are the cells the
// rank shares with its neighbours. Shared by the CPU and CUDA collisions.
CellRange mpcd_touched_cells(const physics::MpcdGrid& g, const Domain& d, const Vec3d& shift);

struct System;
// Before a collision with embed_types set: the MD system (`md`, as the
// backend holds it) must have particles, a type for every embed_types bit and
// the solvent's box (same lengths and origin to 1e-12 relative: the
// particles share one cell grid); otherwise an InputError naming the value.
void require_embeddable(const Box& solvent_box, const MpcdParams& params, const System& md,
                        const char* op);

}  // namespace meso
