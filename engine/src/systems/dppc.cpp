#include "meso/systems/dppc.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

#include "meso/core/error.hpp"
#include "meso/core/init.hpp"
#include "meso/physics/philox.hpp"

namespace meso {
namespace {

constexpr uint32_t kStreamDppc = 0x44505043u;  // "DPPC"

// Four uniform numbers in [0, 1) for (index, word), from the seed.
physics::Philox4x32Ctr draw(uint32_t index, uint32_t word, uint64_t seed) {
  return physics::philox4x32_10({{index, word, kStreamDppc, 0u}},
                                {{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}});
}
double u01(uint32_t x) { return 1.0 - physics::uniform_open01(x); }

}  // namespace

double DppcUnits::time_ps() { return std::sqrt(72e-3 * 1e-18 / 1e3) * 1e12; }

io::H5mdUnits DppcUnits::trajectory_units() {
  io::H5mdUnits u = io::nm_ps_units("nm and ps (converted from the engine's time unit); " + describe());
  u.time_factor = time_ps();
  u.velocity_factor = 1.0 / time_ps();
  return u;
}

std::string DppcUnits::describe() {
  std::ostringstream o;
  o << "length 1 = 1 nm, energy 1 = 1 kJ/mol, mass 1 = 72 g/mol, time 1 = " << time_ps()
    << " ps, kT = 0.0083144626 kJ/mol/K x T";
  return o.str();
}

std::vector<double> dppc_chi() {
  std::vector<double> chi(kDppcNumTypes * kDppcNumTypes, 0.0);
  auto set = [&](uint32_t a, uint32_t b, double v) {
    chi[a * kDppcNumTypes + b] = v;
    chi[b * kDppcNumTypes + a] = v;
  };
  // docs/reference.md, "DPPC and water model" (kJ/mol); the others are 0.
  set(kDppcC, kDppcW, 42.24);
  set(kDppcG, kDppcC, 10.47);
  set(kDppcN, kDppcW, -3.77);
  set(kDppcG, kDppcW, 4.53);
  set(kDppcN, kDppcP, -9.34);
  set(kDppcP, kDppcG, 8.04);
  set(kDppcN, kDppcG, 1.97);
  set(kDppcP, kDppcC, 14.72);
  set(kDppcP, kDppcW, -1.51);
  set(kDppcN, kDppcC, 13.56);
  return chi;
}

void DppcBilayerParams::validate() const {
  if (lipids < 2 || lipids % 2)
    throw_input_error("DPPC lipids = ", lipids, " is invalid: an even number >= 2 is needed (two leaflets)");
  require_positive("DPPC box lx", lx);
  require_positive("DPPC box ly", ly);
  require_positive("DPPC box lz", lz);
  require_positive("temperature (K)", kelvin);
  require_positive("MD-SCF grid spacing", grid_spacing);
  require_non_negative("MD-SCF filter sigma", filter_sigma);
  require_positive("MD-SCF kappa", kappa);
  require_positive("MD-SCF rho0", rho0);
  if (update_every == 0) throw_input_error("MD-SCF update_every = 0 is invalid: it must be >= 1 step");
  if (lz < 6.0)
    throw_input_error("DPPC box lz = ", lz, " nm is too short for a bilayer (about 4.5 nm thick) with water: use >= 6 nm");
  const double area_per_lipid = 2.0 * lx * ly / lipids;
  if (area_per_lipid < 0.3)
    throw_input_error("DPPC area per lipid = ", area_per_lipid, " nm^2 (", lipids, " lipids on ", lx, " x ", ly,
                      " nm) is too small: the experimental value is 0.631 nm^2");
}

System make_dppc_bilayer(const DppcBilayerParams& p) {
  p.validate();
  constexpr uint32_t kBeads = 12;
  System sys;
  sys.box = Box(p.lx, p.ly, p.lz);
  sys.pair = {};  // no pair force: the field acts between molecules
  sys.type_names = {"N", "P", "G", "C", "W"};
  sys.type_mass.assign(kDppcNumTypes, 1.0);  // 72 g/mol each: the mass unit
  sys.kT = DppcUnits::kT(p.kelvin);
  const uint64_t n = uint64_t(p.lipids) * kBeads + p.waters;
  sys.particles.resize(n);
  auto& pd = sys.particles;
  const Box& box = sys.box;

  // Geometry (nm) of one lipid of the upper leaflet, heads up; the lower
  // leaflet is its mirror image in z. Bonds are near their rest lengths,
  // angles near theirs; the tails are straight along -z.
  const double zG = 1.5, dz_tail = 0.42, gg = 0.37;
  const uint32_t per_leaflet = p.lipids / 2;
  const uint32_t sx = static_cast<uint32_t>(std::ceil(std::sqrt(per_leaflet * p.lx / p.ly)));
  const uint32_t sy = (per_leaflet + sx - 1) / sx;
  const double ax = p.lx / sx, ay = p.ly / sy;
  for (uint32_t l = 0; l < p.lipids; ++l) {
    const bool upper = l < per_leaflet;
    const uint32_t k = upper ? l : l - per_leaflet;
    // Sites taken evenly spaced among the sx * sy of the lattice; the lower
    // leaflet's lattice is offset by half a site.
    const uint64_t site = uint64_t(k) * (uint64_t(sx) * sy) / per_leaflet;
    const double off = upper ? 0.25 : 0.75;
    const double x0 = -0.5 * p.lx + (double(site % sx) + off) * ax;
    const double y0 = -0.5 * p.ly + (double(site / sx) + off) * ay;
    const physics::Philox4x32Ctr r = draw(l, 0, p.seed);
    const double phi = 2.0 * std::numbers::pi * u01(r.v[0]);
    const double ux = std::cos(phi), uy = std::sin(phi);
    const double s = upper ? 1.0 : -1.0;
    Vec3d bead[kBeads];
    // (x, y, z) of N, P, G1, G2, C1A..C4A (under G1), C1B..C4B (under G2):
    // G1-G2 horizontal along u, G1->P at 120 deg from u (the P-G-G rest
    // angle), N straight above P.
    bead[2] = {x0, y0, s * zG};
    bead[3] = {x0 + gg * ux, y0 + gg * uy, s * zG};
    bead[1] = {x0 - 0.5 * 0.47 * ux, y0 - 0.5 * 0.47 * uy, s * (zG + 0.8660254 * 0.47)};
    bead[0] = {bead[1].x, bead[1].y, bead[1].z + s * 0.47};
    for (int c = 0; c < 4; ++c) {
      bead[4 + c] = {bead[2].x, bead[2].y, s * (zG - (c + 1) * dz_tail)};
      bead[8 + c] = {bead[3].x, bead[3].y, s * (zG - (c + 1) * dz_tail)};
    }
    static constexpr uint32_t kType[kBeads] = {kDppcN, kDppcP, kDppcG, kDppcG, kDppcC, kDppcC,
                                               kDppcC, kDppcC, kDppcC, kDppcC, kDppcC, kDppcC};
    for (uint32_t b = 0; b < kBeads; ++b) {
      const std::size_t i = std::size_t(l) * kBeads + b;
      Image img{0, 0, 0};
      Vec3d q = bead[b];
      box.wrap(q, img);
      pd.position[i] = q;
      pd.image[i] = img;
      pd.type[i] = kType[b];
      pd.tag[i] = static_cast<uint32_t>(i);
    }
  }
  // Water in |z| > z_w, the slab the lipids would fill at the mean density.
  const double mean_density = double(n) / box.volume();
  const double z_w = std::min(0.5 * p.lipids * kBeads / mean_density / (p.lx * p.ly), 0.45 * p.lz);
  for (uint64_t w = 0; w < p.waters; ++w) {
    const std::size_t i = std::size_t(p.lipids) * kBeads + w;
    const physics::Philox4x32Ctr r = draw(static_cast<uint32_t>(w), 1, p.seed);
    const double zr = u01(r.v[2]) * (p.lz - 2.0 * z_w);  // over both slabs
    const double z = zr < 0.5 * p.lz - z_w ? z_w + zr : -z_w - (zr - (0.5 * p.lz - z_w));
    Image img{0, 0, 0};
    Vec3d q{(u01(r.v[0]) - 0.5) * p.lx, (u01(r.v[1]) - 0.5) * p.ly, z};
    box.wrap(q, img);
    pd.position[i] = q;
    pd.image[i] = img;
    pd.type[i] = kDppcW;
    pd.tag[i] = static_cast<uint32_t>(i);
  }
  draw_maxwell_boltzmann(sys, sys.kT, p.seed);

  // Topology (docs/reference.md): bonds r0 nm / k kJ/mol/nm^2, angles theta0 /
  // k kJ/mol/rad^2.
  Topology& t = sys.topology;
  auto bond_type = [&](const char* name, double r0) {
    BondType b;
    b.name = name;
    b.kind = BondKind::harmonic;
    b.harmonic.k = 1250.0;
    b.harmonic.r0 = r0;
    t.bond_types.push_back(b);
    return static_cast<uint32_t>(t.bond_types.size() - 1);
  };
  const uint32_t bNP = bond_type("N-P", 0.47), bPG = bond_type("P-G", 0.47), bGG = bond_type("G-G", 0.37),
                 bGC = bond_type("G-C", 0.47), bCC = bond_type("C-C", 0.47);
  auto angle_type = [&](const char* name, double deg) {
    AngleType a;
    a.name = name;
    a.harmonic.k = 25.0;
    a.harmonic.theta0 = deg * std::numbers::pi / 180.0;
    t.angle_types.push_back(a);
    return static_cast<uint32_t>(t.angle_types.size() - 1);
  };
  const uint32_t aPGG = angle_type("P-G-G", 120.0), aPGC = angle_type("P-G-C", 180.0),
                 aGCC = angle_type("G-C-C", 180.0), aCCC = angle_type("C-C-C", 180.0);
  for (uint32_t l = 0; l < p.lipids; ++l) {
    const uint32_t o = l * kBeads;
    auto bond = [&](uint32_t a, uint32_t b, uint32_t type) { t.bonds.push_back({o + a, o + b, type}); };
    auto angle = [&](uint32_t a, uint32_t b, uint32_t c, uint32_t type) {
      t.angles.push_back({o + a, o + b, o + c, type});
    };
    bond(0, 1, bNP);
    bond(1, 2, bPG);
    bond(2, 3, bGG);
    bond(2, 4, bGC);
    bond(3, 8, bGC);
    for (uint32_t c = 0; c < 3; ++c) {
      bond(4 + c, 5 + c, bCC);
      bond(8 + c, 9 + c, bCC);
    }
    angle(1, 2, 3, aPGG);
    angle(1, 2, 4, aPGC);
    angle(2, 4, 5, aGCC);
    angle(3, 8, 9, aGCC);
    for (uint32_t c = 0; c < 2; ++c) {
      angle(4 + c, 5 + c, 6 + c, aCCC);
      angle(8 + c, 9 + c, 10 + c, aCCC);
    }
  }

  MdscfField& f = sys.mdscf;
  MdscfField::grid_for(sys.box, p.grid_spacing, f.nx, f.ny, f.nz);
  f.chi = dppc_chi();
  f.inv_kappa = 1.0 / p.kappa;
  f.rho0 = p.rho0;
  f.update_every = p.update_every;
  f.filter_sigma = p.filter_sigma;
  f.grid_shift = p.grid_shift;
  return sys;
}

}  // namespace meso
