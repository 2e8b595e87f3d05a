#include "meso/io/checkpoint_file.hpp"

#include <cstring>
#include <stdexcept>
#include <fstream>
#include <iterator>
#include <sstream>
#include <type_traits>
#include <vector>

#include "meso/error.hpp"
#include "meso/io/durable_file.hpp"

namespace meso::io {
namespace {

constexpr char kMagic[8] = {'M', 'E', 'S', 'O', 'C', 'K', 'P', 'T'};
constexpr uint32_t kKindMd = 1, kKindMpcd = 2;
constexpr std::size_t kPreamble = sizeof(kMagic) + sizeof(uint32_t) + sizeof(uint64_t);

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
  std::string get_string() {
    const auto len = get<uint32_t>();
    need(len);
    std::string s(p_, len);
    p_ += len;
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
  bool done() const { return p_ == end_; }

 private:
  void need(std::size_t k) const {
    if (static_cast<std::size_t>(end_ - p_) < k)
      throw_input_error("checkpoint '", path_, "' is corrupt: its payload ends early");
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
  w.put(static_cast<uint8_t>(lists));
  if (lists) {
    w.put_all(l.order, n);
    w.put_vec3s(l.build_position, n);
    w.put(l.steps_since_build);
    w.put(l.steps_since_sort);
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

CheckpointFile read_checkpoint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_input_error("cannot read checkpoint '", path, "': ", std::strerror(errno));
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (file.size() < kPreamble || std::memcmp(file.data(), kMagic, sizeof(kMagic)) != 0)
    throw_input_error("'", path, "' is not a mesobench checkpoint (no MESOCKPT header)");
  uint32_t version = 0;
  uint64_t length = 0;
  std::memcpy(&version, file.data() + sizeof(kMagic), sizeof(version));
  std::memcpy(&length, file.data() + sizeof(kMagic) + sizeof(version), sizeof(length));
  if (version != kCheckpointFormat)
    throw_input_error("checkpoint '", path, "' has format version ", version, "; this mesobench reads version ",
                      kCheckpointFormat);
  const uint64_t expected = kPreamble + length + sizeof(uint64_t);
  if (length > file.size() || file.size() != expected)
    throw_input_error("checkpoint '", path, "' is truncated or damaged: ", file.size(), " bytes, its header says ",
                      expected);
  const char* body = file.data() + kPreamble;
  uint64_t stored = 0;
  std::memcpy(&stored, body + length, sizeof(stored));
  if (fnv1a64(body, length) != stored)
    throw_input_error("checkpoint '", path, "' is corrupt: its FNV-1a checksum does not match its contents");

  Reader r(body, length, path);
  CheckpointFile f;
  const auto kind = r.get<uint32_t>();
  if (kind != kKindMd && kind != kKindMpcd) throw_input_error("checkpoint '", path, "' has unknown kind ", kind);
  f.mpcd = kind == kKindMpcd;
  CheckpointIdentity& id = f.identity;
  id.workload = r.get_string();
  id.setup = r.get_string();
  id.backend = r.get_string();
  id.precision = r.get_string();
  id.n = r.get<uint64_t>();
  f.step = r.get<uint64_t>();
  const std::size_t n = id.n;
  if (f.mpcd) {
    MpcdParticles& s = f.solvent;
    s.position = r.get_vec3s<Vec3d, double>(n);
    s.velocity = r.get_vec3s<Vec3d, double>(n);
    s.image = r.get_vec3s<Image, int32_t>(n);
    s.type = r.get_all<uint32_t>(n);
    s.tag = r.get_all<uint32_t>(n);
  } else {
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
  }
  if (!r.done()) throw_input_error("checkpoint '", path, "' is corrupt: bytes after its payload");
  return f;
}

void require_same_run(const CheckpointIdentity& file, const CheckpointIdentity& run, const std::string& path) {
  auto check = [&](const char* field, const std::string& a, const std::string& b) {
    if (a != b)
      throw_input_error("checkpoint '", path, "' is from another run: its ", field, " is '", a, "', this run's is '",
                        b, "'");
  };
  check("workload", file.workload, run.workload);
  if (file.n != run.n)
    throw_input_error("checkpoint '", path, "' is from another run: it holds N = ", file.n, " particles, this run has N = ",
                      run.n);
  check("precision", file.precision, run.precision);
  check("backend", file.backend, run.backend);
  if (file.setup != run.setup) {
    // Name the first key=value that differs rather than two long lines.
    std::istringstream a(file.setup), b(run.setup);
    std::string x, y;
    while (a >> x, b >> y, (a || b) && x == y) x.clear(), y.clear();
    throw_input_error("checkpoint '", path, "' is from another run: its setup has '", x, "', this run has '", y,
                      "' (a restart continues the same parameters and variant)");
  }
}

}  // namespace meso::io
