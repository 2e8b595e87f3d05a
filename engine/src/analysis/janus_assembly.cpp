#include "meso/analysis/janus_assembly.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "meso/physics/rigid_body.hpp"

namespace meso {
namespace {

constexpr std::size_t kBondBins = 10;  // 0..8 bonds, then 9 or more

// Union-find over particle indices, by size with path halving.
struct Clusters {
  std::vector<uint32_t> parent, size;
  explicit Clusters(std::size_t n) : parent(n), size(n, 1) { std::iota(parent.begin(), parent.end(), 0u); }
  uint32_t find(uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  }
  void join(uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (size[a] < size[b]) std::swap(a, b);
    parent[b] = a;
    size[a] += size[b];
  }
};

// Cells of side >= rc, at least one per axis; with fewer than three along
// an axis the neighbour stencil would visit a cell twice, so such boxes are
// taken as one cell there.
struct CellGrid {
  int n[3];
  double side[3];
  std::vector<std::vector<uint32_t>> cells;
  CellGrid(const Box& box, const ParticleData<double>& p, double rc) {
    const Vec3d L = box.lengths();
    const double l[3] = {L.x, L.y, L.z};
    for (int k = 0; k < 3; ++k) {
      n[k] = std::max(1, int(std::floor(l[k] / rc)));
      if (n[k] < 3) n[k] = 1;
      side[k] = l[k] / n[k];
    }
    cells.resize(std::size_t(n[0]) * n[1] * n[2]);
    for (std::size_t i = 0; i < p.n_local; ++i) {
      const double x[3] = {p.position[i].x, p.position[i].y, p.position[i].z};
      int c[3];
      for (int k = 0; k < 3; ++k) {
        const double u = x[k] - l[k] * std::floor(x[k] / l[k]);  // [0, l) whatever the box's origin
        c[k] = std::min(n[k] - 1, int(u / side[k]));
      }
      cells[index(c[0], c[1], c[2])].push_back(uint32_t(i));
    }
  }
  std::size_t index(int a, int b, int c) const {
    a = (a + n[0]) % n[0];
    b = (b + n[1]) % n[1];
    c = (c + n[2]) % n[2];
    return (std::size_t(c) * n[1] + b) * n[0] + a;
  }
};

}  // namespace

double janus_facing_chance(const physics::JanusParams& jp) {
  const double cap = 1.0 - std::cos(jp.theta_m);  // both caps' share of the sphere (triblock)
  return jp.two_patches() ? cap * cap : 0.25 * cap * cap;
}

JanusAssembly analyse_janus_assembly(const Box& box, const ParticleData<double>& p, const physics::JanusParams& jp) {
  JanusAssembly out;
  const std::size_t n = p.n_local;
  out.n = n;
  out.facing_chance = janus_facing_chance(jp);
  out.bond_histogram.assign(kBondBins, 0);
  if (n == 0) return out;
  std::vector<Vec3d> axis(n);
  Eigen::Matrix3d q = Eigen::Matrix3d::Zero();
  for (std::size_t i = 0; i < n; ++i) {
    axis[i] = physics::body_axis_z(p.orientation[i]);
    const Eigen::Vector3d a(axis[i].x, axis[i].y, axis[i].z);
    q += 1.5 * a * a.transpose();
  }
  q = q / double(n) - 0.5 * Eigen::Matrix3d::Identity();
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(q);
  out.order = eig.eigenvalues()(2);
  out.director = {eig.eigenvectors()(0, 2), eig.eigenvectors()(1, 2), eig.eigenvectors()(2, 2)};

  const double rc2 = jp.rcut * jp.rcut;
  const CellGrid grid(box, p, jp.rcut);
  std::vector<uint32_t> degree(n, 0);
  Clusters clusters(n);
  uint64_t pairs = 0, facing = 0;
  double p2 = 0.0;
  auto visit = [&](uint32_t i, uint32_t j) {
    const Vec3d d = box.min_image(p.position[j] - p.position[i]);
    const double r2 = dot(d, d);
    if (r2 >= rc2 || r2 == 0.0) return;
    ++pairs;
    const double c = dot(axis[i], axis[j]);
    p2 += 1.5 * c * c - 0.5;
    const double f = physics::janus_factor(d, axis[i], axis[j], jp);
    if (!(f > 0.0)) return;
    ++facing;
    if (std::pow(f, jp.nu) <= 0.5) return;
    ++degree[i];
    ++degree[j];
    clusters.join(i, j);
  };
  const int span[3] = {grid.n[0] >= 3 ? 1 : 0, grid.n[1] >= 3 ? 1 : 0, grid.n[2] >= 3 ? 1 : 0};
  for (int cz = 0; cz < grid.n[2]; ++cz)
    for (int cy = 0; cy < grid.n[1]; ++cy)
      for (int cx = 0; cx < grid.n[0]; ++cx) {
        const std::vector<uint32_t>& home = grid.cells[grid.index(cx, cy, cz)];
        for (int dz = -span[2]; dz <= span[2]; ++dz)
          for (int dy = -span[1]; dy <= span[1]; ++dy)
            for (int dx = -span[0]; dx <= span[0]; ++dx) {
              const std::vector<uint32_t>& other = grid.cells[grid.index(cx + dx, cy + dy, cz + dz)];
              for (uint32_t i : home)
                for (uint32_t j : other)
                  if (i < j) visit(i, j);
            }
      }
  out.neighbours = 2.0 * double(pairs) / double(n);
  out.facing = pairs ? double(facing) / double(pairs) : 0.0;
  out.local_order = pairs ? p2 / double(pairs) : 0.0;
  uint64_t bond_ends = 0;
  for (std::size_t i = 0; i < n; ++i) {
    bond_ends += degree[i];
    ++out.bond_histogram[std::min<std::size_t>(degree[i], kBondBins - 1)];
    if (degree[i] == 0) ++out.unbonded;
  }
  out.bonds = double(bond_ends) / double(n);
  uint64_t in_clusters = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (clusters.find(uint32_t(i)) != i || clusters.size[i] < 2) continue;
    ++out.clusters;
    in_clusters += clusters.size[i];
    out.largest = std::max<uint64_t>(out.largest, clusters.size[i]);
  }
  out.mean_cluster = out.clusters ? double(in_clusters) / double(out.clusters) : 0.0;
  return out;
}

}  // namespace meso
