#include "meso/core/mpcd.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "meso/core/error.hpp"
#include "meso/core/init.hpp"
#include "meso/core/system.hpp"

namespace meso {

const char* to_string(MpcdRule r) { return r == MpcdRule::at ? "at" : "srd"; }

MpcdRule parse_mpcd_rule(const std::string& name) {
  if (name == "srd") return MpcdRule::srd;
  if (name == "at") return MpcdRule::at;
  throw_input_error("MPCD collision rule '", name, "' is unknown: allowed values are srd, at");
}

void MpcdParams::validate() const {
  require_positive("MPCD cell size a", cell_size);
  require_positive("MPCD mass", mass);
  require_positive("MPCD kT", kT);
  require_positive("MPCD collision period dt", dt);
  if (!(angle_deg > 0.0 && angle_deg < 180.0))
    throw_input_error("SRD angle = ", angle_deg, " deg is invalid: it must be in (0, 180)");
  if (thermostat && rule == MpcdRule::at)
    throw_input_error("the MPCD cell thermostat is for the srd rule; the at rule thermostats itself");
  if (wall.h != 0.0) {
    require_positive("MPCD slit wall h", wall.h);
    if (!std::isfinite(wall.speed))
      throw_input_error("MPCD slit wall speed = ", wall.speed, " is not finite");
    if (wall.virtual_particles && !(wall.density >= 1.0 && wall.density <= 1.0e6))
      throw_input_error("MPCD slit wall density = ", wall.density,
                        " is invalid: the virtual particles fill a cut cell to it, in [1, 1e6]");
    if (rule != MpcdRule::srd) throw_input_error("MPCD slit walls need the srd rule (the at rule has no virtual particles yet)");
    if (body_force.g.z != 0.0)
      throw_input_error("MPCD body force g_z = ", body_force.g.z,
                        " with slit walls normal to z: drive the flow along x or y");
  }
  if (shear.rate != 0.0) {
    if (!std::isfinite(shear.rate)) throw_input_error("MPCD shear_rate = ", shear.rate, " is not finite");
    if (wall.h != 0.0)
      throw_input_error("MPCD shear_rate = ", shear.rate,
                        " with slit walls: Lees-Edwards images replace the walls along z (shear the "
                        "slit with wall_speed)");
    if (rule != MpcdRule::srd)
      throw_input_error("MPCD shear_rate = ", shear.rate, " needs the srd rule (the at rule is not sheared yet)");
    if (embed_types != 0)
      throw_input_error("MPCD shear_rate = ", shear.rate, " with embed_types = ", embed_types,
                        ": embedded solutes do not cross the sheared faces yet");
  }
}

void require_embeddable(const Box& solvent_box, const MpcdParams& params, const System& md,
                        const char* op) {
  if (params.embed_types == 0) return;
  if (md.particles.n_local == 0)
    throw_input_error("operation '", op, "': MPCD embed_types = ", params.embed_types,
                      " needs an MD system with particles (set_system first)");
  const uint32_t nt = md.ntypes();
  if (nt < 32 && (params.embed_types >> nt) != 0)
    throw_input_error("MPCD embed_types = ", params.embed_types, " names a type beyond the MD system's ",
                      nt, " types");
  const Vec3d a = solvent_box.lengths(), b = md.box.lengths(), la = solvent_box.lo(), lb = md.box.lo();
  const auto close = [](double x, double y) { return std::fabs(x - y) <= 1e-12 * std::max(std::fabs(x), 1.0); };
  if (!(close(a.x, b.x) && close(a.y, b.y) && close(a.z, b.z) && close(la.x, lb.x) && close(la.y, lb.y) &&
        close(la.z, lb.z)))
    throw_input_error("MPCD solvent box ", a.x, " x ", a.y, " x ", a.z, " and MD box ", b.x, " x ", b.y,
                      " x ", b.z, " differ: embedded particles must share the solvent's box");
  // Solutes between the solvent's slit walls reflect there in the MD drift
  // (System::wall, integrate_verlet): the MD system must carry the same
  // walls, with the same speed and rule, so that no solute crosses one.
  const physics::SlitWall& w = params.wall;
  if (w.active()) {
    const physics::DpdWall& m = md.wall;
    if (!m.active())
      throw_input_error("operation '", op, "': MPCD slit walls at z = +-", w.h, " with embed_types = ",
                        params.embed_types, " need the MD system's walls too (System::wall = "
                        "physics::reflecting_wall(params.wall)), or the solutes cross them");
    if (!(close(m.h, w.h) && m.speed == w.speed && m.bounce_back == w.bounce_back))
      throw_input_error("operation '", op, "': the MD system's walls (h = ", m.h, ", speed ", m.speed,
                        ", bounce-back ", m.bounce_back, ") differ from the MPCD slit's (h = ", w.h, ", speed ",
                        w.speed, ", bounce-back ", w.bounce_back, ")");
  }
}

void MpcdParticles::resize(std::size_t n) {
  position.resize(n);
  velocity.resize(n);
  type.resize(n);
  tag.resize(n);
  image.resize(n);
}

physics::MpcdGrid MpcdSystem::grid() const {
  const Vec3d L = box.lengths(), lo = box.lo();
  const double a = params.cell_size;
  return {int(std::lround(L.x / a)), int(std::lround(L.y / a)), int(std::lround(L.z / a)), a,
          lo.x, lo.y, lo.z};
}

void MpcdSystem::validate() const {
  params.validate();
  const Vec3d L = box.lengths();
  const double a = params.cell_size;
  for (const double l : {L.x, L.y, L.z}) {
    const double cells = l / a;
    if (!(std::fabs(cells - std::round(cells)) <= 1e-9 * cells))
      throw_input_error("box length ", l, " is not a whole number of MPCD cells of a = ", a);
    if (std::round(cells) < 2.0)
      throw_input_error("box length ", l, " holds fewer than 2 MPCD cells of a = ", a);
  }
  if (params.wall.active()) {
    // A padding of a / 2 or more beyond each wall: a shifted cell that wraps
    // across the box face then holds fluid of one side only.
    if (!(L.z - 2.0 * params.wall.h >= a * (1.0 - 1e-9)))
      throw_input_error("MPCD slit walls at z = +-", params.wall.h, " need a box at least one cell taller: L_z = ",
                        L.z, " < ", 2.0 * params.wall.h + a);
    if (!(2.0 * params.wall.h >= 2.0 * a * (1.0 - 1e-9)))
      throw_input_error("MPCD slit of height ", 2.0 * params.wall.h, " is below 2 cells of a = ", a);
  }
  const std::size_t n = particles.size();
  if (particles.velocity.size() != n || particles.type.size() != n || particles.tag.size() != n ||
      particles.image.size() != n)
    throw_input_error("MPCD particle arrays differ in length");
  const Vec3d lo = box.lo();
  std::unordered_set<uint32_t> tags;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3d r = particles.position[i], v = particles.velocity[i];
    const bool inside = r.x >= lo.x && r.x < lo.x + L.x && r.y >= lo.y && r.y < lo.y + L.y &&
                        r.z >= lo.z && r.z < lo.z + L.z;
    if (!inside)
      throw_input_error("MPCD particle ", particles.tag[i], " at (", r.x, ", ", r.y, ", ", r.z,
                        ") is outside the box (or not finite)");
    if (!(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z)))
      throw_input_error("MPCD particle ", particles.tag[i], " has a non-finite velocity");
    // 1e-6 relative: fp32 storage rounds z by up to 6e-8 relative.
    if (params.wall.active() && !(std::fabs(r.z) <= params.wall.h * (1.0 + 1e-6)))
      throw_input_error("MPCD particle ", particles.tag[i], " at z = ", r.z, " is outside the slit walls at +-",
                        params.wall.h);
    if (!tags.insert(particles.tag[i]).second)
      throw_input_error("MPCD tag ", particles.tag[i], " is not unique");
  }
}

MpcdSystem srd_fluid_parameters(const SrdFluidParams& f, const MpcdParams& params, uint64_t& n) {
  params.validate();
  require_positive("SRD box edge L", f.L);
  require_positive("SRD density rho", f.rho);
  const double n_real = f.rho * f.L * f.L * f.L;
  if (n_real > 4.0e9) throw_input_error("SRD fluid of ", n_real, " particles is too large");
  n = static_cast<uint64_t>(std::llround(n_real));
  MpcdSystem s;
  s.box = Box(f.L * params.cell_size);
  s.params = params;
  return s;
}

namespace {

// n particles of mass m uniform in `region` (centred on the origin) with
// Maxwell-Boltzmann velocities, the net momentum removed exactly and the
// kinetic temperature set to kT: the MD initial-state draws (init.hpp) on a
// one-type System, as the solvent of the box `box` (which holds `region`).
MpcdSystem draw_solvent(const Box& region, const Box& box, std::size_t n, const MpcdParams& params,
                        uint64_t seed) {
  System tmp;
  tmp.box = region;
  tmp.type_names = {"S"};
  tmp.type_mass = {params.mass};
  tmp.particles.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    tmp.particles.tag[i] = static_cast<uint32_t>(i);
    tmp.particles.type[i] = 0;
  }
  place_uniform_random(tmp, seed);
  draw_maxwell_boltzmann(tmp, params.kT, seed);
  MpcdSystem s;
  s.box = box;
  s.params = params;
  s.particles.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    s.particles.position[i] = tmp.particles.position[i];
    s.particles.velocity[i] = tmp.particles.velocity[i];
    s.particles.type[i] = 0;
    s.particles.tag[i] = tmp.particles.tag[i];
    s.particles.image[i] = {0, 0, 0};
  }
  return s;
}

}  // namespace

MpcdSystem make_srd_slit(const SrdSlitParams& f, const MpcdParams& params) {
  require_positive("SRD slit lx", f.lx);
  require_positive("SRD slit ly", f.ly);
  require_positive("SRD slit height", f.height);
  require_positive("SRD density rho", f.rho);
  const double a = params.cell_size;
  const double n_real = f.rho * f.lx * f.ly * f.height;
  if (n_real > 4.0e9) throw_input_error("SRD slit of ", n_real, " particles is too large");
  MpcdParams prm = params;
  prm.wall.h = 0.5 * f.height * a;
  prm.validate();
  const Box slit(f.lx * a, f.ly * a, f.height * a), box(f.lx * a, f.ly * a, (f.height + 2.0) * a);
  MpcdSystem s = draw_solvent(slit, box, static_cast<std::size_t>(std::llround(n_real)), prm, f.seed);
  s.validate();
  return s;
}

MpcdSystem make_srd_fluid(const SrdFluidParams& f, const MpcdParams& params) {
  uint64_t count = 0;
  MpcdSystem shell = srd_fluid_parameters(f, params, count);
  const auto n = static_cast<std::size_t>(count);
  // The MD initial-state draws (init.hpp) on a one-type System of mass m:
  // uniform positions, Maxwell-Boltzmann velocities with the net momentum
  // removed exactly and the kinetic temperature set to kT.
  MpcdSystem s = draw_solvent(shell.box, shell.box, n, params, f.seed);
  // Valid by construction (wrapped positions, tags 0..N-1); the backend's
  // set_mpcd validates what it loads, so no O(N) check here.
  return s;
}

namespace {

// Neumaier's compensated sum: the error of the total is ~eps |total| instead
// of the ~eps N |term| of a plain running sum. The gates of srd-momentum
// bound conservation errors of ~eps sqrt(N K) m v_th; a plain sum of 1.25M
// momenta alone carries errors of that size (found when the long form's
// fp64 gate failed by 1.5x with a plain sum).
struct CompensatedSum {
  double sum = 0.0, c = 0.0;
  void add(double x) {
    const double t = sum + x;
    c += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  double value() const { return sum + c; }
};

}  // namespace

MpcdThermo mpcd_thermo(const MpcdParticles& p, double mass, uint64_t step) {
  MpcdThermo t;
  t.step = step;
  CompensatedSum px, py, pz, twice;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec3d& v = p.velocity[i];
    px.add(mass * v.x);
    py.add(mass * v.y);
    pz.add(mass * v.z);
    twice.add(mass * dot(v, v));
  }
  t.momentum = {px.value(), py.value(), pz.value()};
  t.kinetic_energy = 0.5 * twice.value();
  const double dof = p.size() > 1 ? 3.0 * double(p.size()) - 3.0 : 3.0;
  t.temperature = twice.value() / dof;
  return t;
}

ThermoSample thermo_sample(const MpcdThermo& t) {
  ThermoSample s;
  s.step = t.step;
  s.kinetic_energy = t.kinetic_energy;
  s.temperature = t.temperature;
  s.momentum = t.momentum;
  return s;
}

}  // namespace meso

namespace meso {

CellRange mpcd_touched_cells(const physics::MpcdGrid& g, const Domain& d, const Vec3d& shift) {
  CellRange r;
  for (int a = 0; a < 3; ++a) {
    const int n = a == 0 ? g.nx : a == 1 ? g.ny : g.nz;
    r.n[a] = n;
    if (d.grid[a] == 1) {
      r.first[a] = 0;
      r.count[a] = n;
      continue;
    }
    auto axis = [a](const Vec3d& v) { return a == 0 ? v.x : a == 1 ? v.y : v.z; };
    const double box_lo = axis({g.lo_x, g.lo_y, g.lo_z}), s = axis(shift);
    // MpcdGrid::cell_of's expression: monotone in x under rounding, so every
    // x in [lo, hi) falls in [cell(lo), cell(hi)].
    const int first = int(std::floor((axis(d.lo) - box_lo - s) / g.a));
    const int last = int(std::floor((axis(d.hi) - box_lo - s) / g.a));
    r.first[a] = ((first % n) + n) % n;
    r.count[a] = std::min(last - first + 1, n);
  }
  return r;
}

}  // namespace meso
