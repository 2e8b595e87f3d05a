#include "meso/io/checkpoint_file.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <iterator>
#include <sstream>
#include <type_traits>
#include <vector>

#include "meso/core/error.hpp"
#include "meso/io/durable_file.hpp"
#include "meso/io/input_file.hpp"

namespace meso::io {
namespace {

constexpr char kMagic[8] = {'M', 'E', 'S', 'O', 'C', 'K', 'P', 'T'};
constexpr uint32_t kKindMd = 1, kKindMpcd = 2;
constexpr std::size_t kPreamble = sizeof(kMagic) + sizeof(uint32_t) + sizeof(uint64_t);
constexpr uint32_t kMaxIdentityString = 1u << 16;

// Payload bytes (after n and step), by the format in the header: what the
// length field must hold for a given n, checked before anything is sized by n.
constexpr uint64_t kMdFixed = 2 * sizeof(double) + sizeof(uint8_t);               // xi, eta, has_lists
constexpr uint64_t kMdPerParticle = 9 * sizeof(double) + 3 * sizeof(int32_t) + 2 * sizeof(uint32_t);
constexpr uint64_t kListsFixed = 2 * sizeof(uint32_t);                             // the two counters
constexpr uint64_t kListsPerParticle = sizeof(uint32_t) + 3 * sizeof(double);     // order, build position
// The list state of several ranks (has_lists = 2) ends in the rank grid
// (3 u32) and how many particles each rank held (u64 a rank).
constexpr uint64_t kRankGridBytes = 3 * sizeof(uint32_t);
// Orientational particles, after the lists: a flag (1), then per particle
// the orientation, angular momentum, moments of inertia and torque. A file
// without them is byte for byte the older layout.
constexpr uint64_t kRotationFixed = sizeof(uint8_t);
constexpr uint64_t kRotationPerParticle = 13 * sizeof(double);
constexpr uint64_t kMpcdPerParticle = 6 * sizeof(double) + 3 * sizeof(int32_t) + 2 * sizeof(uint32_t);

class Writer {
 public:
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* b = reinterpret_cast<const char*>(&v);
    bytes_.append(b, sizeof(T));
  }
  void put(const std::string& s) {
    put(static_cast<uint32_t>(s.size()));
    bytes_.append(s);
  }
  template <class V>
  void put_vec3s(const std::vector<V>& v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) put(v[i].x), put(v[i].y), put(v[i].z);
  }
  template <class T>
  void put_all(const std::vector<T>& v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) put(v[i]);
  }
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
};

class Reader {
 public:
  Reader(const char* p, std::size_t n, const std::string& path) : p_(p), end_(p + n), path_(path) {}
  template <class T>
  T get() {
    T v;
    need(sizeof(T));
    std::memcpy(&v, p_, sizeof(T));
    p_ += sizeof(T);
    return v;
  }
  // An identity string: printable text of a sane length (the writer's are
  // names and key=value lists), so that messages can quote it.
  std::string get_string(const char* field) {
    const auto len = get<uint32_t>();
    if (len > kMaxIdentityString)
      throw_input_error("checkpoint '", path_, "': ", field, " is ", len, " bytes long (at most ", kMaxIdentityString,
                        ")");
    need(len);
    std::string s(p_, len);
    p_ += len;
    for (const char c : s)
      if (c < 0x20 || c > 0x7e)
        throw_input_error("checkpoint '", path_, "': ", field, " '", excerpt(s), "' is not printable text");
    return s;
  }
  template <class V, class C>
  std::vector<V> get_vec3s(std::size_t n) {
    need(3 * sizeof(C) * n);
    std::vector<V> v(n);
    for (auto& e : v) e.x = get<C>(), e.y = get<C>(), e.z = get<C>();
    return v;
  }
  template <class T>
  std::vector<T> get_all(std::size_t n) {
    need(sizeof(T) * n);
    std::vector<T> v(n);
    for (auto& e : v) e = get<T>();
    return v;
  }
  std::size_t left() const { return static_cast<std::size_t>(end_ - p_); }
  // The byte `offset` bytes ahead, not consumed (the list flag, read ahead
  // to know the payload's size before anything is allocated).
  uint8_t peek(std::size_t offset) const {
    need(offset + 1);
    return static_cast<uint8_t>(p_[offset]);
  }
  uint32_t peek_u32(std::size_t offset) const {
    need(offset + sizeof(uint32_t));
    uint32_t v;
    std::memcpy(&v, p_ + offset, sizeof(v));
    return v;
  }
  bool done() const { return p_ == end_; }

 private:
  void need(std::size_t k) const {
    if (left() < k) throw_input_error("checkpoint '", path_, "' is corrupt: its payload ends early");
  }
  const char* p_;
  const char* end_;
  const std::string& path_;
};

// n is the count of the arrays that follow (the reader sizes them by it).
void put_identity(Writer& w, uint32_t kind, const CheckpointIdentity& id, uint64_t n, uint64_t step) {
  w.put(kind);
  w.put(id.workload);
  w.put(id.setup);
  w.put(id.backend);
  w.put(id.precision);
  w.put(n);
  w.put(step);
}

// Preamble, body, checksum; then the durable replace.
void finish(const std::string& path, Writer& body) {
  std::string file(kMagic, sizeof(kMagic));
  const uint32_t version = kCheckpointFormat;
  const uint64_t length = body.bytes().size();
  file.append(reinterpret_cast<const char*>(&version), sizeof(version));
  file.append(reinterpret_cast<const char*>(&length), sizeof(length));
  file += body.bytes();
  const uint64_t sum = fnv1a64(body.bytes().data(), body.bytes().size());
  file.append(reinterpret_cast<const char*>(&sum), sizeof(sum));
  write_file_durably(path, file);
}

}  // namespace

uint64_t fnv1a64(const void* data, std::size_t bytes, uint64_t h) {
  const auto* b = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

void write_checkpoint(const std::string& path, const CheckpointIdentity& id, const Checkpoint& cp) {
  if (cp.solvent.size() != 0) return write_checkpoint(path, id, cp.step, cp.solvent);
  const ParticleData<double>& p = cp.particles;
  const std::size_t n = p.n_local;
  Writer w;
  put_identity(w, kKindMd, id, n, cp.step);
  w.put(cp.integrator.xi);
  w.put(cp.integrator.eta);
  w.put_vec3s(p.position, n);
  w.put_vec3s(p.velocity, n);
  w.put_vec3s(p.force, n);
  w.put_vec3s(p.image, n);
  w.put_all(p.type, n);
  w.put_all(p.tag, n);
  const ListRestartState& l = cp.lists;
  const bool lists = cp.exact();
  if (lists && (l.order.size() != n || l.build_position.size() != n))
    throw std::logic_error("write_checkpoint: list state of " + std::to_string(l.order.size()) + " tags and " +
                           std::to_string(l.build_position.size()) + " build positions for N = " + std::to_string(n));
  const bool on_ranks = lists && !cp.rank_counts.empty();
  if (on_ranks) {
    uint64_t sum = 0;
    for (const uint64_t k : cp.rank_counts) sum += k;
    const auto grid_ranks = std::size_t(cp.grid[0]) * cp.grid[1] * cp.grid[2];
    if (sum != n || grid_ranks != cp.rank_counts.size())
      throw std::logic_error("write_checkpoint: " + std::to_string(cp.rank_counts.size()) + " ranks holding " +
                             std::to_string(sum) + " particles for N = " + std::to_string(n) + " on a grid of " +
                             std::to_string(grid_ranks));
  }
  w.put(static_cast<uint8_t>(on_ranks ? 2 : lists ? 1 : 0));
  if (lists) {
    w.put_all(l.order, n);
    w.put_vec3s(l.build_position, n);
    w.put(l.steps_since_build);
    w.put(l.steps_since_sort);
  }
  if (on_ranks) {
    for (const int g : cp.grid) w.put(static_cast<uint32_t>(g));
    w.put_all(cp.rank_counts, cp.rank_counts.size());
  }
  if (p.rotational) {
    w.put(static_cast<uint8_t>(1));
    for (std::size_t i = 0; i < n; ++i) {
      const Quatd& q = p.orientation[i];
      w.put(q.s), w.put(q.v.x), w.put(q.v.y), w.put(q.v.z);
    }
    w.put_vec3s(p.angmom, n);
    w.put_vec3s(p.inertia, n);
    w.put_vec3s(p.torque, n);
  }
  finish(path, w);
}

void write_checkpoint(const std::string& path, const CheckpointIdentity& id, uint64_t step,
                      const MpcdParticles& s) {
  const std::size_t n = s.size();
  Writer w;
  put_identity(w, kKindMpcd, id, n, step);
  w.put_vec3s(s.position, n);
  w.put_vec3s(s.velocity, n);
  w.put_vec3s(s.image, n);
  w.put_all(s.type, n);
  w.put_all(s.tag, n);
  finish(path, w);
}

namespace {

// The bytes after the preamble (body and checksum). Only a regular file is
// opened (input_file.hpp), and only the preamble is read before the file is
// known to be a checkpoint of the size its length field states: a foreign
// file of any size costs 20 bytes.
std::string read_body(const std::string& path) {
  namespace fs = std::filesystem;
  std::ifstream in = open_input_file(path, "checkpoint");
  char pre[kPreamble];
  in.read(pre, kPreamble);
  if (static_cast<std::size_t>(in.gcount()) < kPreamble || std::memcmp(pre, kMagic, sizeof(kMagic)) != 0)
    throw_input_error("'", path, "' is not a mesobench checkpoint (no MESOCKPT header)");
  uint32_t version = 0;
  uint64_t length = 0;
  std::memcpy(&version, pre + sizeof(kMagic), sizeof(version));
  std::memcpy(&length, pre + sizeof(kMagic) + sizeof(version), sizeof(length));
  if (version != kCheckpointFormat)
    throw_input_error("checkpoint '", path, "' has format version ", version, "; this mesobench reads version ",
                      kCheckpointFormat);
  std::error_code ec;
  const uint64_t size = fs::file_size(path, ec);
  if (ec) throw_input_error("cannot read checkpoint '", path, "': ", ec.message());
  // length is compared with the size first: kPreamble + length cannot wrap.
  if (length > size || size != kPreamble + length + sizeof(uint64_t))
    throw_input_error("checkpoint '", path, "' is truncated or damaged: ", size, " bytes, its header says ",
                      length > size ? std::string("more than the file holds")
                                    : std::to_string(kPreamble + length + sizeof(uint64_t)));
  std::string body(length + sizeof(uint64_t), '\0');
  in.read(body.data(), static_cast<std::streamsize>(body.size()));
  if (static_cast<std::size_t>(in.gcount()) != body.size())
    throw_input_error("checkpoint '", path, "' is truncated: it ended while being read");
  return body;
}

[[noreturn]] void refuse_count(uint64_t n, std::size_t payload, const std::string& path) {
  throw_input_error("checkpoint '", path, "' is corrupt: its header says N = ", n, ", which does not fit the ",
                    payload, " bytes of its payload", n == 0 ? " (a checkpoint holds at least one particle)" : "");
}

template <class V>
void check_finite(const std::vector<V>& v, const char* field, const std::vector<uint32_t>& tag,
                  const std::string& path) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!(std::isfinite(v[i].x) && std::isfinite(v[i].y) && std::isfinite(v[i].z)))
      throw_input_error("checkpoint '", path, "': particle ", i, " (tag ", tag[i], ") has ", field, " (", v[i].x,
                        ", ", v[i].y, ", ", v[i].z, "), which is not finite");
}

// Image counters far from overflow: a continued run adds crossings to them,
// and int32 overflow is undefined. 2^30 crossings is beyond any run.
constexpr int32_t kMaxImage = 1 << 30;

void check_images(const std::vector<Image>& img, const std::vector<uint32_t>& tag, const std::string& path) {
  auto bad = [](int32_t k) { return k > kMaxImage || k < -kMaxImage; };
  for (std::size_t i = 0; i < img.size(); ++i)
    if (bad(img[i].x) || bad(img[i].y) || bad(img[i].z))
      throw_input_error("checkpoint '", path, "': particle ", i, " (tag ", tag[i], ") has image (", img[i].x, ", ",
                        img[i].y, ", ", img[i].z, "), beyond +-2^30 box crossings");
}

// The writer stores tags 0 .. n-1 (checkpoints are in tag order; bonded
// forces and the restart's tag lookups rely on it); `order` is the storage
// order of the same tags.
void check_permutation(const std::vector<uint32_t>& v, const char* field, const std::string& path) {
  std::vector<bool> seen(v.size(), false);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] >= v.size())
      throw_input_error("checkpoint '", path, "': ", field, "[", i, "] = ", v[i], " is not a tag of its N = ",
                        v.size(), " particles (0 .. ", v.size() - 1, ")");
    if (seen[v[i]]) throw_input_error("checkpoint '", path, "': ", field, "[", i, "] = ", v[i], " appears twice");
    seen[v[i]] = true;
  }
}

// Every field the format does not already bound, against what the writer
// produces (docs/io.md, "Checkpoints").
void check_md_fields(const CheckpointFile& f, const std::string& path) {
  const Checkpoint& cp = f.md;
  const ParticleData<double>& p = cp.particles;
  if (!std::isfinite(cp.integrator.xi) || !std::isfinite(cp.integrator.eta))
    throw_input_error("checkpoint '", path, "': the thermostat variables xi = ", cp.integrator.xi,
                      ", eta = ", cp.integrator.eta, " are not finite");
  check_permutation(p.tag, "tag", path);
  check_finite(p.position, "position", p.tag, path);
  check_finite(p.velocity, "velocity", p.tag, path);
  check_finite(p.force, "force", p.tag, path);
  check_images(p.image, p.tag, path);
  if (p.rotational) {
    check_finite(p.angmom, "angular momentum", p.tag, path);
    check_finite(p.inertia, "moment of inertia", p.tag, path);
    check_finite(p.torque, "torque", p.tag, path);
    // What System::validate asks of orientations, checked where the file is named.
    for (std::size_t i = 0; i < p.n_local; ++i) {
      const double n2 = norm2(p.orientation[i]);
      if (!(std::abs(n2 - 1.0) <= 1e-6))
        throw_input_error("checkpoint '", path, "': particle ", i, " (tag ", p.tag[i], ") has an orientation of ",
                          "norm^2 ", n2, ", not a unit quaternion");
      const Vec3d I = p.inertia[i];
      if (I.x < 0.0 || I.y < 0.0 || I.z < 0.0)
        throw_input_error("checkpoint '", path, "': particle ", i, " (tag ", p.tag[i], ") has a negative moment ",
                          "of inertia (", I.x, ", ", I.y, ", ", I.z, ")");
    }
  }
  if (!cp.exact()) return;
  const ListRestartState& l = cp.lists;
  if (!cp.rank_counts.empty()) {
    uint64_t sum = 0;  // stops past N, so it cannot wrap
    for (std::size_t r = 0; r < cp.rank_counts.size() && sum <= p.n_local; ++r)
      sum += std::min<uint64_t>(cp.rank_counts[r], p.n_local + 1);
    if (sum != p.n_local)
      throw_input_error("checkpoint '", path, "': its ", cp.rank_counts.size(), " ranks hold ", sum,
                        " particles, not its N = ", p.n_local);
  }
  check_permutation(l.order, "list order", path);
  check_finite(l.build_position, "list build position", l.order, path);
  // Both counters advance once a step from 0 (the first build, the first
  // sort), so neither exceeds the step; UINT32_MAX is "no sort yet".
  if (l.steps_since_build > f.step)
    throw_input_error("checkpoint '", path, "': steps_since_build = ", l.steps_since_build,
                      " is more than its step ", f.step);
  if (l.steps_since_sort > f.step && l.steps_since_sort != UINT32_MAX)
    throw_input_error("checkpoint '", path, "': steps_since_sort = ", l.steps_since_sort,
                      " is more than its step ", f.step, " (and not 4294967295, no sort yet)");
}

void check_mpcd_fields(const CheckpointFile& f, const std::string& path) {
  const MpcdParticles& s = f.solvent;
  check_permutation(s.tag, "tag", path);
  check_finite(s.position, "position", s.tag, path);
  check_finite(s.velocity, "velocity", s.tag, path);
  check_images(s.image, s.tag, path);
}

}  // namespace

CheckpointFile read_checkpoint(const std::string& path) {
  const std::string file = read_body(path);
  const std::size_t length = file.size() - sizeof(uint64_t);
  const char* body = file.data();
  uint64_t stored = 0;
  std::memcpy(&stored, body + length, sizeof(stored));
  if (fnv1a64(body, length) != stored)
    throw_input_error("checkpoint '", path, "' is corrupt: its FNV-1a checksum does not match its contents");

  Reader r(body, length, path);
  CheckpointFile f;
  const auto kind = r.get<uint32_t>();
  if (kind != kKindMd && kind != kKindMpcd)
    throw_input_error("checkpoint '", path, "' has unknown kind ", kind, " (1: MD, 2: MPCD)");
  f.mpcd = kind == kKindMpcd;
  CheckpointIdentity& id = f.identity;
  id.workload = r.get_string("workload");
  id.setup = r.get_string("setup");
  id.backend = r.get_string("backend");
  id.precision = r.get_string("precision");
  id.n = r.get<uint64_t>();
  f.step = r.get<uint64_t>();
  const uint64_t n = id.n;
  if (f.mpcd) {
    if (n == 0 || n > r.left() / kMpcdPerParticle || n * kMpcdPerParticle != r.left())
      refuse_count(n, r.left(), path);
    MpcdParticles& s = f.solvent;
    s.position = r.get_vec3s<Vec3d, double>(n);
    s.velocity = r.get_vec3s<Vec3d, double>(n);
    s.image = r.get_vec3s<Image, int32_t>(n);
    s.type = r.get_all<uint32_t>(n);
    s.tag = r.get_all<uint32_t>(n);
    check_mpcd_fields(f, path);
  } else {
    // N fixes the payload's size with or without the list state and the
    // orientations; the flags, where that layout puts them, must then agree.
    const std::size_t left = r.left();
    const uint64_t per = kMdPerParticle;
    // With has_lists = 2 the rank grid after the lists sizes the ranks'
    // counts: read ahead, bounded by the payload, before the layouts are tried.
    std::array<uint32_t, 3> grid{1, 1, 1};
    uint64_t rank_bytes = 0;
    if (n != 0 && n <= left / per && r.peek(2 * sizeof(double) + n * per) == 2) {
      const std::size_t at = 2 * sizeof(double) + n * per + sizeof(uint8_t) + n * kListsPerParticle + kListsFixed;
      uint64_t ranks = 1;
      for (int a = 0; a < 3; ++a) {
        grid[a] = r.peek_u32(at + a * sizeof(uint32_t));
        if (grid[a] == 0 || grid[a] > left) refuse_count(n, left, path);
        ranks *= grid[a];
        if (ranks > left / sizeof(uint64_t)) refuse_count(n, left, path);
      }
      rank_bytes = kRankGridBytes + ranks * sizeof(uint64_t);
    }
    bool lists = false, rotation = false, fits = false;
    for (int k = 0; k < 4 && !fits; ++k) {
      lists = k & 1;
      rotation = k & 2;
      const uint64_t each = per + (lists ? kListsPerParticle : 0) + (rotation ? kRotationPerParticle : 0);
      const uint64_t fixed = kMdFixed + (lists ? kListsFixed + rank_bytes : 0) + (rotation ? kRotationFixed : 0);
      fits = n != 0 && n <= left / each && n * each + fixed == left;
    }
    if (!fits) refuse_count(n, left, path);
    const uint8_t flag = r.peek(2 * sizeof(double) + n * per);
    const unsigned expected = lists ? (rank_bytes ? 2 : 1) : 0;
    if (flag != expected)
      throw_input_error("checkpoint '", path, "': has_lists = ", unsigned(flag), " where N = ", n, " and its size say ",
                        expected, " (0: no list state, 1: list state, 2: list state of several ranks)");
    Checkpoint& cp = f.md;
    cp.step = f.step;
    cp.integrator.xi = r.get<double>();
    cp.integrator.eta = r.get<double>();
    ParticleData<double>& p = cp.particles;
    p.resize(n);
    p.position = r.get_vec3s<Vec3d, double>(n);
    p.velocity = r.get_vec3s<Vec3d, double>(n);
    p.force = r.get_vec3s<Vec3d, double>(n);
    p.image = r.get_vec3s<Image, int32_t>(n);
    p.type = r.get_all<uint32_t>(n);
    p.tag = r.get_all<uint32_t>(n);
    if (r.get<uint8_t>()) {
      ListRestartState& l = cp.lists;
      l.order = r.get_all<uint32_t>(n);
      l.build_position = r.get_vec3s<Vec3d, double>(n);
      l.steps_since_build = r.get<uint32_t>();
      l.steps_since_sort = r.get<uint32_t>();
    }
    if (rank_bytes) {
      for (int a = 0; a < 3; ++a) cp.grid[a] = static_cast<int>(r.get<uint32_t>());
      cp.rank_counts = r.get_all<uint64_t>(std::size_t(grid[0]) * grid[1] * grid[2]);
    }
    if (rotation) {
      if (const uint8_t on = r.get<uint8_t>(); on != 1)
        throw_input_error("checkpoint '", path, "': has_orientations = ", unsigned(on),
                          " where N = ", n, " and its size say 1");
      p.set_rotational(true);
      for (std::size_t i = 0; i < n; ++i) {
        Quatd& q = p.orientation[i];
        q.s = r.get<double>(), q.v.x = r.get<double>(), q.v.y = r.get<double>(), q.v.z = r.get<double>();
      }
      p.angmom = r.get_vec3s<Vec3d, double>(n);
      p.inertia = r.get_vec3s<Vec3d, double>(n);
      p.torque = r.get_vec3s<Vec3d, double>(n);
    }
    check_md_fields(f, path);
  }
  if (!r.done()) throw_input_error("checkpoint '", path, "' is corrupt: bytes after its payload");
  return f;
}

}  // namespace meso::io
