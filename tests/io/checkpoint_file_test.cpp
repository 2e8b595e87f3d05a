// The checkpoint file: a round trip keeps every bit, a truncated, corrupt
// or foreign file is refused with an InputError that says so, a run of
// another workload, N, precision, backend or setup is refused, and a write
// replaces the previous checkpoint only once the new one is complete.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "meso/error.hpp"
#include "meso/io/checkpoint_file.hpp"

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
  EXPECT_FALSE(fs::exists(path + ".tmp"));
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

TEST(CheckpointFile, FailedWriteKeepsThePreviousCheckpoint) {
  const std::string path = temp_file("keep");
  write_checkpoint(path, kId, sample(5));
  const std::string before = slurp(path);
  // The temporary cannot be created (a directory is in its place): the
  // write fails and the previous checkpoint is untouched.
  fs::create_directory(path + ".tmp");
  EXPECT_THROW(write_checkpoint(path, kId, sample(3)), InputError);
  EXPECT_EQ(slurp(path), before);
  fs::remove(path + ".tmp");
  std::remove(path.c_str());
}

TEST(CheckpointFile, Fnv1aMatchesPublishedVectors) {
  // Test vectors of the FNV reference (Fowler, Noll, Vo).
  EXPECT_EQ(fnv1a64("", 0), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a", 1), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar", 6), 0x85944171f73967e8ull);
}

}  // namespace
}  // namespace meso::io
