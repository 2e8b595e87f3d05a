#include "meso/system.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "meso/error.hpp"
#include "meso/gay_berne_liquid.hpp"
#include "meso/init.hpp"

namespace meso {

const char* to_string(PairStyle s) {
  switch (s) {
    case PairStyle::dpd: return "dpd";
    case PairStyle::lj: return "lj";
    case PairStyle::table: return "table";
    case PairStyle::gay_berne: return "gay_berne";
    case PairStyle::ssd: return "ssd";
    case PairStyle::janus: return "janus";
    case PairStyle::none: return "none";
  }
  return "?";
}

PairStyle parse_pair_style(const std::string& name) {
  if (name == "dpd") return PairStyle::dpd;
  if (name == "lj") return PairStyle::lj;
  if (name == "table") return PairStyle::table;
  if (name == "gay_berne") return PairStyle::gay_berne;
  if (name == "ssd") return PairStyle::ssd;
  if (name == "janus") return PairStyle::janus;
  if (name == "none") return PairStyle::none;
  throw_input_error("pair style '", name, "' is unknown: allowed values are dpd, lj, table, gay_berne, ssd, janus, none");
}

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

void validate_lj(const physics::LjPairParams& p) {
  require_positive("LJ r_cut", p.rcut);
  require_non_negative("LJ epsilon", p.epsilon);
  require_positive("LJ sigma", p.sigma);
  require_finite("LJ alpha", p.alpha);
  require_non_negative("LJ r_on", p.ron);
  const int mode = static_cast<int>(p.mode);
  if (mode < 0 || mode > 2) throw_input_error("LJ mode = ", mode, " is invalid: allowed 0 (none), 1 (shift), 2 (xplor)");
  if (p.mode == physics::LjMode::xplor && p.ron > p.rcut)
    throw_input_error("LJ r_on = ", p.ron, " is invalid for mode xplor: it must be <= r_cut = ", p.rcut,
                      " (use mode shift for a plain energy shift)");
}

void validate_janus(const physics::JanusParams& p) {
  using physics::SoftShape;
  const int shape = static_cast<int>(p.shape);
  if (shape < 0 || shape > 3)
    throw_input_error("soft anisotropic shape = ", shape, " is invalid: allowed janus, triblock, disk, rod");
  require_non_negative("Janus a^R", p.a_rep);
  require_positive("Janus nu", p.nu);
  require_positive("Janus r_cut", p.rcut);
  if (p.shape == SoftShape::disk || p.shape == SoftShape::rod) {
    // 1 - mu f^nu >= 0 for every f in [0, 1]: the repulsion stays a repulsion.
    if (!(p.mu >= 0.0 && p.mu <= 1.0))
      throw_input_error("mu = ", p.mu, " is invalid for the ", to_string(p.shape), ": allowed 0 .. 1");
    return;
  }
  require_non_negative("Janus a^A", p.a_att);
  const double half_pi = 0.5 * std::acos(-1.0);
  if (!(p.theta_m > 0.0 && p.theta_m <= (p.two_patches() ? half_pi : 2.0 * half_pi)))
    throw_input_error("Janus theta_m = ", p.theta_m * 90.0 / half_pi, " degrees is invalid: it must lie in (0, ",
                      p.two_patches() ? 90 : 180, "] (", p.two_patches() ? "a triblock's two patches" : "one patch",
                      ")");
}

void validate_ssd(const physics::SsdParams& p) {
  require_non_negative("SSD epsilon", p.epsilon);
  require_positive("SSD sigma", p.sigma);
  require_finite("SSD mu", p.mu);
  require_finite("SSD v0", p.v0);
  require_finite("SSD w0", p.w0);
  require_positive("SSD eps_rf", p.eps_rf);
  if (!(0.0 < p.rl && p.rl < p.ru) || !(0.0 < p.rlp && p.rlp < p.rup))
    throw_input_error("SSD sticky switches (r_l, r_u) = (", p.rl, ", ", p.ru, ") and (", p.rlp, ", ", p.rup,
                        ") must satisfy 0 < r_l < r_u");
  if (p.switch_order != 3 && p.switch_order != 5)
    throw_input_error("SSD switch order ", p.switch_order, " is invalid: 3 (cubic, as published) or 5 (quintic)");
  if (!(p.rsw > 0.0 && p.rsw < p.rcut) || p.ru > p.rcut || p.rup > p.rcut)
    throw_input_error("SSD cutoffs r_sw = ", p.rsw, ", r_c = ", p.rcut,
                      " must satisfy 0 < r_sw < r_c, with the sticky switches inside r_c");
}

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

}  // namespace

// Declared with the GB liquid (meso/gay_berne_liquid.hpp), defined here
// beside the other checks of a System's parameters.
void validate_gay_berne(const physics::GayBerneParams& p) {
  require_non_negative("Gay-Berne epsilon", p.epsilon);
  require_positive("Gay-Berne sigma", p.sigma);
  require_positive("Gay-Berne kappa", p.kappa);
  require_positive("Gay-Berne kappa'", p.kappa_prime);
  require_positive("Gay-Berne mu", p.mu);
  require_non_negative("Gay-Berne nu", p.nu);
  // The shifted energy is evaluated at r_cut for every orientation: r_cut
  // must lie beyond the longest contact distance, max(kappa, 1) sigma0.
  const double contact = std::max(p.kappa, 1.0) * p.sigma;
  if (!(p.rcut > contact))
    throw_input_error("Gay-Berne r_cut = ", p.rcut, " is invalid: it must exceed the end-to-end contact ",
                      "max(kappa, 1) sigma = ", contact);
}

double System::max_rcut() const {
  double rc = 0.0;
  if (pair_style == PairStyle::none) return 0.0;
  if (pair_style == PairStyle::lj) {
    for (const auto& p : lj.data()) rc = std::max(rc, p.rcut);
  } else if (pair_style == PairStyle::gay_berne) {
    for (const auto& p : gay_berne.data()) rc = std::max(rc, p.rcut);
  } else if (pair_style == PairStyle::ssd) {
    for (const auto& p : ssd.data()) rc = std::max(rc, p.rcut);
  } else if (pair_style == PairStyle::janus) {
    for (const auto& p : janus.data()) rc = std::max(rc, p.rcut);
  } else if (pair_style == PairStyle::table) {
    for (int32_t k : table_of.data())
      if (k >= 0 && std::size_t(k) < tables.size()) rc = std::max(rc, tables[k].r_max);
  } else {
    for (const auto& p : dpd.data()) rc = std::max(rc, p.rcut);
  }
  return rc;
}

void System::validate(double skin) const {
  const Vec3d L = box.lengths();
  require_positive("box Lx", L.x);
  require_positive("box Ly", L.y);
  require_positive("box Lz", L.z);
  require_positive("kT", kT);
  if (type_mass.size() != ntypes())
    throw_input_error("type_mass has ", type_mass.size(), " entries but there are ", ntypes(), " types");
  for (double m : type_mass) require_positive("mass", m);
  if (pair_style != PairStyle::dpd && pair_style != PairStyle::lj && pair_style != PairStyle::table &&
      pair_style != PairStyle::gay_berne && pair_style != PairStyle::ssd && pair_style != PairStyle::janus &&
      pair_style != PairStyle::none)
    throw_input_error("pair style = ", static_cast<int>(pair_style),
                      " is invalid: allowed dpd, lj, table, gay_berne, ssd, janus, none");
  if (pair_style == PairStyle::none) {
    // no pair table to check
  } else if (pair_style == PairStyle::gay_berne) {
    if (gay_berne.ntypes() != ntypes())
      throw_input_error("Gay-Berne parameter table is ", gay_berne.ntypes(), "x", gay_berne.ntypes(),
                        " but there are ", ntypes(), " types");
    for (const auto& p : gay_berne.data()) validate_gay_berne(p);
    if (!particles.rotational)
      throw_input_error("pair style gay_berne needs orientational particles (orientations, moments of "
                        "inertia): the system has none");
  } else if (pair_style == PairStyle::ssd) {
    if (ssd.ntypes() != ntypes())
      throw_input_error("SSD parameter table is ", ssd.ntypes(), "x", ssd.ntypes(), " but there are ", ntypes(),
                        " types");
    for (const auto& p : ssd.data()) validate_ssd(p);
    if (!particles.rotational)
      throw_input_error("pair style ssd needs orientational particles (orientations, moments of inertia): the "
                        "system has none");
  } else if (pair_style == PairStyle::janus) {
    if (janus.ntypes() != ntypes())
      throw_input_error("Janus parameter table is ", janus.ntypes(), "x", janus.ntypes(), " but there are ",
                        ntypes(), " types");
    for (const auto& p : janus.data()) validate_janus(p);
    if (!particles.rotational)
      throw_input_error("pair style janus needs orientational particles (orientations, moments of inertia): "
                        "the system has none");
  } else if (pair_style == PairStyle::table) {
    if (table_of.ntypes() != ntypes())
      throw_input_error("pair table map is ", table_of.ntypes(), "x", table_of.ntypes(), " but there are ",
                        ntypes(), " types");
    for (uint32_t a = 0; a < ntypes(); ++a)
      for (uint32_t b = a; b < ntypes(); ++b) {
        const int32_t k = table_of(a, b);
        if (k < -1 || k >= static_cast<int32_t>(tables.size()))
          throw_input_error("pair table of types ", type_names[a], "-", type_names[b], " is ", k, ": there are ",
                            tables.size(), " tables (-1: no interaction)");
      }
    for (const PairPotentialTable& t : tables)
      if (t.intervals < 1 || t.coeff.size() != 4 * std::size_t(t.intervals) || !(t.dz > 0.0) || !(t.z_min > 0.0))
        throw_input_error("pair table ", t.name, " is malformed (", t.intervals, " intervals, ", t.coeff.size(),
                          " coefficients)");
  } else if (pair_style == PairStyle::dpd) {
    if (dpd.ntypes() != ntypes())
      throw_input_error("DPD parameter table is ", dpd.ntypes(), "x", dpd.ntypes(), " but there are ",
                        ntypes(), " types");
    for (const auto& p : dpd.data()) {
      require_positive("r_c", p.rcut);
      require_finite("a", p.a);
      require_non_negative("gamma", p.gamma);
      require_non_negative("sigma", p.sigma);
      require_positive("s", p.s);
    }
  } else {
    if (lj.ntypes() != ntypes())
      throw_input_error("LJ parameter table is ", lj.ntypes(), "x", lj.ntypes(), " but there are ",
                        ntypes(), " types");
    for (const auto& p : lj.data()) validate_lj(p);
  }
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
  if ((!topology.empty() || polymerization.enabled()) && tags.back() >= pd.n_local)
    throw_input_error("particle tag ", tags.back(),
                      " is out of range for a system with a topology: its tags must be 0 .. N-1 = ",
                      pd.n_local - 1);
  if (pd.rotational) validate_orientations(pd);
  topology.validate(pd.n_local);
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
  sys.dpd = PairTable<physics::DpdPairParams>(p.types);
  for (uint32_t a = 0; a < p.types; ++a)
    for (uint32_t b = a; b < p.types; ++b)
      sys.dpd.set(a, b, {p.a, p.gamma, std::sqrt(2.0 * p.gamma * p.kT), p.rcut, p.s});
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
  validate_lj({epsilon, sigma, alpha, rcut, ron, mode});
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
  sys.pair_style = PairStyle::lj;
  sys.type_names = {"A"};
  sys.type_mass = {p.mass};
  sys.lj = PairTable<physics::LjPairParams>(1);
  sys.lj.set(0, 0, {p.epsilon, p.sigma, p.alpha, p.rcut, p.ron, p.mode});
  // Keep the unused DPD table consistent in size (ntypes x ntypes).
  sys.dpd = PairTable<physics::DpdPairParams>(1);
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
