// Reference polymerization. Each attempt bins the free monomers into cells
// at least one capture radius wide, so an end looks only at its own and the
// 26 neighbouring cells (fewer distinct ones when an axis has under 3
// cells). Every end's choice is the minimum of a key per candidate, and
// every contest the minimum of a claim per end (meso/physics/
// polymerization.hpp): no result depends on the order of the particles,
// the cells or the threads. Bonds are appended in the order of their end's
// tag, so the topology is the same on any platform.
#include "meso/reference/polymerize.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "meso/ops/polymerize.hpp"
#include "meso/physics/polymerization.hpp"
#include "meso/core/polymerization.hpp"

namespace meso::reference {
namespace {

template <class Real>
class CpuPolymerize final : public PolymerizeOp {
 public:
  explicit CpuPolymerize(CpuContext<Real>& c) : c_(c) {
    const Polymerization& pz = c.sys.polymerization;
    const std::size_t n = c.p.n_local;
    free_.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) free_[c.p.tag[i]] = c.p.type[i] == pz.monomer_type;
    for (const Bond& b : c.sys.topology.bonds) free_[b.a] = free_[b.b] = 0;
    ends_ = pz.initiators;
    for (uint32_t t : ends_) free_[t] = 0;
    stats_.initial_monomers = stats_.free_monomers =
        static_cast<uint64_t>(std::count(free_.begin(), free_.end(), uint8_t{1}));
    stats_.growth.assign(ends_.size(), 0);
  }

  void apply(uint64_t step) override {
    const Polymerization& pz = c_.sys.polymerization;
    ParticleData<Real>& p = c_.p;
    const std::size_t n = p.n_local;
    index_of_tag_.resize(n);
    for (std::size_t i = 0; i < n; ++i) index_of_tag_[p.tag[i]] = static_cast<uint32_t>(i);
    bin_free_monomers();
    const Box& box = c_.sys.box;
    const double rc2 = pz.capture_radius * pz.capture_radius;
    const uint32_t seed = c_.params.seed;
    constexpr uint64_t kNone = ~uint64_t{0};
    // Each end's candidate: the smallest key in its capture sphere.
    choice_.assign(ends_.size(), kNone);
    uint64_t attempting = 0, candidates = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : attempting, candidates)
    for (std::size_t k = 0; k < ends_.size(); ++k) {
      const uint32_t e = ends_[k];
      if (!physics::polymerization_accepts(seed, step, e, pz.probability_of(k))) continue;
      const Vec3d xe = vec_cast<double>(p.position[index_of_tag_[e]]);
      uint64_t best = kNone;
      for_each_nearby_cell(xe, [&](std::size_t cell) {
        for (uint32_t q = cell_start_[cell]; q < cell_start_[cell + 1]; ++q) {
          const uint32_t m = cell_member_[q];
          const Vec3d d = box.min_image(vec_cast<double>(p.position[index_of_tag_[m]]) - xe);
          if (dot(d, d) <= rc2) {
            best = std::min(best, physics::polymerization_candidate(seed, step, e, m));
            ++candidates;
          }
        }
      });
      ++attempting;
      choice_[k] = best;
    }
    stats_.attempting += attempting;
    stats_.candidates += candidates;
    stats_.box_monomers += static_cast<double>(attempting) * static_cast<double>(stats_.free_monomers);
    // Contests: a monomer joins the end of the smallest claim on it.
    claims_.clear();
    for (std::size_t k = 0; k < ends_.size(); ++k)
      if (choice_[k] != kNone)
        claims_.push_back({static_cast<uint32_t>(choice_[k]), physics::polymerization_claim(choice_[k], ends_[k]),
                           static_cast<uint32_t>(k)});
    std::sort(claims_.begin(), claims_.end(), [](const Claim& a, const Claim& b) {
      return a.monomer != b.monomer ? a.monomer < b.monomer : a.claim < b.claim;
    });
    winners_.clear();
    for (std::size_t q = 0; q < claims_.size(); ++q) {
      if (q > 0 && claims_[q].monomer == claims_[q - 1].monomer) {
        ++stats_.contested;
        continue;
      }
      winners_.push_back(claims_[q]);
    }
    std::sort(winners_.begin(), winners_.end(),
              [&](const Claim& a, const Claim& b) { return ends_[a.chain] < ends_[b.chain]; });
    for (const Claim& w : winners_) {
      const Bond bond{ends_[w.chain], w.monomer, pz.bond_type};
      c_.sys.topology.bonds.push_back(bond);
      formed_.push_back(bond);
      p.type[index_of_tag_[w.monomer]] = pz.reacted_type;
      free_[w.monomer] = 0;
      ends_[w.chain] = w.monomer;
      ++stats_.growth[w.chain];
    }
    stats_.reactions += winners_.size();
    stats_.free_monomers -= winners_.size();
    ++stats_.attempts;
  }

  PolymerizationStats stats() const override { return stats_; }
  const std::vector<Bond>& formed() const override { return formed_; }

 private:
  struct Claim {
    uint32_t monomer;
    uint64_t claim;
    uint32_t chain;
  };
  CpuContext<Real>& c_;
  std::vector<uint8_t> free_;     // by tag
  std::vector<uint32_t> ends_;    // per chain (initiator order): the tag of its active end
  PolymerizationStats stats_;
  std::vector<Bond> formed_;
  std::vector<uint32_t> index_of_tag_, cell_start_, cell_member_;
  std::vector<uint64_t> choice_;
  std::vector<Claim> claims_, winners_;
  uint32_t nc_[3] = {1, 1, 1};

  uint32_t cell_of(const Vec3d& x, int axis) const {
    const Vec3d lo = c_.sys.box.lo(), l = c_.sys.box.lengths();
    return physics::polymerization_cell((&x.x)[axis], (&lo.x)[axis], (&l.x)[axis], nc_[axis]);
  }

  // Counting sort of the free monomers into cells of width >= r_capture.
  void bin_free_monomers() {
    const Vec3d l = c_.sys.box.lengths();
    const double rc = c_.sys.polymerization.capture_radius;
    for (int a = 0; a < 3; ++a) nc_[a] = std::max<uint32_t>(1, static_cast<uint32_t>((&l.x)[a] / rc));
    const std::size_t cells = std::size_t(nc_[0]) * nc_[1] * nc_[2];
    cell_start_.assign(cells + 1, 0);
    cell_member_.resize(stats_.free_monomers);
    auto cell = [&](uint32_t tag) {
      const Vec3d x = vec_cast<double>(c_.p.position[index_of_tag_[tag]]);
      return (std::size_t(cell_of(x, 2)) * nc_[1] + cell_of(x, 1)) * nc_[0] + cell_of(x, 0);
    };
    for (uint32_t t = 0; t < free_.size(); ++t)
      if (free_[t]) ++cell_start_[cell(t) + 1];
    for (std::size_t k = 0; k < cells; ++k) cell_start_[k + 1] += cell_start_[k];
    std::vector<uint32_t> fill(cell_start_.begin(), cell_start_.end() - 1);
    for (uint32_t t = 0; t < free_.size(); ++t)
      if (free_[t]) cell_member_[fill[cell(t)]++] = t;
  }

  // Calls f(cell) once for each distinct cell within one of x's cell per axis.
  template <class F>
  void for_each_nearby_cell(const Vec3d& x, F&& f) const {
    uint32_t near[3][3], count[3];
    for (int a = 0; a < 3; ++a) {
      const uint32_t c = cell_of(x, a), nc = nc_[a];
      count[a] = 0;
      for (uint32_t off : {nc - 1, 0u, 1u}) {  // c - 1, c, c + 1 modulo nc
        const uint32_t k = (c + off) % nc;
        if (std::find(near[a], near[a] + count[a], k) == near[a] + count[a]) near[a][count[a]++] = k;
      }
    }
    for (uint32_t z = 0; z < count[2]; ++z)
      for (uint32_t y = 0; y < count[1]; ++y)
        for (uint32_t xx = 0; xx < count[0]; ++xx)
          f((std::size_t(near[2][z]) * nc_[1] + near[1][y]) * nc_[0] + near[0][xx]);
  }
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_polymerize(CpuContext<Real>& c) {
  return std::make_unique<CpuPolymerize<Real>>(c);
}

template std::unique_ptr<Operation> make_polymerize<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_polymerize<float>(CpuContext<float>&);

}  // namespace meso::reference
