// MD-SCF grid pieces (meso/physics/mdscf.hpp): cloud-in-cell weights (a
// partition of unity, exact at vertices, periodic), the particle count
// conserved by density assignment, linear fields interpolated exactly, the
// mean-field potential by hand, the central difference of a sinusoid
// against its closed form, and the force in a linear potential.
#include "meso/physics/mdscf.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace {

using meso::Vec3d;
using namespace meso::physics;

constexpr double kPi = 3.14159265358979323846;

struct Grid {
  GridShape g{8, 6, 5};
  Vec3d lo{-4.0, -3.0, -2.5};
  Vec3d len{8.0, 6.6, 5.0};
  Vec3d h{len.x / g.nx, len.y / g.ny, len.z / g.nz};
  Vec3d vertex(uint32_t i, uint32_t j, uint32_t k) const {
    return {lo.x + i * h.x, lo.y + j * h.y, lo.z + k * h.z};
  }
};

TEST(CicStencil, PartitionOfUnityAndExactAtVertices) {
  const Grid G;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int t = 0; t < 1000; ++t) {
    const Vec3d r{G.lo.x + u(rng) * G.len.x, G.lo.y + u(rng) * G.len.y, G.lo.z + u(rng) * G.len.z};
    const CicStencil s = cic_stencil(r, G.lo, G.h, G.g);
    double sum = 0.0;
    for (double w : s.weight) {
      EXPECT_GE(w, 0.0);
      EXPECT_LE(w, 1.0);
      sum += w;
    }
    EXPECT_NEAR(sum, 1.0, 1e-14);
    for (uint32_t v : s.vertex) EXPECT_LT(v, G.g.size());
  }
  // On a vertex: all the weight there.
  const CicStencil at = cic_stencil(G.vertex(3, 2, 1), G.lo, G.h, G.g);
  EXPECT_EQ(at.vertex[0], G.g.index(3, 2, 1));
  EXPECT_NEAR(at.weight[0], 1.0, 1e-12);
}

TEST(CicStencil, WrapsPeriodically) {
  const Grid G;
  // Just below the upper face: between the last vertex and vertex 0 (the
  // image of the upper face), mostly on vertex 0.
  const Vec3d near_top{G.lo.x + G.len.x - 0.25 * G.h.x, G.lo.y, G.lo.z};
  const CicStencil s = cic_stencil(near_top, G.lo, G.h, G.g);
  EXPECT_EQ(s.vertex[0], G.g.index(G.g.nx - 1, 0, 0));
  EXPECT_EQ(s.vertex[1], G.g.index(0, 0, 0));
  EXPECT_NEAR(s.weight[0], 0.25, 1e-12);
  EXPECT_NEAR(s.weight[1], 0.75, 1e-12);
  // A position one box length below spreads exactly as its image.
  const Vec3d below{near_top.x - G.len.x, near_top.y, near_top.z};
  const CicStencil b = cic_stencil(below, G.lo, G.h, G.g);
  for (int c = 0; c < 8; ++c) {
    EXPECT_EQ(b.vertex[c], s.vertex[c]);
    EXPECT_NEAR(b.weight[c], s.weight[c], 1e-12);
  }
}

TEST(CicStencil, DensityAssignmentConservesTheCount) {
  const Grid G;
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> rho(G.g.size(), 0.0);
  const int n = 5000;
  const double cell = G.h.x * G.h.y * G.h.z;
  for (int t = 0; t < n; ++t) {
    const Vec3d r{G.lo.x + u(rng) * G.len.x, G.lo.y + u(rng) * G.len.y, G.lo.z + u(rng) * G.len.z};
    const CicStencil s = cic_stencil(r, G.lo, G.h, G.g);
    for (int c = 0; c < 8; ++c) rho[s.vertex[c]] += s.weight[c] / cell;
  }
  double integral = 0.0;
  for (double x : rho) integral += x * cell;
  EXPECT_NEAR(integral, n, 1e-9);
}

TEST(CicStencil, InterpolatesLinearFieldsExactly) {
  // f(r) = a . r + b on the vertices; inside a cell that does not wrap, the
  // trilinear interpolation of f is f itself, and the force from a linear
  // potential (exact central differences) is -a.
  const Grid G;
  const Vec3d a{0.7, -1.3, 0.4};
  std::vector<double> f(G.g.size());
  for (uint32_t k = 0; k < G.g.nz; ++k)
    for (uint32_t j = 0; j < G.g.ny; ++j)
      for (uint32_t i = 0; i < G.g.nx; ++i) f[G.g.index(i, j, k)] = dot(a, G.vertex(i, j, k)) + 2.0;
  std::vector<Vec3d> grad(G.g.size(), Vec3d{0, 0, 0});
  for (uint32_t k = 1; k + 1 < G.g.nz; ++k)
    for (uint32_t j = 1; j + 1 < G.g.ny; ++j)
      for (uint32_t i = 1; i + 1 < G.g.nx; ++i)
        grad[G.g.index(i, j, k)] = grid_gradient(f.data(), i, j, k, G.h, G.g);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int t = 0; t < 200; ++t) {
    // Inside cells (1 .. n-3) so that all 8 vertices have interior gradients.
    const Vec3d r{G.lo.x + (1 + u(rng) * (G.g.nx - 3)) * G.h.x, G.lo.y + (1 + u(rng) * (G.g.ny - 3)) * G.h.y,
                  G.lo.z + (1 + u(rng) * (G.g.nz - 3)) * G.h.z};
    const CicStencil s = cic_stencil(r, G.lo, G.h, G.g);
    double fi = 0.0;
    for (int c = 0; c < 8; ++c) fi += s.weight[c] * f[s.vertex[c]];
    EXPECT_NEAR(fi, dot(a, r) + 2.0, 1e-12);
    const Vec3d force = cic_force(s, grad.data());
    EXPECT_NEAR(force.x, -a.x, 1e-12);
    EXPECT_NEAR(force.y, -a.y, 1e-12);
    EXPECT_NEAR(force.z, -a.z, 1e-12);
  }
}

TEST(GridGradient, CentralDifferenceOfASinusoid) {
  // f = sin(2 pi x / L): the central difference is cos(2 pi x / L)
  // sin(2 pi h / L) / h at every vertex, the periodic wrap included.
  const Grid G;
  std::vector<double> f(G.g.size());
  const double q = 2.0 * kPi / G.len.x;
  for (uint32_t k = 0; k < G.g.nz; ++k)
    for (uint32_t j = 0; j < G.g.ny; ++j)
      for (uint32_t i = 0; i < G.g.nx; ++i) f[G.g.index(i, j, k)] = std::sin(q * G.vertex(i, j, k).x);
  for (uint32_t i = 0; i < G.g.nx; ++i) {
    const Vec3d gr = grid_gradient(f.data(), i, 2, 3, G.h, G.g);
    EXPECT_NEAR(gr.x, std::cos(q * G.vertex(i, 2, 3).x) * std::sin(q * G.h.x) / G.h.x, 1e-12);
    EXPECT_NEAR(gr.y, 0.0, 1e-15);
    EXPECT_NEAR(gr.z, 0.0, 1e-15);
  }
}

TEST(MdscfPotential, HandValues) {
  // Two types, chi_01 = chi_10 = 10, chi_00 = chi_11 = 0, 1/kappa = 20, at a
  // vertex with phi = (0.6, 0.5): V_0 = 10 x 0.5 + 20 (1.1 - 1) = 7,
  // V_1 = 10 x 0.6 + 2 = 8. At the reference density and no mixing
  // (phi = (1, 0)), V_0 = 0.
  const double chi[4] = {0.0, 10.0, 10.0, 0.0};
  const double phi[2] = {0.6, 0.5};
  EXPECT_NEAR(mdscf_potential(0, phi, chi, 2, 20.0), 7.0, 1e-13);
  EXPECT_NEAR(mdscf_potential(1, phi, chi, 2, 20.0), 8.0, 1e-13);
  const double pure[2] = {1.0, 0.0};
  EXPECT_NEAR(mdscf_potential(0, pure, chi, 2, 20.0), 0.0, 1e-15);
}

}  // namespace
