// Splitting a validation case's repeats into shards and carrying a run over a
// time limit: the shard ranges partition the repeats, and a checkpoint
// survives its JSON round trip exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "meso/core/error.hpp"
#include "meso/validation/checkpoint_json.hpp"
#include "meso/validation/validation_case.hpp"

namespace {

using namespace meso;
using namespace meso::validation;

TEST(ShardRuns, PartitionsTheRepeatsEvenlyInOrder) {
  for (int runs : {1, 2, 7, 8, 10, 33})
    for (int count = 1; count <= runs; ++count) {
      Context ctx;
      ctx.shard_count = count;
      int next = 0, smallest = runs, largest = 0;
      for (int i = 0; i < count; ++i) {
        ctx.shard_index = i;
        const RunRange r = shard_runs(ctx, runs);
        EXPECT_EQ(r.first, next) << runs << " runs, shard " << i << "/" << count;
        EXPECT_GT(r.last, r.first);
        smallest = std::min(smallest, r.last - r.first);
        largest = std::max(largest, r.last - r.first);
        next = r.last;
      }
      EXPECT_EQ(next, runs);
      EXPECT_LE(largest - smallest, 1);  // even split
    }
  // 10 repeats in 4 shards: 3, 3, 2, 2 (the first shards one longer).
  Context ctx;
  ctx.shard_count = 4;
  ctx.shard_index = 1;
  EXPECT_EQ(shard_runs(ctx, 10).first, 3);
  EXPECT_EQ(shard_runs(ctx, 10).last, 6);
}

TEST(ShardRuns, RefusesMoreShardsThanRepeatsAndBadIndices) {
  Context ctx;
  ctx.shard_count = 3;
  EXPECT_THROW(shard_runs(ctx, 2), InputError);
  ctx.shard_index = 3;
  EXPECT_THROW(shard_runs(ctx, 8), InputError);
  ctx.shard_index = -1;
  EXPECT_THROW(shard_runs(ctx, 8), InputError);
}

TEST(CheckpointJson, RoundTripsBitForBit) {
  Checkpoint cp;
  cp.step = 123456789012ull;
  cp.integrator.xi = -0.1234567890123456789;
  cp.integrator.eta = 3.0e-300;
  cp.particles.resize(3);
  const double awkward[] = {0.1, -1.0 / 3.0, std::numeric_limits<double>::denorm_min(), 1e308, -0.0,
                            std::nextafter(1.0, 2.0), 5e-324, 2.0 / 7.0, -123.456};
  for (std::size_t i = 0; i < 3; ++i) {
    cp.particles.position[i] = {awkward[3 * i], awkward[3 * i + 1], awkward[3 * i + 2]};
    cp.particles.velocity[i] = {awkward[8 - 3 * i], awkward[7 - 3 * i], awkward[6 - 3 * i]};
    cp.particles.image[i] = {static_cast<int32_t>(i) - 1, -70000, 2147483647};
    cp.particles.type[i] = static_cast<uint32_t>(2 - i);
    cp.particles.tag[i] = static_cast<uint32_t>(10 + i);
  }
  const nlohmann::json j = nlohmann::json::parse(checkpoint_to_json(cp).dump());  // through text
  const Checkpoint back = checkpoint_from_json(j);
  EXPECT_EQ(back.step, cp.step);
  EXPECT_EQ(back.integrator.xi, cp.integrator.xi);
  EXPECT_EQ(back.integrator.eta, cp.integrator.eta);
  ASSERT_EQ(back.particles.n_local, 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    for (int c = 0; c < 3; ++c) {
      const auto& p = cp.particles.position[i];
      const auto& q = back.particles.position[i];
      const auto& v = cp.particles.velocity[i];
      const auto& w = back.particles.velocity[i];
      const double pc[] = {p.x, p.y, p.z}, qc[] = {q.x, q.y, q.z}, vc[] = {v.x, v.y, v.z}, wc[] = {w.x, w.y, w.z};
      EXPECT_EQ(std::signbit(pc[c]), std::signbit(qc[c]));
      EXPECT_EQ(pc[c], qc[c]) << i << ' ' << c;
      EXPECT_EQ(vc[c], wc[c]) << i << ' ' << c;
    }
    EXPECT_EQ(back.particles.image[i].x, cp.particles.image[i].x);
    EXPECT_EQ(back.particles.image[i].y, cp.particles.image[i].y);
    EXPECT_EQ(back.particles.image[i].z, cp.particles.image[i].z);
    EXPECT_EQ(back.particles.type[i], cp.particles.type[i]);
    EXPECT_EQ(back.particles.tag[i], cp.particles.tag[i]);
  }
}

// Orientational particles: orientation, angular momentum and inertia come
// back bit for bit (torques are recomputed, as forces are); a checkpoint
// without them stays isotropic.
TEST(CheckpointJson, RoundTripsOrientationsBitForBit) {
  Checkpoint cp;
  cp.particles.set_rotational(true);
  cp.particles.resize(2);
  cp.particles.orientation[0] = {0.1, {-1.0 / 3.0, 2.0 / 7.0, std::nextafter(0.5, 1.0)}};
  cp.particles.orientation[1] = {-0.0, {1.0, 5e-324, -123.456}};
  cp.particles.angmom[1] = {1e-300, -2.5, 1.0 / 3.0};
  cp.particles.inertia[0] = {0.5, 0.5, 0.0};
  cp.particles.inertia[1] = {1.7696, 0.6145, 1.155};
  const Checkpoint back = checkpoint_from_json(nlohmann::json::parse(checkpoint_to_json(cp).dump()));
  ASSERT_TRUE(back.particles.rotational);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto &q = cp.particles.orientation[i], &r = back.particles.orientation[i];
    EXPECT_EQ(std::signbit(q.s), std::signbit(r.s));
    EXPECT_EQ(q.s, r.s);
    EXPECT_EQ(q.v.x, r.v.x);
    EXPECT_EQ(q.v.y, r.v.y);
    EXPECT_EQ(q.v.z, r.v.z);
    EXPECT_EQ(cp.particles.angmom[i].x, back.particles.angmom[i].x);
    EXPECT_EQ(cp.particles.angmom[i].z, back.particles.angmom[i].z);
    EXPECT_EQ(cp.particles.inertia[i].y, back.particles.inertia[i].y);
    EXPECT_EQ(back.particles.torque[i].x, 0.0);
  }
  Checkpoint plain;
  plain.particles.resize(1);
  EXPECT_FALSE(checkpoint_from_json(checkpoint_to_json(plain)).particles.rotational);
  nlohmann::json cut = checkpoint_to_json(cp);
  cut["orientation"].erase(cut["orientation"].begin());
  EXPECT_THROW(checkpoint_from_json(cut), InputError);
}

TEST(CheckpointJson, RefusesATruncatedOne) {
  Checkpoint cp;
  cp.particles.resize(2);
  nlohmann::json j = checkpoint_to_json(cp);
  j["velocity"].erase(j["velocity"].begin());
  EXPECT_THROW(checkpoint_from_json(j), InputError);
  j = checkpoint_to_json(cp);
  j.erase("tag");
  EXPECT_THROW(checkpoint_from_json(j), InputError);
}

}  // namespace
