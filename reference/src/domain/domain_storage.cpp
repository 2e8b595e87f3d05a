// Reference particle storage for domain decomposition: plain loops over the
// structure of arrays. Ghosts are appended after the local particles in the
// order their messages arrive; each message's range is remembered so that
// update_ghosts writes the owners' new positions into the same slots.
#include "meso/reference/domain_storage.hpp"

#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/ops/domain_storage.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::reference {
namespace {

using Clock = std::chrono::steady_clock;

template <class Real>
class CpuDomainStorage final : public DomainStorageOp {
 public:
  explicit CpuDomainStorage(CpuContext<Real>& c) : c_(c) {}

  std::size_t n_local() const override { return c_.p.n_local; }
  std::size_t n_ghost() const override { return c_.p.n_ghost; }
  void set_domain(const Domain& d) override { c_.cells.restrict_to(d); }

  void clear_ghosts() override {
    c_.p.resize(c_.p.n_local, 0);
    if (!c_.v_pred.empty()) c_.v_pred.resize(c_.p.n_local);
    if (!c_.signature.empty()) c_.signature.resize(c_.p.n_local);
    for (auto& s : send_) s.clear();
    for (auto& r : range_) r = {0, 0};
  }

  void take_leavers(const DomainSlab& s, Records& to_lo, Records& to_hi) override {
    const auto t0 = Clock::now();
    ParticleData<Real>& p = c_.p;
    if (p.n_ghost) clear_ghosts();
    const bool pred = has_prediction();
    const double width = s.hi - s.lo;
    std::size_t keep = 0;
    for (std::size_t i = 0; i < p.n_local; ++i) {
      const double u = s.offset(coord(p.position[i], s.axis));
      if (u < width) {
        move(i, keep++, pred);
        continue;
      }
      // Outside: nearer to lo going backwards (offset near L) or to hi.
      Records& out = (s.length - u) < (u - width) ? to_lo : to_hi;
      pack_full(i, pred, out);
    }
    p.resize(keep, 0);
    if (pred) c_.v_pred.resize(keep);
    pack_s_ += seconds_since(t0);
  }

  void add_locals(const Records& rec) override {
    const auto t0 = Clock::now();
    check_records(rec, kMigrateRecord, "migration");
    ParticleData<Real>& p = c_.p;
    const bool pred = has_prediction();
    const std::size_t n0 = p.n_local, m = rec.size() / kMigrateRecord;
    p.resize(n0 + m, 0);
    if (pred) c_.v_pred.resize(n0 + m);
    for (std::size_t k = 0; k < m; ++k) {
      const double* r = rec.data() + k * kMigrateRecord;
      const std::size_t i = n0 + k;
      p.position[i] = vec_cast<Real>(Vec3d{r[0], r[1], r[2]});
      p.velocity[i] = vec_cast<Real>(Vec3d{r[3], r[4], r[5]});
      if (pred) c_.v_pred[i] = vec_cast<Real>(Vec3d{r[6], r[7], r[8]});
      p.image[i] = {static_cast<int32_t>(r[9]), static_cast<int32_t>(r[10]), static_cast<int32_t>(r[11])};
      p.type[i] = static_cast<uint32_t>(r[12]);
      p.tag[i] = static_cast<uint32_t>(r[13]);
      p.force[i] = Vec3<Real>{0, 0, 0};  // recomputed before the second half reads it
    }
    pack_s_ += seconds_since(t0);
  }

  void select_ghosts(const DomainSlab& s, bool one_neighbour, Records& to_lo,
                     Records& to_hi) override {
    const auto t0 = Clock::now();
    const ParticleData<Real>& p = c_.p;
    const double width = s.hi - s.lo;
    auto& lo_list = send_[2 * s.axis];
    auto& hi_list = send_[2 * s.axis + 1];
    lo_list.clear();
    hi_list.clear();
    for (std::size_t i = 0; i < p.size(); ++i) {
      const double u = s.offset(coord(p.position[i], s.axis));
      const bool near_lo = u < s.width, near_hi = u >= width - s.width && u < width;
      if (one_neighbour) {
        if (near_lo || near_hi) lo_list.push_back(static_cast<uint32_t>(i));
      } else {
        if (near_lo) lo_list.push_back(static_cast<uint32_t>(i));
        if (near_hi) hi_list.push_back(static_cast<uint32_t>(i));
      }
    }
    pack_list(lo_list, kGhostRecord, to_lo);
    pack_list(hi_list, kGhostRecord, to_hi);
    pack_s_ += seconds_since(t0);
  }

  void add_ghosts(int slot, const Records& rec) override {
    const auto t0 = Clock::now();
    check_records(rec, kGhostRecord, "ghost");
    ParticleData<Real>& p = c_.p;
    const bool pred = has_prediction();
    const std::size_t n0 = p.size(), m = rec.size() / kGhostRecord;
    range_[slot] = {n0, m};
    p.resize(p.n_local, p.n_ghost + m);
    if (pred) c_.v_pred.resize(n0 + m);
    for (std::size_t k = 0; k < m; ++k) {
      const double* r = rec.data() + k * kGhostRecord;
      const std::size_t i = n0 + k;
      unpack_state(i, r, pred);
      p.type[i] = static_cast<uint32_t>(r[6]);
      p.tag[i] = static_cast<uint32_t>(r[7]);
      p.image[i] = {0, 0, 0};
      p.force[i] = Vec3<Real>{0, 0, 0};
    }
    pack_s_ += seconds_since(t0);
  }

  void pack_update(int slot, Records& out) override {
    const auto t0 = Clock::now();
    pack_list(send_[slot], kUpdateRecord, out);
    pack_s_ += seconds_since(t0);
  }

  void unpack_update(int slot, const Records& in) override {
    const auto t0 = Clock::now();
    const auto [n0, m] = range_[slot];
    if (in.size() != m * kUpdateRecord)
      throw_input_error("ghost update ", slot, " carries ", in.size() / kUpdateRecord, " particles for ", m,
                        " ghosts");
    const bool pred = has_prediction();
    if (pred && c_.v_pred.size() < c_.p.size()) c_.v_pred.resize(c_.p.size());  // the prediction covers locals only
    for (std::size_t k = 0; k < m; ++k) unpack_state(n0 + k, in.data() + k * kUpdateRecord, pred);
    pack_s_ += seconds_since(t0);
  }

  double pack_seconds() const override { return pack_s_; }

 private:
  CpuContext<Real>& c_;
  std::array<std::vector<uint32_t>, 6> send_;  // send lists 2 axis + side
  std::array<std::pair<std::size_t, std::size_t>, 6> range_{};  // ghost ranges per message
  double pack_s_ = 0.0;

  static double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  }
  static double coord(const Vec3<Real>& r, int axis) {
    return static_cast<double>(axis == 0 ? r.x : axis == 1 ? r.y : r.z);
  }
  // Groot-Warren: the forces read the prediction, which ghosts must carry.
  // It exists (v_pred holds the locals and travels with them) from the
  // first first-half step on; before it (the forces of t = 0) the forces
  // read the velocities, and so do the ghosts.
  bool has_prediction() const {
    return c_.params.integrator == Integrator::groot_warren && !c_.v_pred.empty();
  }
  const Vec3<Real>* forces_velocity() const {
    return has_prediction() ? c_.v_pred.data() : c_.p.velocity.data();
  }
  static void check_records(const Records& rec, std::size_t size, const char* what) {
    if (rec.size() % size != 0)
      throw_input_error("a ", what, " message of ", rec.size(), " values is not a whole number of ", size,
                        "-value records");
  }
  void move(std::size_t from, std::size_t to, bool pred) {
    if (from == to) return;
    c_.p.copy_slot(to, c_.p, from);
    if (pred) c_.v_pred[to] = c_.v_pred[from];
  }
  void pack_full(std::size_t i, bool pred, Records& out) const {
    const ParticleData<Real>& p = c_.p;
    const Vec3d x = vec_cast<double>(p.position[i]), v = vec_cast<double>(p.velocity[i]);
    const Vec3d w = pred ? vec_cast<double>(c_.v_pred[i]) : v;
    const Image& im = p.image[i];
    const double r[kMigrateRecord] = {x.x, x.y, x.z, v.x, v.y, v.z, w.x, w.y, w.z,
                                      double(im.x), double(im.y), double(im.z), double(p.type[i]),
                                      double(p.tag[i])};
    out.insert(out.end(), r, r + kMigrateRecord);
  }
  // The records of `list`: position and the velocity the forces read
  // (kUpdateRecord), then type and tag for a new ghost (kGhostRecord).
  void pack_list(const std::vector<uint32_t>& list, std::size_t size, Records& out) const {
    const Vec3<Real>* v = forces_velocity();
    out.resize(list.size() * size);
    for (std::size_t k = 0; k < list.size(); ++k) {
      const uint32_t i = list[k];
      double* r = out.data() + k * size;
      const Vec3d x = vec_cast<double>(c_.p.position[i]), w = vec_cast<double>(v[i]);
      r[0] = x.x, r[1] = x.y, r[2] = x.z, r[3] = w.x, r[4] = w.y, r[5] = w.z;
      if (size == kGhostRecord) r[6] = double(c_.p.type[i]), r[7] = double(c_.p.tag[i]);
    }
  }
  // Slot i (a ghost) takes a record's position and velocity; the velocity is
  // what the owner's forces read, so it is the prediction too where there is one.
  void unpack_state(std::size_t i, const double* r, bool pred) {
    c_.p.position[i] = vec_cast<Real>(Vec3d{r[0], r[1], r[2]});
    const Vec3<Real> v = vec_cast<Real>(Vec3d{r[3], r[4], r[5]});
    c_.p.velocity[i] = v;
    if (pred) c_.v_pred[i] = v;
  }
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_domain_storage(CpuContext<Real>& c) {
  return std::make_unique<CpuDomainStorage<Real>>(c);
}

template std::unique_ptr<Operation> make_domain_storage<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_domain_storage<float>(CpuContext<float>&);

}  // namespace meso::reference
