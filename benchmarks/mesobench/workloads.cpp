#include "workloads.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "meso/error.hpp"
#include "memory_estimate.hpp"

namespace meso::bench {
namespace {

std::string fmt(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

// Tang & Karniadakis' DPD benchmark fluid (REFERENCES.md; DESIGN.md section 7):
// a = 25, gamma = 4.5, kT = 1, s = 0.5, dt = 0.005.
BenchCase dpd_fluid(double rho, double rc, uint64_t n, bool in_default) {
  BenchCase c;
  c.workload = "dpd-fluid";
  c.kernel = "step";
  c.fluid.rho = rho;
  c.fluid.a = 25.0;
  c.fluid.gamma = 4.5;
  c.fluid.kT = 1.0;
  c.fluid.rcut = rc;
  c.fluid.s = 0.5;
  c.fluid.n = n;
  c.fluid.seed = 12345;
  c.run.dt = 0.005;
  c.run.skin = 0.3;
  c.run.rebuild_every = 0;  // displacement-triggered: never misses a pair
  c.in_default_suite = in_default;
  return c;
}

// HOOMD-blue's LJ liquid benchmark (REFERENCES.md; DESIGN.md section 7):
// N = 64000, packing fraction 0.20 (rho = 6 phi / pi = 0.382), r_cut = 3.0,
// kT = 1.2, dt = 0.005, NVT (Nose-Hoover, tau = 0.5), shifted potential.
// The skin 0.4 with displacement-triggered rebuilds is HOOMD's benchmark
// choice (r_buff = 0.4).
BenchCase lj_liquid(uint64_t n, bool in_default) {
  BenchCase c;
  c.workload = "lj-liquid";
  c.kernel = "step";
  c.style = PairStyle::lj;
  c.lj.n = n;
  c.lj.packing_fraction = 0.20;
  c.lj.kT = 1.2;
  c.lj.rcut = 3.0;
  c.lj.mode = physics::LjMode::shift;
  c.lj.seed = 12345;
  c.run.dt = 0.005;
  c.run.skin = 0.4;
  c.run.rebuild_every = 0;
  c.run.integrator = Integrator::nvt;
  c.run.kT = 1.2;
  c.run.tau = 0.5;
  c.in_default_suite = in_default;
  return c;
}

// Howard et al.'s SRD benchmark solvent (REFERENCES.md; DESIGN.md section 7):
// a = 1, m = 1, kT = 1, alpha = 130 deg, dt_c = 0.1, rho = 10, grid shift;
// L = 50 (1.25M particles, one GPU of their weak scaling) and L = 100. Sorting
// every 25 collisions is the variant reorder=cell,sort=25.
BenchCase srd_fluid(double L, bool in_default) {
  BenchCase c;
  c.workload = "srd-fluid";
  c.kernel = "collide";
  c.mpcd = true;
  c.srd.L = L;
  c.srd.rho = 10.0;
  c.srd.seed = 12345;
  c.solvent.cell_size = 1.0;
  c.solvent.mass = 1.0;
  c.solvent.kT = 1.0;
  c.solvent.angle_deg = 130.0;
  c.solvent.dt = 0.1;
  c.solvent.grid_shift = true;
  c.solvent.seed = 12345;
  c.in_default_suite = in_default;
  return c;
}

// The DPPC bilayer in water of the MD-SCF model (REFERENCES.md "DPPC /
// water"; meso/dppc.hpp has the units): 528 DPPC + 14000 W in 13 x 13 x 14
// nm at 323 K, Langevin thermostat; dt = 0.03 ps (GALAMOST's), a drag of
// 1/ps. replicate k tiles the bilayer plane k x k: k = 7 is the ~1M-bead
// system (996,464 beads; GALAMOST measured 1,048,576).
BenchCase dppc_bilayer(uint32_t replicate, bool in_default) {
  BenchCase c;
  c.workload = "mdscf-dppc";
  c.kernel = "step";
  c.style = PairStyle::none;
  c.replicate = replicate;
  c.dppc.seed = 12345;
  c.run.integrator = Integrator::langevin;
  c.run.dt = DppcUnits::from_ps(0.03);
  c.run.gamma = 1.0 * DppcUnits::time_ps();  // 1/ps in engine units (mass 1)
  c.run.kT = DppcUnits::kT(c.dppc.kelvin);
  c.run.skin = 0.0;  // no lists
  c.in_default_suite = in_default;
  return c;
}

double parse_double(const std::string& key, const std::string& v) {
  try {
    std::size_t used = 0;
    const double x = std::stod(v, &used);
    if (used == v.size()) return x;
  } catch (const std::exception&) {
  }
  throw_input_error("--param ", key, "=", v, " is invalid: expected a number");
}

uint64_t parse_uint(const std::string& key, const std::string& v) {
  uint64_t x = 0;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc{} || p != v.data() + v.size() || v.empty())
    throw_input_error("--param ", key, "=", v, " is invalid: expected a non-negative integer");
  return x;
}

// A time step in which a particle at the thermal speed sqrt(3 kT / m) moves
// more than `limit` gives a meaningless trajectory (and TPS figures for it):
// refuse it a priori, naming dt and the displacement.
void check_step_length(double dt, double kT, double mass, double limit, const char* limit_is) {
  const double speed = std::sqrt(3.0 * kT / mass);
  const double moved = speed * dt;
  if (moved > limit)
    throw_input_error("dt = ", dt, " is too large: at the thermal speed sqrt(3 kT/m) = ", speed,
                      " a particle moves ", moved, " per step, more than ", limit_is, " (", limit,
                      "); use dt <= ", limit / speed);
}

}  // namespace

uint64_t BenchCase::n() const {
  if (mpcd) return static_cast<uint64_t>(std::llround(srd.rho * srd.L * srd.L * srd.L));
  if (style == PairStyle::none) {
    const uint64_t k2 = uint64_t(replicate) * replicate;
    return k2 * (uint64_t(dppc.lipids) * 12 + dppc.waters);
  }
  if (style == PairStyle::dpd && fluid.lx > 0.0)  // a given box: the density fixes N
    return static_cast<uint64_t>(std::llround(fluid.rho * fluid.lx * fluid.ly * fluid.lz));
  return style == PairStyle::lj ? lj.n : fluid.n;
}

void BenchCase::validate() const {
  // Size first, so that a box too large is named with N and the bytes it
  // would need (the engine's own N check would name only N).
  check_fits_in_memory(*this);
  if (mpcd) {
    solvent.validate();
    require_positive("L", srd.L);
    require_positive("rho", srd.rho);
    check_step_length(solvent.dt, solvent.kT, solvent.mass, 0.5 * srd.L, "half the box");
  } else if (style == PairStyle::none) {
    if (replicate == 0) throw_input_error("--param replicate=0 is invalid: it must be >= 1");
    dppc_params().validate();
    run.validate();
    // No list to outrun; a step that moves a bead more than a tenth of the
    // grid spacing (or of a bond) resolves neither the field nor the bonds.
    check_step_length(run.dt, DppcUnits::kT(dppc.kelvin), 1.0, 0.1 * std::min(dppc.grid_spacing, 0.37),
                      "a tenth of the grid spacing or of the shortest bond");
  } else {
    if (style == PairStyle::lj)
      lj.validate();
    else
      fluid.validate();
    run.validate();
    // The displacement check rebuilds the list once a particle moved half
    // the skin; moving that far in one step already misses pairs. Without a
    // skin the list is rebuilt every step, and half the cutoff bounds a step.
    const double kT = style == PairStyle::lj ? lj.kT : fluid.kT;
    const double mass = style == PairStyle::lj ? lj.mass : fluid.mass;
    const double rc = style == PairStyle::lj ? lj.rcut : fluid.rcut;
    if (run.skin > 0.0)
      check_step_length(run.dt, kT, mass, 0.5 * run.skin, "half the neighbor-list skin");
    else
      check_step_length(run.dt, kT, mass, 0.5 * rc, "half the cutoff (skin = 0)");
  }
}

DppcBilayerParams BenchCase::dppc_params() const {
  DppcBilayerParams p = dppc;
  p.lipids *= replicate * replicate;
  p.waters *= uint64_t(replicate) * replicate;
  p.lx *= replicate;
  p.ly *= replicate;
  return p;
}

System BenchCase::make_system() const {
  if (style == PairStyle::none) return make_dppc_bilayer(dppc_params());
  return style == PairStyle::lj ? make_lj_liquid(lj) : make_dpd_fluid(fluid);
}

std::string BenchCase::name(const std::string& backend, const std::string& variant) const {
  std::ostringstream os;
  if (mpcd) {
    os << workload << '/' << kernel << '/' << backend << '/' << variant << "/rule=" << to_string(solvent.rule)
       << "/rho=" << fmt(srd.rho) << "/L=" << fmt(srd.L);
    return os.str();
  }
  if (style == PairStyle::none) {
    const DppcBilayerParams p = dppc_params();
    uint32_t nx = 0, ny = 0, nz = 0;
    MdscfField::grid_for(Box(p.lx, p.ly, p.lz), p.grid_spacing, nx, ny, nz);
    os << workload << '/' << kernel << '/' << backend << '/' << variant << "/lipids=" << p.lipids
       << "/W=" << p.waters << "/grid=" << nx << 'x' << ny << 'x' << nz << "/update=" << p.update_every;
    if (!p.grid_shift) os << "/shift=0";
    return os.str();
  }
  if (style == PairStyle::lj) {
    os << workload << '/' << kernel << '/' << backend << '/' << variant;
    if (lj.packing_fraction > 0.0)
      os << "/phi=" << fmt(lj.packing_fraction);
    else
      os << "/rho=" << fmt(lj.rho);
    os << "/rc=" << fmt(lj.rcut) << "/N=" << lj.n;
    return os.str();
  }
  os << workload << '/' << kernel << '/' << backend << '/' << variant << "/rho=" << fmt(fluid.rho)
     << "/rc=" << fmt(fluid.rcut) << "/s=" << fmt(fluid.s);
  if (fluid.lx > 0.0)
    os << "/L=" << fmt(fluid.lx) << 'x' << fmt(fluid.ly) << 'x' << fmt(fluid.lz);
  else
    os << "/N=" << fluid.n;
  if (fluid.types > 1) os << "/types=" << fluid.types;
  return os.str();
}

const std::vector<BenchCase>& all_cases() {
  static const std::vector<BenchCase> cases = [] {
    std::vector<BenchCase> v;
    for (uint64_t n : {8192ull, 32768ull, 262144ull, 1048576ull, 4194304ull})
      v.push_back(dpd_fluid(3.0, 1.0, n, n <= 32768));
    for (uint64_t n : {32768ull, 262144ull, 1048576ull}) v.push_back(dpd_fluid(6.0, 1.0, n, false));
    for (uint64_t n : {32768ull, 262144ull}) v.push_back(dpd_fluid(50.0, 1.0, n, false));
    for (double rho : {3.0, 6.0})
      for (uint64_t n : {32768ull, 262144ull, 1048576ull}) v.push_back(dpd_fluid(rho, 1.5, n, false));
    v.push_back(lj_liquid(64000, false));
    v.push_back(dppc_bilayer(1, true));
    v.push_back(dppc_bilayer(7, false));
    v.push_back(srd_fluid(10.0, true));
    v.push_back(srd_fluid(50.0, false));
    v.push_back(srd_fluid(100.0, false));
    return v;
  }();
  return cases;
}

void apply_param(BenchCase& c, const std::string& kv) {
  const auto eq = kv.find('=');
  if (eq == std::string::npos || eq == 0)
    throw_input_error("--param '", kv, "' is invalid: expected key=value");
  const std::string key = kv.substr(0, eq);
  const std::string v = kv.substr(eq + 1);
  if (c.mpcd) {
    auto& s = c.solvent;
    if (key == "L") c.srd.L = parse_double(key, v);
    else if (key == "rho") c.srd.rho = parse_double(key, v);
    else if (key == "kT") s.kT = parse_double(key, v);
    else if (key == "angle") s.angle_deg = parse_double(key, v);
    else if (key == "dt") s.dt = parse_double(key, v);
    else if (key == "rule") s.rule = parse_mpcd_rule(v);
    else if (key == "thermostat") s.thermostat = parse_uint(key, v) != 0;
    else if (key == "shift") s.grid_shift = parse_uint(key, v) != 0;
    else if (key == "seed") { c.srd.seed = parse_uint(key, v); s.seed = static_cast<uint32_t>(c.srd.seed); }
    else if (key == "N") {
      // The cubic box of whole cells nearest to N particles at the density
      // (the scaling harness's --per-rank / --total): N = rho L^3 only
      // approximately, and the run reports the N it made.
      const double n = static_cast<double>(parse_uint(key, v));
      require_positive("N", n);
      require_positive("rho", c.srd.rho);
      c.srd.L = std::max(2.0, std::round(std::cbrt(n / c.srd.rho)));
    } else
      throw_input_error("--param key '", key, "' is unknown for ", c.workload,
                        ": allowed keys are L, N (the nearest cubic box), rho, kT, angle, dt, rule, thermostat, shift, seed");
    return;
  }
  if (c.style == PairStyle::none) {
    auto& d = c.dppc;
    if (key == "lipids") d.lipids = static_cast<uint32_t>(parse_uint(key, v));
    else if (key == "waters") d.waters = parse_uint(key, v);
    else if (key == "replicate") c.replicate = static_cast<uint32_t>(parse_uint(key, v));
    else if (key == "lx") d.lx = parse_double(key, v);
    else if (key == "ly") d.ly = parse_double(key, v);
    else if (key == "lz") d.lz = parse_double(key, v);
    else if (key == "kelvin") { d.kelvin = parse_double(key, v); c.run.kT = DppcUnits::kT(d.kelvin); }
    else if (key == "grid") d.grid_spacing = parse_double(key, v);
    else if (key == "sigma") d.filter_sigma = parse_double(key, v);
    else if (key == "update") d.update_every = static_cast<uint32_t>(parse_uint(key, v));
    else if (key == "kappa") d.kappa = parse_double(key, v);
    else if (key == "rho0") d.rho0 = parse_double(key, v);
    else if (key == "dt") c.run.dt = DppcUnits::from_ps(parse_double(key, v));
    else if (key == "gamma") c.run.gamma = parse_double(key, v) * DppcUnits::time_ps();
    else if (key == "seed") d.seed = parse_uint(key, v);
    else if (key == "shift") d.grid_shift = parse_uint(key, v) != 0;
    else
      throw_input_error("--param key '", key, "' is unknown for ", c.workload,
                        ": allowed keys are lipids, waters, replicate, lx, ly, lz, kelvin, grid, sigma, update, "
                        "kappa, rho0, dt, gamma, seed, shift");
    return;
  }
  if (c.style == PairStyle::lj) {
    auto& l = c.lj;
    if (key == "rho") { l.rho = parse_double(key, v); l.packing_fraction = 0.0; }
    else if (key == "phi") l.packing_fraction = parse_double(key, v);
    else if (key == "kT") { l.kT = parse_double(key, v); c.run.kT = l.kT; }
    else if (key == "rc") l.rcut = parse_double(key, v);
    else if (key == "ron") l.ron = parse_double(key, v);
    else if (key == "mode") l.mode = parse_lj_mode(v);
    else if (key == "N") l.n = parse_uint(key, v);
    else if (key == "dt") c.run.dt = parse_double(key, v);
    else if (key == "skin") c.run.skin = parse_double(key, v);
    else if (key == "rebuild_every") c.run.rebuild_every = static_cast<uint32_t>(parse_uint(key, v));
    else if (key == "integrator") c.run.integrator = parse_integrator(v);
    else if (key == "tau") c.run.tau = parse_double(key, v);
    else if (key == "gamma") c.run.gamma = parse_double(key, v);
    else if (key == "seed") l.seed = parse_uint(key, v);
    else
      throw_input_error("--param key '", key,
                        "' is unknown for ", c.workload, ": allowed keys are rho, phi, kT, rc, ron, mode, N, "
                        "dt, skin, rebuild_every, integrator, tau, gamma, seed");
    return;
  }
  auto& f = c.fluid;
  if (key == "rho") f.rho = parse_double(key, v);
  else if (key == "a") f.a = parse_double(key, v);
  else if (key == "gamma") f.gamma = parse_double(key, v);
  else if (key == "kT") f.kT = parse_double(key, v);
  else if (key == "rc") f.rcut = parse_double(key, v);
  else if (key == "s") f.s = parse_double(key, v);
  else if (key == "N") { f.n = parse_uint(key, v); f.lx = f.ly = f.lz = 0.0; }
  else if (key == "L") { f.lx = f.ly = f.lz = parse_double(key, v); if (!(f.lx > 0)) require_positive("L", f.lx); }
  else if (key == "dt") c.run.dt = parse_double(key, v);
  else if (key == "skin") c.run.skin = parse_double(key, v);
  else if (key == "rebuild_every") c.run.rebuild_every = static_cast<uint32_t>(parse_uint(key, v));
  else if (key == "integrator") c.run.integrator = parse_integrator(v);
  else if (key == "lambda") c.run.lambda = parse_double(key, v);
  else if (key == "seed") f.seed = parse_uint(key, v);
  else if (key == "types") f.types = static_cast<uint32_t>(std::min<uint64_t>(parse_uint(key, v), 1000));
  else
    throw_input_error("--param key '", key,
                      "' is unknown: allowed keys are rho, a, gamma, kT, rc, s, N, L, dt, skin, "
                      "rebuild_every, integrator, lambda, seed, types");
}

}  // namespace meso::bench
