// The checkpoint file: a round trip keeps every bit, a truncated, corrupt
// or foreign file is refused with an InputError that says so, a run of
// another workload, N, precision, backend or setup is refused, and a write
// replaces the previous checkpoint only once the new one is complete.
// Forged files with a valid checksum are refused field by field, and
// anything but a regular file is refused before it is read.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>

#include "meso/core/error.hpp"
#include "meso/io/checkpoint_file.hpp"
#include "support/temporary_files.hpp"

namespace meso::io {
namespace {

namespace fs = std::filesystem;

std::string temp_file(const std::string& name) {
  return (fs::temp_directory_path() / ("meso_ckpt_" + name)).string();
}

Checkpoint sample(std::size_t n) {
  Checkpoint cp;
  cp.step = 12345;
  cp.integrator = {0.25, -1.5};
  auto& p = cp.particles;
  p.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = 0.1 + static_cast<double>(i);
    p.position[i] = {x, -x / 3.0, x * 1e-17};
    p.velocity[i] = {1.0 / (x + 1.0), -2.5, x};
    p.force[i] = {-x, 3.0 * x, 0.0};
    p.image[i] = {int32_t(i), -int32_t(i), 7};
    p.type[i] = static_cast<uint32_t>(i % 3);
    p.tag[i] = static_cast<uint32_t>(i);
  }
  cp.lists.order.resize(n);
  cp.lists.build_position.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    cp.lists.order[i] = static_cast<uint32_t>(n - 1 - i);
    cp.lists.build_position[i] = {double(i) / 7.0, 0.5, -0.5};
  }
  cp.lists.steps_since_build = 4;
  cp.lists.steps_since_sort = 61;
  return cp;
}

const CheckpointIdentity kId{"dpd-fluid", "rho=3 dt=0.005", "cpu", "double", 5};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

void expect_refused(const std::string& path, const std::string& needle) {
  try {
    (void)read_checkpoint(path);
    FAIL() << "accepted; expected '" << needle << "'";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(CheckpointFile, RoundTripKeepsEveryBit) {
  const std::string path = temp_file("roundtrip");
  const Checkpoint cp = sample(5);
  write_checkpoint(path, kId, cp);
  EXPECT_TRUE(test::temporaries_of(path).empty());
  const CheckpointFile f = read_checkpoint(path);
  EXPECT_FALSE(f.mpcd);
  EXPECT_EQ(f.identity.workload, kId.workload);
  EXPECT_EQ(f.identity.setup, kId.setup);
  EXPECT_EQ(f.identity.n, 5u);
  EXPECT_EQ(f.step, 12345u);
  const Checkpoint& b = f.md;
  EXPECT_EQ(b.integrator.xi, 0.25);
  EXPECT_EQ(b.integrator.eta, -1.5);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(b.particles.position[i].z, cp.particles.position[i].z);
    EXPECT_EQ(b.particles.velocity[i].x, cp.particles.velocity[i].x);
    EXPECT_EQ(b.particles.force[i].y, cp.particles.force[i].y);
    EXPECT_EQ(b.particles.image[i].y, cp.particles.image[i].y);
    EXPECT_EQ(b.lists.build_position[i].x, cp.lists.build_position[i].x);
  }
  EXPECT_EQ(b.particles.type, cp.particles.type);
  EXPECT_EQ(b.particles.tag, cp.particles.tag);
  EXPECT_EQ(b.lists.order, cp.lists.order);
  EXPECT_EQ(b.lists.steps_since_build, 4u);
  EXPECT_EQ(b.lists.steps_since_sort, 61u);
  // Same state, same bytes: runs can be compared by their checkpoints.
  const std::string again = temp_file("roundtrip2");
  write_checkpoint(again, kId, b);
  EXPECT_EQ(slurp(path), slurp(again));
  std::remove(path.c_str());
  std::remove(again.c_str());
}

TEST(CheckpointFile, RefusesTruncatedCorruptAndForeignFiles) {
  const std::string path = temp_file("damaged");
  write_checkpoint(path, kId, sample(5));
  const std::string good = slurp(path);
  for (std::size_t cut : {good.size() - 1, good.size() / 2, std::size_t{30}}) {
    spit(path, good.substr(0, cut));
    expect_refused(path, "truncated");
  }
  std::string flipped = good;
  flipped[good.size() / 2] ^= 0x10;  // one bit in the particle data
  spit(path, flipped);
  expect_refused(path, "checksum");
  spit(path, "{\"step\": 1}");
  expect_refused(path, "not a mesobench checkpoint");
  spit(path, "");
  expect_refused(path, "not a mesobench checkpoint");
  std::string future = good;
  future[8] = 9;  // format version 9
  spit(path, future);
  expect_refused(path, "format version 9");
  std::remove(path.c_str());
  expect_refused(path, "cannot read");
}

TEST(CheckpointFile, RefusesAnotherRun) {
  auto expect_other = [](CheckpointIdentity run, const std::string& needle) {
    try {
      require_same_run(kId, run, "x.ckpt");
      FAIL() << "accepted; expected '" << needle << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  require_same_run(kId, kId, "x.ckpt");
  CheckpointIdentity r = kId;
  r.workload = "lj-liquid";
  expect_other(r, "workload is 'dpd-fluid'");
  r = kId;
  r.n = 6;
  expect_other(r, "N = 5");
  r = kId;
  r.precision = "mixed";
  expect_other(r, "precision is 'double'");
  r = kId;
  r.backend = "cuda";
  expect_other(r, "backend is 'cpu'");
  r = kId;
  r.setup = "rho=6 dt=0.005";
  expect_other(r, "setup");
}

TEST(CheckpointFile, ANameLikeATemporaryIsLeftAlone) {
  const std::string path = temp_file("keep");
  write_checkpoint(path, kId, sample(5));
  // FILE.tmp was once the fixed temporary name: something of that name (a
  // directory here, an input elsewhere) neither blocks the write nor is
  // replaced; a failed write is durable_file_test's.
  fs::create_directory(path + ".tmp");
  write_checkpoint(path, kId, sample(3));
  EXPECT_EQ(read_checkpoint(path).md.particles.n_local, 3u);
  EXPECT_TRUE(fs::is_directory(path + ".tmp"));
  EXPECT_TRUE(test::temporaries_of(path).empty());
  fs::remove(path + ".tmp");
  std::remove(path.c_str());
}

// Byte offsets in a file written by write_checkpoint for kId with lists
// (the layout of checkpoint_file.hpp), to forge one field at a time.
struct Layout {
  std::size_t n;
  std::size_t body = 20;  // magic, version, length
  std::size_t n_at() const {
    return body + 4 + 4 * 4 + kId.workload.size() + kId.setup.size() + kId.backend.size() + kId.precision.size();
  }
  std::size_t step_at() const { return n_at() + 8; }
  std::size_t xi_at() const { return step_at() + 8; }
  std::size_t position_at(std::size_t i) const { return xi_at() + 16 + 24 * i; }
  std::size_t velocity_at(std::size_t i) const { return position_at(n) + 24 * i; }
  std::size_t force_at(std::size_t i) const { return velocity_at(n) + 24 * i; }
  std::size_t image_at(std::size_t i) const { return force_at(n) + 12 * i; }
  std::size_t type_at(std::size_t i) const { return image_at(n) + 4 * i; }
  std::size_t tag_at(std::size_t i) const { return type_at(n) + 4 * i; }
  std::size_t lists_at() const { return tag_at(n); }
  std::size_t order_at(std::size_t i) const { return lists_at() + 1 + 4 * i; }
  std::size_t build_at(std::size_t i) const { return order_at(n) + 24 * i; }
  std::size_t since_build_at() const { return build_at(n); }
  std::size_t since_sort_at() const { return since_build_at() + 4; }
};

// `good` with `value` written at `at` and the checksum made valid again:
// what a forger, or a bug in a writer, produces.
template <class T>
std::string forged(std::string good, std::size_t at, T value) {
  std::memcpy(good.data() + at, &value, sizeof(T));
  const std::size_t end = good.size() - 8;
  const uint64_t sum = fnv1a64(good.data() + 20, end - 20);
  std::memcpy(good.data() + end, &sum, sizeof(sum));
  return good;
}

TEST(CheckpointFile, RefusesForgedFieldsWithAValidChecksum) {
  const std::string path = temp_file("forged");
  write_checkpoint(path, kId, sample(5));
  const std::string good = slurp(path);
  const Layout at{5};
  ASSERT_EQ(at.since_sort_at() + 4 + 8, good.size());
  ASSERT_NO_THROW((void)read_checkpoint(path));
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  struct Case {
    std::string bytes, needle;
  };
  const std::vector<Case> cases = {
      {forged(good, at.lists_at(), uint8_t{7}), "has_lists = 7"},
      {forged(good, at.since_build_at(), uint32_t{0xFFFFFFFF}), "steps_since_build = 4294967295"},
      {forged(good, at.since_sort_at(), uint32_t{20000}), "steps_since_sort = 20000"},
      {forged(good, at.position_at(2) + 8, nan), "particle 2 (tag 2) has position"},
      {forged(good, at.velocity_at(1), inf), "velocity"},
      {forged(good, at.force_at(4) + 16, -inf), "force"},
      {forged(good, at.build_at(0), nan), "list build position"},
      {forged(good, at.xi_at(), nan), "thermostat variables"},
      {forged(good, at.image_at(3), int32_t{0x7fffffff}), "beyond +-2^30"},
      {forged(good, at.tag_at(1), uint32_t{3}), "tag[3] = 3 appears twice"},
      {forged(good, at.tag_at(4), uint32_t{5}), "tag[4] = 5 is not a tag"},
      {forged(good, at.order_at(0), uint32_t{0xFFFFFFFF}), "list order[0] = 4294967295"},
      {forged(good, at.n_at(), uint64_t{6}), "N = 6, which does not fit"},
      {forged(good, at.n_at(), uint64_t{1} << 60), "does not fit"},
      {forged(good, at.n_at(), uint64_t{0}), "N = 0"},
      {forged(good, at.body, uint32_t{3}), "unknown kind 3"},
      {forged(good, at.body + 11, uint8_t{1}), "workload 'dpd\\x01fluid' is not printable text"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.needle);
    spit(path, c.bytes);
    expect_refused(path, c.needle);
  }
  std::remove(path.c_str());
}

// A checkpoint of several ranks (has_lists = 2): after the list counters
// the rank grid and each rank's count, kept bit for bit; counts that do not
// sum to N and a grid that does not fit the payload are refused.
TEST(CheckpointFile, RanksRoundTripAndForgeriesAreRefused) {
  const std::string path = temp_file("ranks");
  Checkpoint cp = sample(5);
  cp.grid = {2, 1, 1};
  cp.rank_counts = {3, 2};
  write_checkpoint(path, kId, cp);
  const CheckpointFile f = read_checkpoint(path);
  EXPECT_EQ(f.md.grid, cp.grid);
  EXPECT_EQ(f.md.rank_counts, cp.rank_counts);
  EXPECT_EQ(f.md.ranks(), 2);
  EXPECT_EQ(f.md.lists.order, cp.lists.order);
  const std::string good = slurp(path);
  const Layout at{5};
  const std::size_t grid_at = at.since_sort_at() + 4, counts_at = grid_at + 12;
  ASSERT_EQ(counts_at + 2 * 8 + 8, good.size());
  EXPECT_EQ(uint8_t(good[at.lists_at()]), 2u);
  spit(path, forged(good, counts_at + 8, uint64_t{3}));
  expect_refused(path, "its 2 ranks hold 6 particles, not its N = 5");
  spit(path, forged(good, grid_at + 4, uint32_t{2}));  // 2 x 2 x 1: four counts, the file holds two
  expect_refused(path, "N = 5, which does not fit");
  spit(path, forged(good, grid_at + 8, uint32_t{0xFFFFFFFF}));
  expect_refused(path, "does not fit");
  spit(path, forged(good, at.lists_at(), uint8_t{1}));  // the layout of one rank, with the ranks' bytes
  expect_refused(path, "N = 5, which does not fit");
  // One rank writes the older layout, byte for byte.
  cp.rank_counts.clear();
  write_checkpoint(path, kId, cp);
  EXPECT_EQ(uint8_t(slurp(path)[at.lists_at()]), 1u);
  std::remove(path.c_str());
}

// Orientational particles: a block after the lists (a flag, then per
// particle the orientation, angular momentum, inertia and torque), kept
// bit for bit; a file without it is the older layout, byte for byte.
TEST(CheckpointFile, OrientationsRoundTripAndForgeriesAreRefused) {
  const std::string path = temp_file("orient");
  Checkpoint cp = sample(5);
  const std::size_t plain_size = [&] {
    write_checkpoint(path, kId, cp);
    return slurp(path).size();
  }();
  auto& p = cp.particles;
  p.set_rotational(true);
  for (std::size_t i = 0; i < 5; ++i) {
    p.orientation[i] = meso::normalized(meso::Quatd{1.0, {0.1 * double(i), -0.2, 0.3 / (1.0 + double(i))}});
    p.angmom[i] = {0.5, -1.0 / 3.0, 0.0};
    p.inertia[i] = {1.7696, 0.6145, double(i % 2)};
    p.torque[i] = {1e-17 * double(i), 2.0, -7.0};
  }
  write_checkpoint(path, kId, cp);
  const std::string good = slurp(path);
  ASSERT_EQ(good.size(), plain_size + 1 + 5 * 13 * 8);
  const Checkpoint b = read_checkpoint(path).md;
  ASSERT_TRUE(b.particles.rotational);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(b.particles.orientation[i].s, p.orientation[i].s);
    EXPECT_EQ(b.particles.orientation[i].v.y, p.orientation[i].v.y);
    EXPECT_EQ(b.particles.angmom[i].y, p.angmom[i].y);
    EXPECT_EQ(b.particles.inertia[i].z, p.inertia[i].z);
    EXPECT_EQ(b.particles.torque[i].x, p.torque[i].x);
  }
  const std::size_t flag_at = good.size() - 8 - 5 * 13 * 8 - 1;
  spit(path, forged(good, flag_at, uint8_t(2)));
  expect_refused(path, "has_orientations = 2");
  spit(path, forged(good, flag_at + 1 + 2 * 32, 2.0));  // particle 2's scalar part
  expect_refused(path, "not a unit quaternion");
  spit(path, forged(good, flag_at + 1 + 5 * 32 + 5 * 24 + 24, -1.0));  // particle 1's I_x
  expect_refused(path, "negative moment of inertia");
  std::remove(path.c_str());
}

TEST(CheckpointFile, RefusesAStateOutsideTheRun) {
  const std::string path = temp_file("outside");
  write_checkpoint(path, kId, sample(5));
  const std::string good = slurp(path);
  const Layout at{5};
  const RestartBounds run{Box(10.0), {1.0, 1.0, 1.0}, 0.01};
  check_restart_state(read_checkpoint(path), run, path);
  auto expect_outside = [&](const std::string& bytes, const RestartBounds& r, const std::string& needle) {
    spit(path, bytes);
    const CheckpointFile f = read_checkpoint(path);  // a well-formed file
    try {
      check_restart_state(f, r, path);
      FAIL() << "accepted; expected '" << needle << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_outside(forged(good, at.position_at(1), 1e300), run, "particle 1 (tag 1) has position (1e+300");
  expect_outside(forged(good, at.position_at(0) + 16, -5.001), run, "outside the run's box (10 x 10 x 10");
  expect_outside(forged(good, at.build_at(3) + 8, 7.0), run, "list build position");
  expect_outside(forged(good, at.velocity_at(2), 600.0), run, "velocity (600, -2.5, 2.1)");
  expect_outside(forged(good, at.force_at(2) + 8, 1e6), run, "force");
  expect_outside(good, {Box(10.0), {1.0, 1.0}, 0.01}, "has type 2; the run has 2 types (0 .. 1)");
  // A wrapped position at the box edge, or one rounding error beyond it
  // (single precision wraps in float), is what runs write.
  check_restart_state(read_checkpoint((spit(path, forged(good, at.position_at(0), 5.0)), path)), run, path);
  std::remove(path.c_str());
}

TEST(CheckpointFile, RefusesWhatIsNotARegularFileBeforeReadingIt) {
  // /dev/zero never ends: reading it whole grew without bound.
  expect_refused("/dev/zero", "is a character device");
  const std::string dir = temp_file("dir");
  fs::create_directory(dir);
  expect_refused(dir, "is a directory");
  fs::remove(dir);
  // A FIFO with no writer blocks its reader at open.
  const std::string fifo = temp_file("fifo");
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  expect_refused(fifo, "is a FIFO");
  std::remove(fifo.c_str());
}

TEST(CheckpointFile, ReadsOnlyTheHeaderOfAForeignOrOversizedFile) {
  // A 3 GB file (sparse: no disk used) that is not a checkpoint, and one
  // whose header claims 2^62 bytes: both refused after reading 20 bytes.
  const std::string path = temp_file("big");
  std::ofstream(path, std::ios::binary) << "PK\x03\x04";
  fs::resize_file(path, uint64_t{3} << 30);
  const auto t0 = std::chrono::steady_clock::now();
  expect_refused(path, "not a mesobench checkpoint");
  std::string header("MESOCKPT\x01\0\0\0", 12);
  const uint64_t length = uint64_t{1} << 62;
  header.append(reinterpret_cast<const char*>(&length), 8);
  spit(path, header);
  expect_refused(path, "more than the file holds");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 1.0) << "reading 3 GB whole takes seconds";
  std::remove(path.c_str());
}

TEST(CheckpointFile, MessagesQuoteShortPrintableExcerpts) {
  CheckpointIdentity binary = kId;
  binary.workload = std::string(5000000, '\x07');
  try {
    require_same_run(binary, kId, "x.ckpt");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_LT(what.size(), 200u) << what.substr(0, 300);
    EXPECT_NE(what.find("\\x07\\x07"), std::string::npos) << what;
    EXPECT_NE(what.find("(5000000 bytes)"), std::string::npos) << what;
  }
}

TEST(CheckpointFile, Fnv1aMatchesPublishedVectors) {
  // Test vectors of the FNV reference (Fowler, Noll, Vo).
  EXPECT_EQ(fnv1a64("", 0), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a", 1), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar", 6), 0x85944171f73967e8ull);
}

}  // namespace
}  // namespace meso::io
