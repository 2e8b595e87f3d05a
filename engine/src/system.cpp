#include "meso/system.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "meso/error.hpp"
#include "meso/init.hpp"

namespace meso {

double System::max_rcut() const {
  double rc = 0.0;
  for (const auto& p : dpd.data()) rc = std::max(rc, p.rcut);
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
}

void DpdFluidParams::validate() const {
  require_positive("rho", rho);
  require_finite("a", a);
  require_non_negative("gamma", gamma);
  require_positive("kT", kT);
  require_positive("r_c", rcut);
  require_positive("s", s);
  require_positive("mass", mass);
  const bool explicit_box = lx > 0.0 || ly > 0.0 || lz > 0.0;
  if (explicit_box) {
    require_positive("Lx", lx);
    require_positive("Ly", ly);
    require_positive("Lz", lz);
  } else if (n == 0) {
    throw_input_error("N = 0 is invalid: give N >= 1 or the box lengths");
  }
  if (n > 0xffffffffull) throw_input_error("N = ", n, " is too large: tags are 32-bit (N < 2^32)");
}

System make_dpd_fluid(const DpdFluidParams& p) {
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
  sys.type_names = {"A"};
  sys.type_mass = {p.mass};
  sys.dpd = PairTable<physics::DpdPairParams>(1);
  sys.dpd.set(0, 0, {p.a, p.gamma, std::sqrt(2.0 * p.gamma * p.kT), p.rcut, p.s});
  sys.particles.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    sys.particles.tag[i] = static_cast<uint32_t>(i);
    sys.particles.type[i] = 0;
    sys.particles.image[i] = {0, 0, 0};
    sys.particles.force[i] = {0.0, 0.0, 0.0};
  }
  place_uniform_random(sys, p.seed);
  draw_maxwell_boltzmann(sys, p.kT, p.seed);
  return sys;
}

}  // namespace meso
