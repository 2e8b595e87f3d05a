// The hybrid particle-field (MD-SCF) pieces written once for every backend
// (Milano & Kawakatsu, J. Chem. Phys. 130 (2009) 214106; GALAMOST, Zhu et
// al., J. Comput. Chem. 34 (2013) 2197, sec. "MD-SCF"; docs/reference.md,
// "DPPC and water model"): the density of each bead type on a periodic grid by
// cloud-in-cell, the mean-field potential
//
//   V_K(v) = sum_K' chi_KK' phi_K'(v) + (1/kappa) (sum_K' phi_K'(v) - 1),
//
// where phi_K = rho_K / rho_0 is the number density of type K over the
// reference density rho_0 and chi_KK' is in energy units (kT chi of the
// dimensionless notation; the published DPPC values are in kJ/mol), its gradient by central differences on the grid,
// and the force -grad V_K interpolated back to a particle with the same
// cloud-in-cell weights.
//
// Grid: n.x x n.y x n.z vertices at spacing h = L / n per axis, vertex
// (i, j, k) at lo + (i h_x, j h_y, k h_z), periodic. A particle at r spreads
// over the 8 vertices of its grid cell with trilinear weights; the weights sum
// to 1, so the integral of rho_K (sum over vertices of rho_K h_x h_y h_z) is
// the number of particles of type K, exactly.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "meso_hd.hpp"
#include "philox.hpp"
#include "vec3.hpp"

namespace meso::physics {

struct GridShape {
  uint32_t nx = 0, ny = 0, nz = 0;
  MESO_HD uint32_t size() const { return nx * ny * nz; }
  // Linear index of vertex (i, j, k), each already in range: x fastest.
  MESO_HD uint32_t index(uint32_t i, uint32_t j, uint32_t k) const { return (k * ny + j) * nx + i; }
};

// The 8 vertices of a particle's grid cell and their trilinear weights.
struct CicStencil {
  uint32_t vertex[8];
  double weight[8];
};

// pos: the particle's position; lo: the box's lower corner; h: the grid
// spacing per axis. Vertex c = 4 dz + 2 dy + dx of the cell (dx, dy, dz in
// {0, 1}), wrapped periodically.
MESO_HD CicStencil cic_stencil(Vec3<double> pos, Vec3<double> lo, Vec3<double> h, GridShape g) {
  const double sx = (pos.x - lo.x) / h.x, sy = (pos.y - lo.y) / h.y, sz = (pos.z - lo.z) / h.z;
  const double fx0 = floor(sx), fy0 = floor(sy), fz0 = floor(sz);
  const double fx = sx - fx0, fy = sy - fy0, fz = sz - fz0;
  // Wrap the cell's lower vertex into range (a position may sit a little
  // outside [lo, lo + L) between wraps, or exactly at lo + L).
  auto wrap = [](double c, uint32_t n) {
    long long k = static_cast<long long>(c) % static_cast<long long>(n);
    return static_cast<uint32_t>(k < 0 ? k + n : k);
  };
  const uint32_t i0 = wrap(fx0, g.nx), j0 = wrap(fy0, g.ny), k0 = wrap(fz0, g.nz);
  const uint32_t i1 = i0 + 1 == g.nx ? 0 : i0 + 1;
  const uint32_t j1 = j0 + 1 == g.ny ? 0 : j0 + 1;
  const uint32_t k1 = k0 + 1 == g.nz ? 0 : k0 + 1;
  const double wx[2] = {1.0 - fx, fx}, wy[2] = {1.0 - fy, fy}, wz[2] = {1.0 - fz, fz};
  const uint32_t ix[2] = {i0, i1}, iy[2] = {j0, j1}, iz[2] = {k0, k1};
  CicStencil s;
  for (int c = 0; c < 8; ++c) {
    const int dx = c & 1, dy = (c >> 1) & 1, dz = c >> 2;
    s.vertex[c] = g.index(ix[dx], iy[dy], iz[dz]);
    s.weight[c] = wx[dx] * wy[dy] * wz[dz];
  }
  return s;
}

// The mean-field potential of type K at one vertex from the density
// fractions phi[K'] there (ntypes of them), the table chi[K * ntypes + K']
// (energy units) and 1/kappa (energy units).
MESO_HD double mdscf_potential(uint32_t K, const double* phi, const double* chi, uint32_t ntypes,
                               double inv_kappa) {
  double v = 0.0, total = 0.0;
  for (uint32_t L = 0; L < ntypes; ++L) {
    v += chi[K * ntypes + L] * phi[L];
    total += phi[L];
  }
  return v + inv_kappa * (total - 1.0);
}

// Central difference of a periodic grid field f along each axis at vertex
// (i, j, k): (f(v + e) - f(v - e)) / (2 h).
MESO_HD Vec3<double> grid_gradient(const double* f, uint32_t i, uint32_t j, uint32_t k, Vec3<double> h,
                                   GridShape g) {
  const uint32_t ip = i + 1 == g.nx ? 0 : i + 1, im = i == 0 ? g.nx - 1 : i - 1;
  const uint32_t jp = j + 1 == g.ny ? 0 : j + 1, jm = j == 0 ? g.ny - 1 : j - 1;
  const uint32_t kp = k + 1 == g.nz ? 0 : k + 1, km = k == 0 ? g.nz - 1 : k - 1;
  return {(f[g.index(ip, j, k)] - f[g.index(im, j, k)]) / (2.0 * h.x),
          (f[g.index(i, jp, k)] - f[g.index(i, jm, k)]) / (2.0 * h.y),
          (f[g.index(i, j, kp)] - f[g.index(i, j, km)]) / (2.0 * h.z)};
}

// The force on a particle: minus the vertex gradients of its type's
// potential (grad: 3 components per vertex) interpolated with its stencil.
MESO_HD Vec3<double> cic_force(const CicStencil& s, const Vec3<double>* grad) {
  Vec3<double> f{0.0, 0.0, 0.0};
  for (int c = 0; c < 8; ++c) f -= s.weight[c] * grad[s.vertex[c]];
  return f;
}

// The field energy density at one vertex over rho0 (energy per particle of
// the reference density): 1/2 sum_KL chi_KL phi_K phi_L + inv_kappa/2
// (sum_K phi_K - 1)^2, whose derivative in phi_K is mdscf_potential.
MESO_HD double mdscf_energy_density(const double* phi, const double* chi, uint32_t ntypes, double inv_kappa) {
  double e = 0.0, total = 0.0;
  for (uint32_t K = 0; K < ntypes; ++K) {
    total += phi[K];
    for (uint32_t L = 0; L < ntypes; ++L) e += 0.5 * chi[K * ntypes + L] * phi[K] * phi[L];
  }
  return e + 0.5 * inv_kappa * (total - 1.0) * (total - 1.0);
}

// Taps of a periodic Gaussian filter of width sigma on a grid of spacing h
// along one axis: w_m for m = -M .. M (returned as 2M + 1 values), M =
// ceil(4 sigma / h) but at most (n - 1) / 2 so that no vertex is reached
// twice around the box, normalised to sum 1 (the filtered density keeps the
// particle count exactly; the tail beyond 4 sigma is 3e-4 of the weight).
// sigma == 0: the single tap 1.
inline std::vector<double> gaussian_filter_taps(double sigma, double h, uint32_t n) {
  if (sigma <= 0.0) return {1.0};
  long long m = static_cast<long long>(std::ceil(4.0 * sigma / h));
  const long long cap = (static_cast<long long>(n) - 1) / 2;
  if (m > cap) m = cap;
  std::vector<double> w(static_cast<std::size_t>(2 * m + 1));
  double sum = 0.0;
  for (long long k = -m; k <= m; ++k) {
    const double x = k * h / sigma;
    w[static_cast<std::size_t>(k + m)] = std::exp(-0.5 * x * x);
    sum += w[static_cast<std::size_t>(k + m)];
  }
  for (double& x : w) x /= sum;
  return w;
}

// One separable pass of the filter along `axis` (0, 1, 2) at vertex (i, j,
// k): sum_m taps[m + M] f(v + m e_axis), periodic; ntaps = 2M + 1.
MESO_HD double filter_axis_at(const double* f, uint32_t i, uint32_t j, uint32_t k, int axis, const double* taps,
                              uint32_t ntaps, GridShape g) {
  const int M = static_cast<int>(ntaps / 2);
  const uint32_t n = axis == 0 ? g.nx : (axis == 1 ? g.ny : g.nz);
  const uint32_t c = axis == 0 ? i : (axis == 1 ? j : k);
  double s = 0.0;
  for (int m = -M; m <= M; ++m) {
    int q = static_cast<int>(c) + m;
    q = q < 0 ? q + static_cast<int>(n) : (q >= static_cast<int>(n) ? q - static_cast<int>(n) : q);
    const uint32_t u = static_cast<uint32_t>(q);
    const uint32_t v = axis == 0 ? g.index(u, j, k) : (axis == 1 ? g.index(i, u, k) : g.index(i, j, u));
    s += taps[m + M] * f[v];
  }
  return s;
}

// The random offset of the grid for the field update at `step` (MdscfField::
// grid_shift): uniform in [0, h) per axis, from Philox keyed by the step and
// the run's seed, the same bits on every backend. A grid that moves at every
// update cannot hold the particles at fixed sub-grid positions, so profiles
// and other averages lose the grid's imprint (as the random shift of SRD
// restores Galilean invariance; Ihle & Kroll 2001).
MESO_HD Vec3<double> mdscf_grid_shift(uint64_t step, uint32_t seed, Vec3<double> h) {
  const Philox4x32Ctr r = philox4x32_10({{static_cast<uint32_t>(step), static_cast<uint32_t>(step >> 32),
                                          0x4d534346u /* "MSCF" */, 0u}},
                                        {{seed, 0x53484654u /* "SHFT" */}});
  return {(1.0 - uniform_open01(r.v[0])) * h.x, (1.0 - uniform_open01(r.v[1])) * h.y,
          (1.0 - uniform_open01(r.v[2])) * h.z};
}

}  // namespace meso::physics
