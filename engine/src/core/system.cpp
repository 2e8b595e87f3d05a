#include "meso/core/system.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/systems/gay_berne_liquid.hpp"
#include "meso/core/init.hpp"

namespace meso {

const char* to_string(physics::LjMode m) {
  switch (m) {
    case physics::LjMode::none: return "none";
    case physics::LjMode::shift: return "shift";
    case physics::LjMode::xplor: return "xplor";
  }
  return "?";
}

physics::LjMode parse_lj_mode(const std::string& name) {
  if (name == "none") return physics::LjMode::none;
  if (name == "shift") return physics::LjMode::shift;
  if (name == "xplor") return physics::LjMode::xplor;
  throw_input_error("LJ mode '", name, "' is unknown: allowed values are none, shift, xplor");
}

const char* to_string(physics::SoftShape s) {
  switch (s) {
    case physics::SoftShape::janus: return "janus";
    case physics::SoftShape::triblock: return "triblock";
    case physics::SoftShape::disk: return "disk";
    case physics::SoftShape::rod: return "rod";
  }
  return "?";
}

physics::SoftShape parse_soft_shape(const std::string& name) {
  if (name == "janus") return physics::SoftShape::janus;
  if (name == "triblock") return physics::SoftShape::triblock;
  if (name == "disk") return physics::SoftShape::disk;
  if (name == "rod") return physics::SoftShape::rod;
  throw_input_error("shape '", name, "' is unknown: allowed values are janus, triblock, disk, rod");
}

namespace {

// Orientational state: unit quaternions (to 1e-6; integrators renormalise),
// finite angular momenta, non-negative finite moments of inertia, and no
// angular momentum about an axis that has no inertia to carry it.
void validate_orientations(const ParticleData<double>& p) {
  for (std::size_t i = 0; i < p.n_local; ++i) {
    const Quatd& q = p.orientation[i];
    const double n2 = norm2(q);
    if (!std::isfinite(n2) || std::abs(n2 - 1.0) > 1e-6)
      throw_input_error("particle ", p.tag[i], " has orientation (", q.s, ", ", q.v.x, ", ", q.v.y, ", ", q.v.z,
                        ") of norm^2 ", n2, ": orientations must be unit quaternions");
    const Vec3d I = p.inertia[i], L = p.angmom[i];
    const double inertia[3] = {I.x, I.y, I.z}, angmom[3] = {L.x, L.y, L.z};
    for (int k = 0; k < 3; ++k) {
      if (!std::isfinite(inertia[k]) || inertia[k] < 0.0)
        throw_input_error("particle ", p.tag[i], " has moment of inertia I_", "xyz"[k], " = ", inertia[k],
                          ": it must be finite and >= 0");
      if (!std::isfinite(angmom[k]) || (inertia[k] == 0.0 && angmom[k] != 0.0))
        throw_input_error("particle ", p.tag[i], " has angular momentum L_", "xyz"[k], " = ", angmom[k],
                          inertia[k] == 0.0 ? " about an axis without inertia (I = 0)" : ": not finite");
    }
  }
}

// The DPD slit walls (docs/walls.md): their parameters, a box whose padding
// beyond the walls keeps the fluid at one wall out of the reach of the fluid
// at the other across the periodic face, and every particle between them.
void validate_wall(const System& s) {
  const physics::DpdWall& w = s.wall;
  // The wall force is the DPD fluid's own, integrated over the half-space;
  // walls without it only reflect (solutes in an MPCD slit), for any pair style.
  if (w.forces() && std::string(s.pair_style()) != "dpd")
    throw_input_error("slit walls with a wall force (density ", w.density, ") need the dpd pair style, not ",
                      s.pair_style(), "; walls of density 0 only reflect");
  require_finite("wall h", w.h);
  require_finite("wall speed", w.speed);
  require_finite("wall a", w.a);
  require_non_negative("wall gamma", w.gamma);
  require_non_negative("wall density", w.density);
  require_positive("wall kT", w.kT);
  require_positive("wall r_c", w.rcut);
  require_positive("wall s", w.s);
  const double lz = s.box.lengths().z, reach = std::max(s.max_rcut(), w.rcut);
  if (lz - 2.0 * w.h < reach)
    throw_input_error("slit walls at z = +-", w.h, " need a box taller by at least r_c = ", reach,
                      ": L_z = ", lz, " is too short");
  if (2.0 * w.h < 2.0 * reach)
    throw_input_error("slit walls at z = +-", w.h, " are too close: the slit must be at least 2 r_c = ",
                      2.0 * reach, " high");
  // 1e-6 relative slack: fp32 storage rounds a particle on a wall outwards.
  const double slack = 1e-6 * std::max(1.0, w.h);
  for (std::size_t i = 0; i < s.particles.n_local; ++i)
    if (std::fabs(s.particles.position[i].z) > w.h + slack)
      throw_input_error("particle ", s.particles.tag[i], " at z = ", s.particles.position[i].z,
                        " is outside the slit walls at +-", w.h);
}

// Lees-Edwards shear (docs/walls.md): what the sheared images are provided
// with. Bonded and field forces take separations by the unsheared minimum
// image, and the walls close the gradient axis the images shear.
void validate_shear(const System& s) {
  require_finite("shear_rate", s.shear_rate);
  if (std::string(s.pair_style()) != "dpd")
    throw_input_error("shear_rate = ", s.shear_rate, ": Lees-Edwards shear needs the dpd pair style, not ",
                      s.pair_style());
  if (s.wall.active())
    throw_input_error("shear_rate = ", s.shear_rate,
                      ": Lees-Edwards shear and slit walls both act on z; use one of them");
  if (!s.topology.empty() || s.polymerization.enabled())
    throw_input_error("shear_rate = ", s.shear_rate, ": Lees-Edwards shear is not provided with bonds");
  if (s.mdscf.enabled())
    throw_input_error("shear_rate = ", s.shear_rate, ": Lees-Edwards shear is not provided with an MD-SCF field");
  if (s.particles.rotational)
    throw_input_error("shear_rate = ", s.shear_rate,
                      ": Lees-Edwards shear is not provided with orientational particles");
}

}  // namespace

void System::validate(double skin) const {
  const Vec3d L = box.lengths();
  require_positive("box Lx", L.x);
  require_positive("box Ly", L.y);
  require_positive("box Lz", L.z);
  require_positive("kT", kT);
  if (type_mass.size() != ntypes())
    throw_input_error("type_mass has ", type_mass.size(), " entries but there are ", ntypes(), " types");
  for (double m : type_mass) require_positive("mass", m);
  if (pair) pair->validate(ntypes(), particles.rotational);
  require_non_negative("skin", skin);
  require_finite("body force g_x", body_force.g.x);
  require_finite("body force g_y", body_force.g.y);
  require_finite("body force g_z", body_force.g.z);
  if (body_force.reverse_axis < -1 || body_force.reverse_axis > 2)
    throw_input_error("body force reverse_axis = ", body_force.reverse_axis,
                      " is invalid: allowed values are -1 (uniform), 0, 1, 2");
  const double r_list = max_rcut() + skin;
  const double shortest = box.min_length();
  if (shortest < 2.0 * r_list)
    throw_input_error("box length ", shortest, " is too short: it must be at least 2 (r_c + skin) = ",
                      2.0 * r_list, " (r_c = ", max_rcut(), ", skin = ", skin,
                      ") for the minimum-image convention");
  const auto& pd = particles;
  if (pd.n_local == 0) throw_input_error("N = 0 is invalid: the system needs at least one particle");
  std::vector<uint32_t> tags(pd.tag.begin(), pd.tag.begin() + static_cast<std::ptrdiff_t>(pd.n_local));
  std::sort(tags.begin(), tags.end());
  if (std::adjacent_find(tags.begin(), tags.end()) != tags.end())
    throw_input_error("particle tags must be unique; tag ",
                      *std::adjacent_find(tags.begin(), tags.end()), " appears twice");
  for (std::size_t i = 0; i < pd.n_local; ++i) {
    if (pd.type[i] >= ntypes())
      throw_input_error("particle ", pd.tag[i], " has type ", pd.type[i], " but only ", ntypes(),
                        " types exist");
    const auto& r = pd.position[i];
    const auto& v = pd.velocity[i];
    if (!std::isfinite(r.x) || !std::isfinite(r.y) || !std::isfinite(r.z) || !std::isfinite(v.x) ||
        !std::isfinite(v.y) || !std::isfinite(v.z))
      throw_input_error("particle ", pd.tag[i], " has a non-finite position or velocity");
  }
  // Bonded forces find particles by tag (make_bonded_lists): unique tags,
  // all below N, are exactly 0 .. N-1.
  const uint64_t n_tags = tag_count ? tag_count : pd.n_local;
  if ((!topology.empty() || polymerization.enabled()) && tags.back() >= n_tags)
    throw_input_error("particle tag ", tags.back(),
                      " is out of range for a system with a topology: its tags must be 0 .. N-1 = ", n_tags - 1);
  if (pd.rotational) validate_orientations(pd);
  if (wall.active()) validate_wall(*this);
  if (shear_rate != 0.0) validate_shear(*this);  // NaN too
  topology.validate(n_tags);
  if (mdscf.enabled()) mdscf.validate(box, ntypes());
  if (polymerization.enabled()) polymerization.validate(box, ntypes(), topology, pd);
}

void DpdFluidParams::validate() const {
  require_positive("rho", rho);
  require_finite("a", a);
  require_non_negative("gamma", gamma);
  require_positive("kT", kT);
  require_positive("r_c", rcut);
  require_positive("s", s);
  require_positive("mass", mass);
  if (types < 1 || types > 64) throw_input_error("types = ", types, " is invalid: allowed 1 .. 64");
  require_finite("shear_rate", shear_rate);
  const bool explicit_box = lx > 0.0 || ly > 0.0 || lz > 0.0;
  if (explicit_box) {
    require_positive("Lx", lx);
    require_positive("Ly", ly);
    require_positive("Lz", lz);
    // llround in make_dpd_fluid must not overflow, and tags are 32-bit.
    const double n_box = std::round(rho * lx * ly * lz);
    if (!(n_box <= 4294967295.0))
      throw_input_error("rho * V = ", n_box, " particles is too many: tags are 32-bit (N < 2^32)");
  } else if (n == 0) {
    throw_input_error("N = 0 is invalid: give N >= 1 or the box lengths");
  }
  if (n > 0xffffffffull) throw_input_error("N = ", n, " is too large: tags are 32-bit (N < 2^32)");
}

System make_dpd_fluid(const DpdFluidParams& p) {
  uint64_t n = 0;
  System sys = dpd_fluid_parameters(p, n);
  sys.particles.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    sys.particles.tag[i] = static_cast<uint32_t>(i);
    sys.particles.type[i] = static_cast<uint32_t>(i % p.types);
    sys.particles.image[i] = {0, 0, 0};
    sys.particles.force[i] = {0.0, 0.0, 0.0};
  }
  place_uniform_random(sys, p.seed);
  draw_maxwell_boltzmann(sys, p.kT, p.seed);
  for (uint64_t i = 0; i < n && p.shear_rate != 0.0; ++i)
    sys.particles.velocity[i].x += p.shear_rate * sys.particles.position[i].z;
  return sys;
}

System dpd_fluid_parameters(const DpdFluidParams& p, uint64_t& n_out) {
  p.validate();
  System sys;
  double lx = p.lx, ly = p.ly, lz = p.lz;
  uint64_t n = p.n;
  if (lx > 0.0) {
    // The box is given: the density fixes N (rounded to the nearest integer).
    n = static_cast<uint64_t>(std::llround(p.rho * lx * ly * lz));
    if (n == 0) throw_input_error("rho * V = ", p.rho * lx * ly * lz, " rounds to N = 0 particles");
  } else {
    lx = ly = lz = std::cbrt(static_cast<double>(n) / p.rho);
  }
  sys.box = Box(lx, ly, lz);
  sys.kT = p.kT;
  // `types` copies of one bead type, every pair with the same parameters:
  // the physics of one type, the memory traffic and divergence of many.
  sys.type_names.clear();
  for (uint32_t t = 0; t < p.types; ++t)
    sys.type_names.push_back(p.types == 1 ? std::string("A") : "A" + std::to_string(t));
  sys.type_mass.assign(p.types, p.mass);
  // One entry for every pair: the random amplitude of kT, sigma = sqrt(2 gamma kT).
  sys.set_pair_style<physics::DpdPairParams>(p.types, physics::dpd_pair_params(p.a, p.gamma, p.kT, p.rcut, p.s));
  sys.shear_rate = p.shear_rate;
  n_out = n;
  return sys;
}

double LjLiquidParams::density() const {
  return packing_fraction > 0.0 ? 6.0 * packing_fraction / (std::numbers::pi * sigma * sigma * sigma) : rho;
}

void LjLiquidParams::validate() const {
  if (n == 0) throw_input_error("N = 0 is invalid: the liquid needs at least one particle");
  if (n > 0xffffffffull) throw_input_error("N = ", n, " is too large: tags are 32-bit (N < 2^32)");
  require_non_negative("packing fraction", packing_fraction);
  if (packing_fraction == 0.0) require_positive("rho", rho);
  require_positive("kT", kT);
  require_positive("mass", mass);
  physics::LjPairParams{epsilon, sigma, alpha, rcut, ron, mode}.check();
  const double l = std::cbrt(static_cast<double>(n) / density());
  const auto m = static_cast<uint64_t>(std::ceil(std::cbrt(static_cast<double>(n)) - 1e-9));
  if (l / static_cast<double>(m) < 0.9 * sigma)
    throw_input_error("rho = ", density(), " is too dense for the lattice start: spacing ",
                      l / static_cast<double>(m), " < 0.9 sigma");
}

System lj_liquid_parameters(const LjLiquidParams& p) {
  p.validate();
  System sys;
  sys.box = Box(std::cbrt(static_cast<double>(p.n) / p.density()));
  sys.kT = p.kT;
  sys.type_names = {"A"};
  sys.type_mass = {p.mass};
  sys.set_pair_style<physics::LjPairParams>(1, {p.epsilon, p.sigma, p.alpha, p.rcut, p.ron, p.mode});
  return sys;
}

System make_lj_liquid(const LjLiquidParams& p) {
  System sys = lj_liquid_parameters(p);
  Domain whole;
  whole.global = sys.box;
  sys.particles = place_lattice(p.n, sys.box, whole);
  draw_maxwell_boltzmann(sys, p.kT, p.seed);
  return sys;
}

}  // namespace meso
