// Binned velocity profiles on hand-built particle sets, and time windows.
#include <gtest/gtest.h>

#include <cmath>

#include "meso/core/error.hpp"
#include "meso/core/mpcd.hpp"
#include "meso/analysis/velocity_profile.hpp"

namespace {

using namespace meso;

ParticleData<double> particles(const std::vector<Vec3d>& r, const std::vector<Vec3d>& v,
                               const std::vector<uint32_t>& type = {}) {
  ParticleData<double> p;
  p.resize(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) {
    p.position[i] = r[i];
    p.velocity[i] = v[i];
    p.type[i] = type.empty() ? 0u : type[i];
    p.tag[i] = static_cast<uint32_t>(i);
    p.image[i] = {0, 0, 0};
  }
  return p;
}

TEST(VelocityProfile, BinsByPositionAndAveragesByMass) {
  // Box 4 along x, 4 bins of width 1 with centres -1.5, -0.5, 0.5, 1.5.
  VelocityProfile prof(Box(4.0, 2.0, 2.0), /*axis=*/0, /*component=*/2, 4);
  EXPECT_DOUBLE_EQ(prof.bin_width(), 1.0);
  EXPECT_EQ(prof.centers(), (std::vector<double>{-1.5, -0.5, 0.5, 1.5}));
  // Bin 0: types 0 (m = 1, v = 1) and 1 (m = 3, v = 3): (1 + 9) / 4 = 2.5.
  // Bin 1: empty. Bin 2: x = 0 exactly belongs to the upper bin, v = -1.
  // Bin 3: x = 1.999 (just inside), v = 4; the y and x velocities are ignored.
  const auto p = particles({{-1.9, 0.3, 0.1}, {-1.0001, -0.9, 0.9}, {0.0, 0.0, 0.0}, {1.999, 0.0, 0.0}},
                           {{7.0, 7.0, 1.0}, {0.0, 0.0, 3.0}, {0.0, 0.0, -1.0}, {5.0, 0.0, 4.0}},
                           {0, 1, 0, 0});
  prof.add(p, {1.0, 3.0});
  const auto u = prof.mean();
  EXPECT_DOUBLE_EQ(u[0], 2.5);
  EXPECT_TRUE(std::isnan(u[1])) << "an empty bin must not read as zero velocity";
  EXPECT_DOUBLE_EQ(u[2], -1.0);
  EXPECT_DOUBLE_EQ(u[3], 4.0);
  EXPECT_EQ(prof.mean_count(), (std::vector<double>{2.0, 0.0, 1.0, 1.0}));
}

TEST(VelocityProfile, AveragesOverSnapshotsAsRatioOfSums) {
  VelocityProfile prof(Box(2.0), 1, 0, 2);
  // Snapshot 1: one particle in bin 0 with v = 1. Snapshot 2: three with v = 3.
  // Ratio of sums: (1 + 9) / 4 = 2.5, not the mean of bin means (2).
  prof.add(particles({{0.0, -0.5, 0.0}}, {{1.0, 0.0, 0.0}}), {1.0});
  prof.add(particles({{0.0, -0.5, 0.0}, {0.0, -0.1, 0.0}, {0.0, -0.9, 0.0}},
                     {{3.0, 0.0, 0.0}, {3.0, 0.0, 0.0}, {3.0, 0.0, 0.0}}),
           {1.0});
  EXPECT_EQ(prof.samples(), 2u);
  EXPECT_DOUBLE_EQ(prof.mean()[0], 2.5);
  EXPECT_DOUBLE_EQ(prof.mean_count()[0], 2.0);
}

TEST(VelocityProfile, CenterOfMassFrame) {
  // Uniform drift 10 plus +-1 in the two halves: in the centre-of-mass frame
  // only the +-1 remains.
  VelocityProfile prof(Box(2.0), 2, 0, 2);
  prof.set_remove_center_of_mass(true);
  prof.add(particles({{0.0, 0.0, -0.5}, {0.0, 0.0, 0.5}}, {{11.0, 0.0, 0.0}, {9.0, 0.0, 0.0}}), {1.0});
  EXPECT_DOUBLE_EQ(prof.mean()[0], 1.0);
  EXPECT_DOUBLE_EQ(prof.mean()[1], -1.0);
}

TEST(VelocityProfile, MpcdSolventAndSpansGiveTheSameSums) {
  // The same three particles as MD particles of mass 2, as an MPCD solvent
  // of mass 2 (whose types do not index a mass table), and as plain spans:
  // bin for bin the same sums, in the centre-of-mass frame too.
  const std::vector<Vec3d> r = {{-0.5, 0.2, 0.0}, {-0.1, 0.0, 0.3}, {0.7, -0.4, 0.0}};
  const std::vector<Vec3d> v = {{0.0, 0.0, 1.0}, {0.0, 0.5, 2.0}, {1.0, 0.0, -4.0}};
  VelocityProfile md(Box(2.0), 0, 2, 2);
  md.set_remove_center_of_mass(true);
  VelocityProfile solvent = md, spans = md;
  md.add(particles(r, v), {2.0});
  MpcdParticles m;
  m.resize(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) {
    m.position[i] = r[i];
    m.velocity[i] = v[i];
    m.type[i] = 7;
    m.tag[i] = static_cast<uint32_t>(i);
  }
  solvent.add(m, 2.0);
  const std::vector<uint32_t> types(r.size(), 0u);
  const std::vector<double> type_mass = {2.0};
  spans.add(ParticleSpans{r, v, types, type_mass});
  // Centre of mass -1/3: bin 0 holds (1 + 2)/2 + 1/3, bin 1 -4 + 1/3.
  EXPECT_DOUBLE_EQ(md.mean()[0], 1.5 + 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(md.mean()[1], -4.0 + 1.0 / 3.0);
  EXPECT_EQ(solvent.mean(), md.mean());
  EXPECT_EQ(spans.mean(), md.mean());
  EXPECT_EQ(solvent.mean_count(), md.mean_count());
  // A type without a mass, or spans of different lengths, are input errors.
  const std::vector<uint32_t> bad_types = {0u, 1u, 0u};
  EXPECT_THROW(spans.add(ParticleSpans{r, v, bad_types, type_mass}), InputError);
  EXPECT_THROW(spans.add(ParticleSpans{r, std::span<const Vec3d>(v).first(2), types, type_mass}), InputError);
  EXPECT_THROW(solvent.add(m, 0.0), InputError);
}

TEST(VelocityProfile, MergeAddsSumsAndRejectsOtherGeometry) {
  VelocityProfile a(Box(2.0), 0, 2, 2), b(Box(2.0), 0, 2, 2);
  a.add(particles({{-0.5, 0.0, 0.0}}, {{0.0, 0.0, 1.0}}), {1.0});
  b.add(particles({{-0.5, 0.0, 0.0}}, {{0.0, 0.0, 3.0}}), {1.0});
  a.merge(b);
  EXPECT_DOUBLE_EQ(a.mean()[0], 2.0);
  EXPECT_EQ(a.samples(), 2u);
  EXPECT_THROW(a.merge(VelocityProfile(Box(2.0), 0, 2, 4)), InputError);
}

TEST(VelocityProfile, RejectsBadInput) {
  EXPECT_THROW(VelocityProfile(Box(2.0), 0, 2, 0), InputError);
  EXPECT_THROW(VelocityProfile(Box(2.0), 3, 2, 4), InputError);
  EXPECT_THROW(VelocityProfile(Box(2.0), 0, -1, 4), InputError);
  try {
    VelocityProfile(Box(2.0), 0, 2, 0);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bins = 0"), std::string::npos) << e.what();
  }
}

TEST(WindowedProfiles, SamplesOnlyInsideWindowsEndsIncluded) {
  const VelocityProfile proto(Box(2.0), 0, 2, 1);
  WindowedProfiles w(proto, {{1.0, 2.0}, {1.5, 3.0}}, 3.0);
  const auto p = particles({{0.0, 0.0, 0.0}}, {{0.0, 0.0, 1.0}});
  EXPECT_FALSE(w.wants(0.5));
  EXPECT_TRUE(w.wants(1.0));
  EXPECT_FALSE(w.sample(0.5, p, {1.0}));
  EXPECT_TRUE(w.sample(1.0, p, {1.0}));   // first window only (begin included)
  EXPECT_TRUE(w.sample(2.0, p, {1.0}));   // both (end of the first included)
  EXPECT_TRUE(w.sample(3.0, p, {1.0}));   // second only
  EXPECT_FALSE(w.sample(3.5, p, {1.0}));
  EXPECT_EQ(w.windows()[0].profile.samples(), 2u);
  EXPECT_EQ(w.windows()[1].profile.samples(), 2u);
}

TEST(WindowedProfiles, RejectsWindowsOutsideTheRun) {
  const VelocityProfile proto(Box(2.0), 0, 2, 1);
  EXPECT_THROW(WindowedProfiles(proto, {{9.5, 10.5}}, 10.0), InputError);
  EXPECT_THROW(WindowedProfiles(proto, {{-0.5, 0.5}}, 10.0), InputError);
  EXPECT_THROW(WindowedProfiles(proto, {{2.0, 1.0}}, 10.0), InputError);
  try {
    WindowedProfiles(proto, {{9.5, 10.5}}, 10.0);
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("10.5"), std::string::npos) << e.what();
  }
}

}  // namespace
