// A System is everything a backend needs to advance the dynamics: the box, the
// particles, the pair style and its per-type-pair parameter tables.
// Heterogeneous bead types are ordinary input: every parameter is looked up
// per (type_i, type_j).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meso/core/box.hpp"
#include "meso/core/mdscf_field.hpp"
#include "meso/tables/pair_potential_table.hpp"
#include "meso/core/pair_style.hpp"
#include "meso/core/particle_data.hpp"
#include "meso/physics/body_force.hpp"
#include "meso/physics/dpd_force.hpp"
#include "meso/physics/dpd_wall.hpp"
#include "meso/physics/lees_edwards.hpp"
#include "meso/physics/gay_berne.hpp"
#include "meso/physics/lj_force.hpp"
#include "meso/physics/janus.hpp"
#include "meso/physics/ssd_water.hpp"
#include "meso/core/polymerization.hpp"
#include "meso/core/topology.hpp"

namespace meso {

// Which pair force acts is the System's pair style (meso/core/pair_style.hpp):
// DPD (conservative + dissipative + random), Lennard-Jones, tabulated
// potentials, Gay-Berne ellipsoids, SSD/RF water and GALAMOST's soft
// anisotropic particles (forces and torques on orientational particles,
// ParticleData::rotational), or none (no pair force, no cell or
// neighbor list: a hybrid particle-field model whose intermolecular forces
// come from the MD-SCF field, plus bonded forces). One style per system.
const char* to_string(physics::LjMode m);
physics::LjMode parse_lj_mode(const std::string& name);  // "none" | "shift" | "xplor"
const char* to_string(physics::SoftShape s);
physics::SoftShape parse_soft_shape(const std::string& name);  // "janus" | "triblock" | "disk" | "rod"

struct System {
  Box box;
  ParticleData<double> particles;
  std::vector<std::string> type_names{"A"};
  std::vector<double> type_mass{1.0};
  // The pair style; empty: none. A default System is a one-type DPD fluid
  // with DpdPairParams{}.
  PairStyleSlot pair{std::make_unique<PairStyleOf<physics::DpdPairParams>>(1)};
  double kT = 1.0;
  // External driving (Poiseuille flows); inactive (g = 0) by default. Every
  // backend adds it to the pair forces of local particles in compute_forces.
  physics::BodyForce body_force;
  // Planar slit walls normal to z at z = +-wall.h (docs/walls.md): the
  // effective wall force of the DPD pair force and bounce-back in the
  // velocity-Verlet drift; off (h = 0) by default. DPD pair style, one rank.
  physics::DpdWall wall;
  // Lees-Edwards shear (docs/walls.md, physics/lees_edwards.hpp): flow along
  // x, gradient along z, the image at z + L_z moving at shear_rate L_z;
  // 0 (off) by default. DPD pair style, the vv or gw integrator, one rank,
  // no walls.
  double shear_rate = 0.0;
  // Bonds and angles by tag (meso/core/topology.hpp); empty: no bonded forces.
  // With a topology the tags must be 0 .. N-1.
  Topology topology;
  // The whole system's N where `particles` are one rank's part of it (the
  // topology's tags run over all of them); 0: particles.n_local.
  uint64_t tag_count = 0;
  // The MD-SCF mean field (meso/core/mdscf_field.hpp); off (nx == 0) by default.
  MdscfField mdscf;
  // Chain-growth polymerization (meso/core/polymerization.hpp); off (period 0)
  // by default. Its bonds join `topology`, so the tags must be 0 .. N-1.
  Polymerization polymerization;

  // The sheared images at time t (inactive without shear).
  physics::LeesEdwards lees_edwards(double t) const {
    return physics::lees_edwards_at(shear_rate, box.lengths(), t);
  }
  uint32_t ntypes() const { return static_cast<uint32_t>(type_names.size()); }
  // The pair style's name ("none" without one).
  const char* pair_style() const { return pair ? pair->name() : "none"; }
  // Replaces the pair style by a style of one Params per type pair, every
  // pair set to `fill`; returns its table.
  template <class Params>
  PairTable<Params>& set_pair_style(uint32_t ntypes, const Params& fill = Params{}) {
    return emplace_pair_style<PairStyleOf<Params>>(ntypes, fill).table;
  }
  // Replaces the pair style by Style(args...).
  template <class Style, class... Args>
  Style& emplace_pair_style(Args&&... args) {
    pair = PairStyleSlot(std::make_unique<Style>(std::forward<Args>(args)...));
    return pair.as<Style>();
  }
  // The parameter table of the style, which must be PairStyleOf<Params>
  // (std::logic_error otherwise).
  template <class Params>
  PairTable<Params>& pair_table() {
    return pair.as<PairStyleOf<Params>>().table;
  }
  template <class Params>
  const PairTable<Params>& pair_table() const {
    return pair.as<PairStyleOf<Params>>().table;
  }
  // Largest cutoff of the pair style (0 for none).
  double max_rcut() const { return pair ? pair->max_rcut() : 0.0; }
  double density() const { return static_cast<double>(particles.n_local) / box.volume(); }

  // Throws InputError naming the first inconsistent value: positive box,
  // masses and cutoffs, finite state, types within range, unique tags, and a
  // box of at least 2 (r_c + skin) so minimum image is unambiguous, and a
  // topology (Topology::validate) whose tags are those of the particles;
  // orientational particles need unit quaternions, finite angular momenta
  // and non-negative moments of inertia, with no angular momentum about an
  // axis without inertia.
  void validate(double skin) const;
};

// The parameters of a homogeneous DPD fluid (the `dpd-fluid` workload and
// the docs/reference.md cases): one bead type, a, gamma, kT, r_c, s, density.
struct DpdFluidParams {
  double rho = 3.0;
  double a = 25.0;
  double gamma = 4.5;
  double kT = 1.0;
  double rcut = 1.0;
  double s = 1.0;
  double mass = 1.0;
  // Box: cubic with N = rho L^3 when only n is given; lx, ly, lz override.
  uint64_t n = 0;
  double lx = 0.0, ly = 0.0, lz = 0.0;
  uint64_t seed = 1;
  // Bead types, all with the parameters above (type = tag % types): the
  // cost of per-type lookups in a heterogeneous system without changing
  // its physics (Shkurti et al.'s type-branch measurement).
  uint32_t types = 1;
  // Lees-Edwards shear rate (System::shear_rate; flow x, gradient z): the
  // velocities then start on the flow, v_x += shear_rate z.
  double shear_rate = 0.0;

  void validate() const;
};

// Builds a homogeneous DPD fluid: uniform random positions and Maxwell-Boltzmann
// velocities at kT with zero net momentum (see init.hpp), both from `seed`.
System make_dpd_fluid(const DpdFluidParams& p);
// The same system without its particles, and their count n: what each rank
// of a decomposed start completes with place_stratified and the over-ranks
// draw_maxwell_boltzmann (SimulationSetup::md_owned).
System dpd_fluid_parameters(const DpdFluidParams& p, uint64_t& n);

// A homogeneous Lennard-Jones liquid (the `lj-liquid` workload and the
// nve-drift validation): one type, eps, sigma, alpha, r_cut, mode, r_on.
// Density from rho, or from the packing fraction phi = pi/6 rho sigma^3 when
// packing_fraction > 0.
struct LjLiquidParams {
  uint64_t n = 5000;
  double rho = 0.4;
  double packing_fraction = 0.0;  // overrides rho when > 0
  double kT = 1.0;
  double epsilon = 1.0;
  double sigma = 1.0;
  double alpha = 1.0;
  double rcut = 2.5;
  double ron = 0.0;
  physics::LjMode mode = physics::LjMode::shift;
  double mass = 1.0;
  uint64_t seed = 1;

  double density() const;  // rho, or 6 phi / (pi sigma^3)
  void validate() const;
};

// Builds the liquid on a simple cubic lattice: m = ceil(N^(1/3)) sites per
// side, N of the m^3 sites taken evenly spaced in site order (so vacancies are
// spread through the box, not bunched at one end). A uniform random start at
// these densities puts pairs at r << sigma whose r^-12 forces blow up the
// first steps; the lattice spacing L/m is >= 1.2 sigma at rho <= 0.4 for any
// N >= 1000 (no overlaps), and a short NVT run melts it (rho = 0.4, kT = 1 is
// a liquid state). validate() refuses spacings below 0.9 sigma. Velocities: Maxwell-Boltzmann at kT with zero net momentum.
System make_lj_liquid(const LjLiquidParams& p);
// The same system without its particles: what each rank of a decomposed
// start completes with place_lattice and the over-ranks
// draw_maxwell_boltzmann (SimulationSetup::md_owned).
System lj_liquid_parameters(const LjLiquidParams& p);

}  // namespace meso
