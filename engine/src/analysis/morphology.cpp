#include "meso/analysis/morphology.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <numbers>
#include <numeric>
#include <unordered_set>

#include "meso/core/error.hpp"

namespace meso {
namespace {

struct UnionFind {
  std::vector<uint32_t> up;
  explicit UnionFind(std::size_t n) : up(n) { std::iota(up.begin(), up.end(), 0u); }
  uint32_t find(uint32_t a) {
    while (up[a] != a) a = up[a] = up[up[a]];
    return a;
  }
  void join(uint32_t a, uint32_t b) {
    a = find(a), b = find(b);
    if (a != b) up[std::max(a, b)] = std::min(a, b);
  }
};

// The flood fill's voxels: beyond this many the grid would not fit in
// memory (20 bytes a voxel), and --voxel should be raised.
constexpr double kMaxVoxels = double(1 << 28);

// Pairs of points closer than `link` (minimum image), each once, through a
// periodic cell list of cells at least `link` wide (every pair when the box
// holds fewer than three a side). A sparse box gets wider cells: no more
// cells than about two a point, whatever the box's edges.
std::vector<std::pair<uint32_t, uint32_t>> close_pairs(const Box& box, const std::vector<Vec3d>& x, double link) {
  const Vec3d L = box.lengths(), lo = box.lo();
  std::array<double, 3> per_axis{std::floor(L.x / link), std::floor(L.y / link), std::floor(L.z / link)};
  const double most = std::max(27.0, 2.0 * double(x.size()));
  while (per_axis[0] * per_axis[1] * per_axis[2] > most) {
    double& widest = *std::max_element(per_axis.begin(), per_axis.end());
    widest = std::floor(widest / 2.0);
  }
  std::array<int, 3> n{};
  for (int a = 0; a < 3; ++a) {
    n[a] = std::max(1, int(per_axis[a]));
    if (n[a] < 3) n[a] = 1;
  }
  // Clamped as doubles: a point far outside the box would overflow an int.
  auto coord = [&](double v, double l0, double len, int k) {
    return int(std::clamp(std::floor((v - l0) / len * k), 0.0, double(k - 1)));
  };
  const std::size_t cells = std::size_t(n[0]) * n[1] * n[2];
  std::vector<uint32_t> head(cells, UINT32_MAX), next(x.size(), UINT32_MAX);
  std::vector<std::array<int, 3>> at(x.size());
  for (uint32_t i = 0; i < x.size(); ++i) {
    at[i] = {coord(x[i].x, lo.x, L.x, n[0]), coord(x[i].y, lo.y, L.y, n[1]), coord(x[i].z, lo.z, L.z, n[2])};
    const std::size_t c = (std::size_t(at[i][2]) * n[1] + at[i][1]) * n[0] + at[i][0];
    next[i] = head[c];
    head[c] = i;
  }
  std::vector<std::pair<uint32_t, uint32_t>> out;
  const double l2 = link * link;
  // Each neighbouring cell once: an axis of one cell has only itself.
  std::array<int, 3> reach{};
  for (int a = 0; a < 3; ++a) reach[a] = n[a] == 1 ? 0 : 1;
  for (uint32_t i = 0; i < x.size(); ++i) {
    for (int dz = -reach[2]; dz <= reach[2]; ++dz)
      for (int dy = -reach[1]; dy <= reach[1]; ++dy)
        for (int dx = -reach[0]; dx <= reach[0]; ++dx) {
          const int cx = (at[i][0] + dx + n[0]) % n[0], cy = (at[i][1] + dy + n[1]) % n[1],
                    cz = (at[i][2] + dz + n[2]) % n[2];
          const std::size_t c = (std::size_t(cz) * n[1] + cy) * n[0] + cx;
          for (uint32_t j = head[c]; j != UINT32_MAX; j = next[j]) {
            if (j <= i) continue;
            const Vec3d d = box.min_image(x[j] - x[i]);
            if (dot(d, d) < l2) out.emplace_back(i, j);
          }
        }
  }
  return out;
}

// Positions of a cluster unwrapped along its links from its first member,
// and whether it reaches its own periodic image (a link closes a loop with a
// different image).
bool unwrap(const Box& box, const std::vector<Vec3d>& x, const std::vector<uint32_t>& members,
            const std::vector<std::vector<uint32_t>>& adj, std::vector<Vec3d>& u, std::vector<char>& done) {
  bool spans = false;
  const Vec3d L = box.lengths();
  std::deque<uint32_t> q{members.front()};
  u[members.front()] = x[members.front()];
  done[members.front()] = 1;
  while (!q.empty()) {
    const uint32_t i = q.front();
    q.pop_front();
    for (uint32_t j : adj[i]) {
      const Vec3d want = u[i] + box.min_image(x[j] - x[i]);
      if (!done[j]) {
        done[j] = 1;
        u[j] = want;
        q.push_back(j);
      } else {
        const Vec3d d = want - u[j];
        if (std::fabs(d.x) > 0.5 * L.x || std::fabs(d.y) > 0.5 * L.y || std::fabs(d.z) > 0.5 * L.z) spans = true;
      }
    }
  }
  return spans;
}

// The 5th to 95th percentile spread and the median of sorted distances.
struct Spread {
  double median, width;
};
Spread spread_of(const std::vector<double>& d) {
  auto at = [&](double f) { return d[std::min(d.size() - 1, std::size_t(f * double(d.size() - 1) + 0.5))]; };
  return {at(0.5), at(0.95) - at(0.05)};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The membrane around a lumen, seen from the lumen's centre c along 32 cones
// of equal solid angle (4 bands of cos(theta), 8 sectors of phi): in each,
// the aggregate's hydrophobic beads from the innermost outwards until a gap
// in distance of `link` (nothing beyond it links to the wall inside that
// cone). A cone's wall lies at its beads' median distance and is their 5th
// to 95th percentile spread thick; the lumen's radius and bilayer thickness
// are the medians over the cones holding at least kMinWallBeads. Per cone,
// because an aggregate that holds a lumen has often fused with micelles,
// discs or other vesicles: about one lumen's centre, the spread of all its
// beads is the aggregate's extent (up to 11 r_c in the long form's frames,
// results/validation/gates-h200-2026-11-29/) and not its bilayer's 1.5-2.
// `beads` holds every cone's wall beads; `extent` is the spread of all the
// aggregate's beads (what the thickness was until 2026-11-29).
struct Wall {
  double radius = 0.0, thickness = 0.0, extent = 0.0;
  std::vector<uint32_t> beads;
};
constexpr int kBands = 4, kSectors = 8;
constexpr std::size_t kMinWallBeads = 3;

Wall wall_around(const Box& box, const std::vector<Vec3d>& x, const std::vector<uint32_t>& members, const Vec3d& c,
                 double link) {
  std::array<std::vector<std::pair<double, uint32_t>>, kBands * kSectors> cone;
  for (uint32_t i : members) {
    const Vec3d e = box.min_image(x[i] - c);
    const double r = std::sqrt(dot(e, e));
    const double z = r > 0.0 ? std::clamp(e.z / r, -1.0, 1.0) : 0.0;
    const int band = std::min(kBands - 1, int((z + 1.0) * 0.5 * kBands));
    const int sector =
        std::min(kSectors - 1, int((std::atan2(e.y, e.x) + std::numbers::pi) / (2.0 * std::numbers::pi) * kSectors));
    cone[std::size_t(band * kSectors + sector)].emplace_back(r, i);
  }
  Wall out;
  std::vector<double> radii, widths, d;
  for (auto& b : cone) {
    if (b.empty()) continue;
    std::sort(b.begin(), b.end());
    std::size_t n = 1;
    while (n < b.size() && b[n].first - b[n - 1].first < link) ++n;
    d.clear();
    for (std::size_t k = 0; k < n; ++k) {
      d.push_back(b[k].first);
      out.beads.push_back(b[k].second);
    }
    if (n < kMinWallBeads) continue;
    const Spread s = spread_of(d);
    radii.push_back(s.median);
    widths.push_back(s.width);
  }
  d.clear();
  for (const auto& b : cone)
    for (const auto& ri : b) d.push_back(ri.first);
  std::sort(d.begin(), d.end());
  const Spread all = spread_of(d);
  out.extent = all.width;
  if (radii.empty()) return {all.median, all.width, all.width, members};  // too few beads for any cone
  out.radius = median(radii);
  out.thickness = median(widths);
  return out;
}

}  // namespace

const char* to_string(AggregateKind k) {
  switch (k) {
    case AggregateKind::micelle: return "micelle";
    case AggregateKind::sheet: return "sheet";
    case AggregateKind::vesicle: return "vesicle";
  }
  return "?";
}

void MorphologyParams::validate() const {
  require_positive("morphology link", link);
  require_positive("morphology voxel", voxel);
  if (chain_length == 0) throw_input_error("morphology: chain_length = 0");
  if (!(flat > 0.0 && flat < 1.0)) throw_input_error("morphology: flat = ", flat, " (in (0, 1))");
  if (hydrophobic_type == solvent_type) throw_input_error("morphology: the hydrophobic and solvent types are one");
}

Morphology analyse_morphology(const Box& box, const ParticleData<double>& p, const MorphologyParams& m) {
  m.validate();
  const Vec3d edges = box.lengths();
  for (const double e : {edges.x, edges.y, edges.z})
    if (!(std::isfinite(e) && e > 0.0)) throw_input_error("morphology: box edge ", e, " (finite, > 0)");
  const double voxels = std::max(1.0, std::floor(edges.x / m.voxel)) * std::max(1.0, std::floor(edges.y / m.voxel)) *
                        std::max(1.0, std::floor(edges.z / m.voxel));
  if (voxels > kMaxVoxels)
    throw_input_error("morphology: a box of ", edges.x, " x ", edges.y, " x ", edges.z, " holds ", voxels,
                      " voxels of ", m.voxel, ", more than ", uint64_t(kMaxVoxels), ": raise --voxel");
  for (std::size_t i = 0; i < p.n_local; ++i)
    if (!(std::isfinite(p.position[i].x) && std::isfinite(p.position[i].y) && std::isfinite(p.position[i].z)))
      throw_input_error("morphology: the position of particle ", i, " is not finite");
  Morphology out;
  out.chains = m.chains;
  // 1. Aggregates of hydrophobic beads.
  std::vector<Vec3d> x;
  std::vector<uint32_t> tag;
  for (std::size_t i = 0; i < p.n_local; ++i)
    if (p.type[i] == m.hydrophobic_type) {
      x.push_back(p.position[i]);
      tag.push_back(p.tag[i]);
    }
  const auto pairs = close_pairs(box, x, m.link);
  UnionFind uf(x.size());
  std::vector<std::vector<uint32_t>> adj(x.size());
  for (const auto& [i, j] : pairs) {
    uf.join(i, j);
    adj[i].push_back(j);
    adj[j].push_back(i);
  }
  std::map<uint32_t, std::vector<uint32_t>> by_root;
  for (uint32_t i = 0; i < x.size(); ++i) by_root[uf.find(i)].push_back(i);
  std::vector<std::vector<uint32_t>> members;
  for (auto& [r, v] : by_root)
    if (v.size() >= m.min_beads) members.push_back(std::move(v));
  std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) {
    return a.size() != b.size() ? a.size() > b.size() : a.front() < b.front();
  });
  const std::size_t na = members.size();
  out.aggregates.resize(na);
  std::vector<Vec3d> u(x.size());
  std::vector<char> done(x.size(), 0);
  std::unordered_set<uint64_t> all_chains;
  const uint64_t chain_tags = m.chains * m.chain_length;
  for (std::size_t a = 0; a < na; ++a) {
    Aggregate& g = out.aggregates[a];
    g.beads = members[a].size();
    g.spans = unwrap(box, x, members[a], adj, u, done);
    std::unordered_set<uint64_t> chains;
    for (uint32_t i : members[a])
      if (tag[i] < chain_tags) chains.insert(tag[i] / m.chain_length);
    g.chains = chains.size();
    all_chains.insert(chains.begin(), chains.end());
  }
  out.chains_aggregated = all_chains.size();

  // 2. Membrane voxels (dilated by one) and the regions of the others.
  const Vec3d L = box.lengths(), lo = box.lo();
  const std::array<int, 3> nv{std::max(1, int(std::floor(L.x / m.voxel))), std::max(1, int(std::floor(L.y / m.voxel))),
                              std::max(1, int(std::floor(L.z / m.voxel)))};
  const std::array<double, 3> w{L.x / nv[0], L.y / nv[1], L.z / nv[2]};
  const std::size_t nvox = std::size_t(nv[0]) * nv[1] * nv[2];
  auto vox = [&](const Vec3d& r) {
    const std::array<double, 3> c{r.x - lo.x, r.y - lo.y, r.z - lo.z};
    std::array<int, 3> k;
    for (int a = 0; a < 3; ++a) k[a] = int(std::clamp(std::floor(c[a] / w[a]), 0.0, double(nv[a] - 1)));
    return k;
  };
  auto index = [&](int x0, int y0, int z0) {
    return (std::size_t((z0 + nv[2]) % nv[2]) * nv[1] + (y0 + nv[1]) % nv[1]) * nv[0] + (x0 + nv[0]) % nv[0];
  };
  std::vector<int32_t> owner(nvox, -1);  // aggregate of a membrane voxel
  for (std::size_t a = 0; a < na; ++a)
    for (uint32_t i : members[a]) {
      const auto k = vox(x[i]);
      const int r = m.dilate ? 1 : 0;
      for (int dz = -r; dz <= r; ++dz)
        for (int dy = -r; dy <= r; ++dy)
          for (int dx = -r; dx <= r; ++dx) owner[index(k[0] + dx, k[1] + dy, k[2] + dz)] = int32_t(a);
    }
  std::vector<int32_t> region(nvox, -1);
  std::vector<std::array<int, 3>> img(nvox);
  struct Region {
    uint64_t voxels = 0, solvent = 0;
    bool open = false;
    Vec3d sum{0, 0, 0};  // unwrapped voxel centres
    std::map<int32_t, uint64_t> walls;  // adjacent membrane voxels by aggregate
  };
  std::vector<Region> regions;
  for (std::size_t s = 0; s < nvox; ++s) {
    if (owner[s] >= 0 || region[s] >= 0) continue;
    const int32_t id = int32_t(regions.size());
    regions.emplace_back();
    Region& R = regions.back();
    std::deque<std::size_t> q{s};
    region[s] = id;
    img[s] = {0, 0, 0};
    while (!q.empty()) {
      const std::size_t v = q.front();
      q.pop_front();
      const int vx = int(v % nv[0]), vy = int((v / nv[0]) % nv[1]), vz = int(v / (std::size_t(nv[0]) * nv[1]));
      ++R.voxels;
      R.sum = R.sum + Vec3d{lo.x + (vx + 0.5 + img[v][0] * nv[0]) * w[0], lo.y + (vy + 0.5 + img[v][1] * nv[1]) * w[1],
                            lo.z + (vz + 0.5 + img[v][2] * nv[2]) * w[2]};
      static constexpr int kStep[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
      for (const auto& st : kStep) {
        const std::array<int, 3> c{vx + st[0], vy + st[1], vz + st[2]};
        std::array<int, 3> im = img[v];
        for (int a = 0; a < 3; ++a) im[a] += c[a] < 0 ? -1 : c[a] >= nv[a] ? 1 : 0;
        const std::size_t t = index(c[0], c[1], c[2]);
        if (owner[t] >= 0) {
          ++R.walls[owner[t]];
        } else if (region[t] < 0) {
          region[t] = id;
          img[t] = im;
          q.push_back(t);
        } else if (img[t] != im) {
          R.open = true;  // reached again through the boundary: its own periodic image
        }
      }
    }
  }
  for (std::size_t i = 0; i < p.n_local; ++i)
    if (p.type[i] == m.solvent_type) {
      const auto k = vox(p.position[i]);
      const int32_t r = region[index(k[0], k[1], k[2])];
      if (r >= 0) ++regions[r].solvent;
    }

  // 3. Pockets make vesicles; the rest by spanning and shape.
  // Largest lumen first: a multi-compartment vesicle's figures are its largest's.
  std::vector<const Region*> pockets;
  for (const Region& R : regions)
    if (!R.open && R.solvent >= m.min_pocket_solvent && !R.walls.empty()) pockets.push_back(&R);
  std::stable_sort(pockets.begin(), pockets.end(), [](const Region* a, const Region* b) { return a->voxels > b->voxels; });
  for (const Region* pr : pockets) {
    const Region& R = *pr;
    const auto wall = std::max_element(R.walls.begin(), R.walls.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
    Aggregate& g = out.aggregates[std::size_t(wall->first)];
    g.kind = AggregateKind::vesicle;
    if (g.pockets++ > 0) continue;  // the largest lumen's figures
    Vec3d c = (1.0 / double(R.voxels)) * R.sum;
    Image im{0, 0, 0};
    box.wrap(c, im);
    g.centre = c;
    g.lumen_volume = double(R.voxels) * w[0] * w[1] * w[2];
    const Wall around = wall_around(box, x, members[std::size_t(wall->first)], c, m.link);
    g.radius = around.radius;
    g.thickness = around.thickness;
    g.extent = around.extent;
    std::unordered_set<uint64_t> chains;
    for (uint32_t i : around.beads)
      if (tag[i] < chain_tags) chains.insert(tag[i] / m.chain_length);
    g.area_per_chain = chains.empty() ? 0.0 : 4.0 * std::numbers::pi * g.radius * g.radius / double(chains.size());
  }
  for (std::size_t a = 0; a < na; ++a) {
    Aggregate& g = out.aggregates[a];
    if (g.kind == AggregateKind::vesicle) {
      out.vesicles += g.pockets;
      continue;
    }
    bool flat = g.spans;
    if (!flat) {
      Vec3d mean{0, 0, 0};
      for (uint32_t i : members[a]) mean = mean + u[i];
      mean = (1.0 / double(g.beads)) * mean;
      Eigen::Matrix3d t = Eigen::Matrix3d::Zero();
      for (uint32_t i : members[a]) {
        const Vec3d e = u[i] - mean;
        const Eigen::Vector3d v(e.x, e.y, e.z);
        t += v * v.transpose();
      }
      const Eigen::Vector3d ev = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(t / double(g.beads)).eigenvalues();
      flat = ev(0) < m.flat * ev(1);  // a disk: one small extent (a rod has two and is a micelle)
    }
    g.kind = flat ? AggregateKind::sheet : AggregateKind::micelle;
    (flat ? out.sheets : out.micelles) += 1;
  }
  return out;
}

}  // namespace meso
