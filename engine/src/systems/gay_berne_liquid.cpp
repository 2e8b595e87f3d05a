#include "meso/systems/gay_berne_liquid.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "meso/core/error.hpp"
#include "meso/core/init.hpp"
#include "meso/physics/box_muller.hpp"
#include "meso/physics/philox.hpp"

namespace meso {
namespace {

constexpr uint32_t kStreamAngmom = 0x414e4731u;  // "ANG1": not the position or velocity draws
constexpr uint32_t kStreamOrientation = 0x4f524931u;  // "ORI1"

struct Lattice {
  uint64_t nxy = 0, nz = 0;
};

// Layers at least kappa sigma0 apart along z, as many as fit; then enough
// columns across for N.
Lattice lattice_for(const GbLiquidParams& p, double L) {
  Lattice g;
  g.nz = static_cast<uint64_t>(std::floor(L / (p.gb.kappa * p.gb.sigma)));
  if (g.nz == 0) return g;
  g.nxy = static_cast<uint64_t>(std::ceil(std::sqrt(double(p.n) / double(g.nz))));
  return g;
}

}  // namespace

void GbLiquidParams::validate() const {
  if (n < 2 || n > 0xffffffffull) throw_input_error("N = ", n, " is invalid: allowed 2 .. 2^32 - 1");
  require_positive("rho", rho);
  require_positive("kT", kT);
  require_positive("mass", mass);
  gb.check();
  const double L = std::cbrt(double(n) / rho);
  const Lattice g = lattice_for(*this, L);
  if (g.nz == 0 || L / double(g.nxy) < 0.9 * gb.sigma)
    throw_input_error("rho = ", rho, " is too dense for an aligned start of N = ", n, " GB(kappa = ", gb.kappa,
                      ") ellipsoids in a cubic box of L = ", L, ": the lattice would put neighbours closer than ",
                      "0.9 sigma0 across or kappa sigma0 along; lower rho or raise N");
  if (L < 2.0 * gb.rcut)
    throw_input_error("N = ", n, " at rho = ", rho, " gives L = ", L, ", shorter than 2 r_cut = ", 2.0 * gb.rcut);
}

void draw_angular_momenta(ParticleData<double>& p, double kT, uint64_t seed) {
  require_positive("kT", kT);
  const physics::Philox4x32Key key{{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}};
  for (std::size_t i = 0; i < p.n_local; ++i) {
    const auto a = physics::philox4x32_10({{p.tag[i], 0u, kStreamAngmom, 0u}}, key);
    const auto b = physics::philox4x32_10({{p.tag[i], 1u, kStreamAngmom, 0u}}, key);
    const auto g01 = physics::box_muller2(physics::uniform_open01(a.v[0], a.v[1]),
                                          physics::uniform_open01(a.v[2], a.v[3]));
    const double g2 = physics::box_muller(physics::uniform_open01(b.v[0], b.v[1]),
                                          physics::uniform_open01(b.v[2], b.v[3]));
    const Vec3d I = p.inertia[i];
    p.angmom[i] = {std::sqrt(I.x * kT) * g01.z0, std::sqrt(I.y * kT) * g01.z1, std::sqrt(I.z * kT) * g2};
  }
}

Quatd random_orientation(uint32_t tag, uint64_t seed) {
  // Four normals, normalised (Marsaglia): uniform over the rotations.
  const physics::Philox4x32Key key{{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}};
  const auto a = physics::philox4x32_10({{tag, 0u, kStreamOrientation, 0u}}, key);
  const auto b = physics::philox4x32_10({{tag, 1u, kStreamOrientation, 0u}}, key);
  const auto g01 = physics::box_muller2(physics::uniform_open01(a.v[0], a.v[1]), physics::uniform_open01(a.v[2], a.v[3]));
  const auto g23 = physics::box_muller2(physics::uniform_open01(b.v[0], b.v[1]), physics::uniform_open01(b.v[2], b.v[3]));
  return normalized(Quatd{g01.z0, {g01.z1, g23.z0, g23.z1}});
}

System make_gb_liquid(const GbLiquidParams& p) {
  p.validate();
  System sys;
  const double L = std::cbrt(double(p.n) / p.rho);
  sys.box = Box(L);
  sys.type_mass = {p.mass};
  sys.kT = p.kT;
  sys.set_pair_style<physics::GayBerneParams>(1, p.gb);
  ParticleData<double>& q = sys.particles;
  q.set_rotational(true);
  q.resize(p.n);
  const Lattice g = lattice_for(p, L);
  const uint64_t sites = g.nxy * g.nxy * g.nz;
  const double ax = L / double(g.nxy), az = L / double(g.nz);
  const Vec3d lo = sys.box.lo();
  for (uint64_t i = 0; i < p.n; ++i) {
    const uint64_t s = i * sites / p.n;  // evenly spaced, so vacancies spread through the box
    const uint64_t ix = s % g.nxy, iy = (s / g.nxy) % g.nxy, iz = s / (g.nxy * g.nxy);
    q.position[i] = {lo.x + (double(ix) + 0.5) * ax, lo.y + (double(iy) + 0.5) * ax, lo.z + (double(iz) + 0.5) * az};
    q.tag[i] = static_cast<uint32_t>(i);
    q.type[i] = 0;
    q.image[i] = {0, 0, 0};
    q.force[i] = {0, 0, 0};
    q.orientation[i] = {1.0, {0, 0, 0}};  // body z = space z
    q.inertia[i] = {p.inertia_perp(), p.inertia_perp(), 0.0};
  }
  draw_maxwell_boltzmann(sys, p.kT, p.seed);
  draw_angular_momenta(q, p.kT, p.seed);
  return sys;
}

double nematic_order(const ParticleData<double>& p) {
  if (!p.rotational || p.n_local == 0) return 0.0;
  Eigen::Matrix3d Q = Eigen::Matrix3d::Zero();
  for (std::size_t i = 0; i < p.n_local; ++i) {
    const Vec3d u = rotate(p.orientation[i], Vec3d{0.0, 0.0, 1.0});
    const Eigen::Vector3d e(u.x, u.y, u.z);
    Q += 1.5 * e * e.transpose() - 0.5 * Eigen::Matrix3d::Identity();
  }
  Q /= double(p.n_local);
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(Q, Eigen::EigenvaluesOnly);
  return solver.eigenvalues().maxCoeff();
}

}  // namespace meso
