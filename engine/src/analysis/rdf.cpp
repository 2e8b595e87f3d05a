#include "meso/analysis/rdf.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>

#include "meso/core/error.hpp"
#include "meso/io/column_file.hpp"

namespace meso {

Rdf compute_rdf(const Box& box, const ParticleData<double>& p, double r_max, int bins,
                const std::vector<uint32_t>& molecule_of_tag) {
  require_positive("g(r) r_max", r_max);
  if (bins < 1) throw_input_error("g(r) bins = ", bins, " is invalid: it must be >= 1");
  if (r_max > 0.5 * box.min_length())
    throw_input_error("g(r) r_max = ", r_max, " is invalid: it must be <= half the box, ",
                      0.5 * box.min_length());
  const std::size_t n = p.n_local;
  const bool inter = !molecule_of_tag.empty();
  if (inter && molecule_of_tag.size() < n)
    throw_input_error("g(r): molecules of ", molecule_of_tag.size(), " tags for ", n, " particles");
  std::vector<uint32_t> molecule(inter ? n : 0);
  std::map<uint32_t, double> members;
  for (std::size_t i = 0; inter && i < n; ++i) {
    if (p.tag[i] >= molecule_of_tag.size())
      throw_input_error("g(r): tag ", p.tag[i], " has no molecule (", molecule_of_tag.size(), " given)");
    molecule[i] = molecule_of_tag[p.tag[i]];
    members[molecule[i]] += 1.0;
  }
  Rdf out;
  out.bin_width = r_max / bins;
  std::vector<double> count(static_cast<std::size_t>(bins), 0.0);
  auto pair = [&](std::size_t i, std::size_t j) {
    if (inter && molecule[i] == molecule[j]) return;
    const Vec3d d = box.min_image(p.position[i] - p.position[j]);
    const double r = std::sqrt(dot(d, d));
    if (r < r_max) count[std::min(static_cast<std::size_t>(r / out.bin_width), count.size() - 1)] += 1.0;
  };
  // Cells of edge >= r_max when the box holds at least 3 a side (then the
  // 27 cells around a particle's hold each neighbour once): O(N) instead of
  // all pairs, the same counts.
  const Vec3d L = box.lengths();
  const int nx = static_cast<int>(L.x / r_max), ny = static_cast<int>(L.y / r_max), nz = static_cast<int>(L.z / r_max);
  if (nx >= 3 && ny >= 3 && nz >= 3 && n > 64) {
    const Vec3d lo = box.lo();
    auto cell_of = [&](const Vec3d& x) {
      const int cx = std::clamp(static_cast<int>((x.x - lo.x) / L.x * nx), 0, nx - 1);
      const int cy = std::clamp(static_cast<int>((x.y - lo.y) / L.y * ny), 0, ny - 1);
      const int cz = std::clamp(static_cast<int>((x.z - lo.z) / L.z * nz), 0, nz - 1);
      return (cz * ny + cy) * nx + cx;
    };
    std::vector<std::vector<uint32_t>> cells(static_cast<std::size_t>(nx) * ny * nz);
    std::vector<int> cell(n);
    for (std::size_t i = 0; i < n; ++i) {
      Vec3d x = p.position[i];
      Image img{0, 0, 0};
      box.wrap(x, img);
      cell[i] = cell_of(x);
      cells[static_cast<std::size_t>(cell[i])].push_back(static_cast<uint32_t>(i));
    }
    for (std::size_t i = 0; i < n; ++i) {
      const int c = cell[i], cx = c % nx, cy = (c / nx) % ny, cz = c / (nx * ny);
      for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int o = (((cz + dz + nz) % nz) * ny + (cy + dy + ny) % ny) * nx + (cx + dx + nx) % nx;
            for (uint32_t j : cells[static_cast<std::size_t>(o)])
              if (j > i) pair(i, j);
          }
    }
  } else {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) pair(i, j);
  }
  // Ideal pairs in a shell: N (N - 1) / 2 * shell volume / V, less the
  // pairs within one molecule when those are left out.
  double pairs = 0.5 * static_cast<double>(n) * static_cast<double>(n > 0 ? n - 1 : 0);
  for (const auto& [m, k] : members) pairs -= 0.5 * k * (k - 1.0);
  for (int b = 0; b < bins; ++b) {
    const double lo = b * out.bin_width, hi = lo + out.bin_width;
    const double shell = 4.0 / 3.0 * std::numbers::pi * (hi * hi * hi - lo * lo * lo);
    out.r.push_back(lo + 0.5 * out.bin_width);
    out.g.push_back(pairs > 0 ? count[b] / (pairs * shell / box.volume()) : 0.0);
  }
  return out;
}

Rdf read_rdf_file(const std::string& path) {
  const io::TwoColumns c = io::read_two_columns(path, "g(r) file", "r", "g(r)");
  Rdf out;
  out.r = c.x;
  out.g = c.y;
  const std::size_t n = out.r.size();
  if (n < 4) throw_input_error("g(r) file '", path, "' has ", n, " bins (at least 4)");
  // The grid: centres (i + 1/2) dr, dr from the last centre.
  const double dr = out.r.back() / (n - 0.5);
  if (!(dr > 0.0)) throw_input_error("g(r) file '", path, "': its last r, ", out.r.back(), ", is not positive");
  for (std::size_t i = 0; i < n; ++i)
    if (std::fabs(out.r[i] - (i + 0.5) * dr) > 1e-6 * dr)
      throw_input_error("g(r) file '", path, "', bin ", i + 1, ": r = ", out.r[i], " is not the centre ", (i + 0.5) * dr,
                        " of uniform bins from r = 0 (width ", dr, ")");
  out.bin_width = dr;
  return out;
}

}  // namespace meso
