// The H5MD writer and the reader the tests use: frames read back exactly,
// FILE appears only at close(), and a writer abandoned by an error leaves
// nothing behind. The layout against the H5MD 1.1 spec is checked with
// h5py, as MDAnalysis reads it, by tests/cli/h5md.sh.
#include <unistd.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <filesystem>
#include <string>

#include "meso/core/error.hpp"
#include "meso/io/h5md.hpp"
#ifdef MESO_TEST_HDF5
#include <sys/stat.h>

#include "support/h5_layout.hpp"
#endif
#include "support/temporary_files.hpp"

namespace meso::io {
namespace {

namespace fs = std::filesystem;

// A file of this process and test alone: ctest runs tests in parallel, each
// its own process, and two of them writing /tmp/meso_h5md_layout.h5 at once
// read each other's half-written file ("not an HDF5 file").
std::string temp_file(const std::string& name) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return (fs::temp_directory_path() /
          ("meso_h5md_" + std::to_string(::getpid()) + "_" + test->name() + "_" + name))
      .string();
}

struct Frame {
  std::vector<Vec3d> pos, vel;
  std::vector<Image> img;
  std::vector<uint32_t> type;
};

Frame frame(std::size_t n, int k) {
  Frame f;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = static_cast<double>(i) + 0.125 * k;
    f.pos.push_back({x, -x, x / 3.0});
    f.vel.push_back({1.0 / (x + 1.0), double(k), -x});
    f.img.push_back({k, -int32_t(i), 1});
    f.type.push_back(static_cast<uint32_t>((i + k) % 2));
  }
  return f;
}

TEST(H5md, FramesReadBackExactly) {
  if (!h5md_available()) GTEST_SKIP() << "built without HDF5";
  const std::string path = temp_file("frames.h5");
  std::remove(path.c_str());
  const Box box(4.0, 6.0, 8.0);
  const std::size_t n = 7;
  H5mdWriter w(path, n, box, {"tester", "dpd-fluid", "rho=3", "cpu", "precision=double"});
  for (int k = 0; k < 3; ++k) {
    const Frame f = frame(n, k);
    w.append({uint64_t(100 * k), 0.5 * k, &f.pos, &f.vel, &f.img, &f.type});
  }
  EXPECT_EQ(w.frames(), 3u);
  EXPECT_FALSE(fs::exists(path));  // written as FILE.tmp-XXXXXX until close()
  EXPECT_EQ(test::temporaries_of(path).size(), 1u);
  w.close();
  EXPECT_TRUE(fs::exists(path));
  EXPECT_TRUE(test::temporaries_of(path).empty());

  const H5mdData d = read_h5md_frame(path, 1);
  EXPECT_EQ(d.step, (std::vector<int64_t>{0, 100, 200}));
  EXPECT_EQ(d.time, (std::vector<double>{0.0, 0.5, 1.0}));
  EXPECT_EQ(d.edges.x, 4.0);
  EXPECT_EQ(d.edges.z, 8.0);
  const Frame f = frame(n, 1);
  ASSERT_EQ(d.position.size(), n);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(d.position[i].z, f.pos[i].z);
    EXPECT_EQ(d.velocity[i].x, f.vel[i].x);
    EXPECT_EQ(d.image[i].y, f.img[i].y);
    EXPECT_EQ(d.species[i], int32_t(f.type[i]));
  }
  EXPECT_THROW(read_h5md_frame(path, 3), InputError);
  std::remove(path.c_str());
}

// Orientational particles: the body-to-space quaternion (s, x, y, z) and
// the body-frame angular momentum of every frame, read back exactly; a file
// without them reads none; a frame that drops them, or brings them late, is
// a caller's error.
TEST(H5md, OrientationsReadBackExactly) {
  if (!h5md_available()) GTEST_SKIP() << "built without HDF5";
  const std::string path = temp_file("orient.h5");
  std::remove(path.c_str());
  const std::size_t n = 5;
  auto orient = [&](int k) {
    std::vector<Quatd> q;
    for (std::size_t i = 0; i < n; ++i) {
      const double a = 0.3 * double(i) + 0.1 * k;  // unit: cos^2 + sin^2 (0.6^2 + 0.8^2)
      q.push_back({std::cos(a), {0.6 * std::sin(a), 0.0, -0.8 * std::sin(a)}});
    }
    return q;
  };
  auto angmom = [&](int k) {
    std::vector<Vec3d> l;
    for (std::size_t i = 0; i < n; ++i) l.push_back({double(i) / 7.0, -double(k), 1e-3 * double(i * k)});
    return l;
  };
  {
    H5mdWriter w(path, n, Box(3.0), {});
    for (int k = 0; k < 2; ++k) {
      const Frame f = frame(n, k);
      const std::vector<Quatd> q = orient(k);
      const std::vector<Vec3d> l = angmom(k);
      w.append({uint64_t(k), 0.1 * k, &f.pos, &f.vel, &f.img, &f.type, &q, &l});
    }
    const Frame f = frame(n, 2);
    EXPECT_THROW(w.append({2, 0.2, &f.pos, &f.vel, &f.img, &f.type}), std::logic_error);
    w.close();
  }
  const H5mdData d = read_h5md_frame(path, 1);
  const std::vector<Quatd> q = orient(1);
  const std::vector<Vec3d> l = angmom(1);
  ASSERT_EQ(d.orientation.size(), n);
  ASSERT_EQ(d.angular_momentum.size(), n);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(d.orientation[i].s, q[i].s);
    EXPECT_EQ(d.orientation[i].v.x, q[i].v.x);
    EXPECT_EQ(d.orientation[i].v.z, q[i].v.z);
    EXPECT_EQ(d.angular_momentum[i].x, l[i].x);
    EXPECT_EQ(d.angular_momentum[i].z, l[i].z);
  }
  std::remove(path.c_str());
  {  // isotropic frames, then one with orientations: refused
    H5mdWriter w(path, n, Box(3.0), {});
    const Frame f = frame(n, 0);
    w.append({0, 0.0, &f.pos, &f.vel, &f.img, &f.type});
    const std::vector<Quatd> q0 = orient(0);
    const std::vector<Vec3d> l0 = angmom(0);
    EXPECT_THROW(w.append({1, 0.1, &f.pos, &f.vel, &f.img, &f.type, &q0, &l0}), std::logic_error);
    w.close();
  }
  EXPECT_TRUE(read_h5md_frame(path, 0).orientation.empty());
  std::remove(path.c_str());
}

TEST(H5md, UnitAttributesSayWhatTheNumbersAre) {
  if (!h5md_available()) GTEST_SKIP() << "built without HDF5";
  const std::string path = temp_file("units.h5");
  const Frame f = frame(3, 1);
  for (const bool physical : {false, true}) {
    H5mdMetadata meta;
    if (physical) {
      meta.units = nm_ps_units("nm and ps");
      meta.units.time_factor = 8.0;  // the engine's time unit, in ps
      meta.units.velocity_factor = 0.125;
    } else {
      meta.units = reduced_units("LJ units");
    }
    H5mdWriter w(path, 3, Box(2.0), meta);
    w.append({10, 0.5, &f.pos, &f.vel, &f.img, &f.type});
    w.close();
    const H5mdData d = read_h5md_frame(path, 0);
    EXPECT_EQ(d.units.length, physical ? "nm" : "Angstrom");
    EXPECT_EQ(d.units.time, "ps");
    EXPECT_EQ(d.units.velocity, physical ? "nm ps-1" : "Angstrom ps-1");
    EXPECT_EQ(d.units.description.rfind(physical ? "nm and ps" : "reduced units (LJ units)", 0), 0u)
        << d.units.description;
    // Converted where the engine's unit is none the reader knows; exact otherwise.
    EXPECT_EQ(d.time[0], physical ? 4.0 : 0.5);
    EXPECT_EQ(d.velocity[2].y, physical ? 0.125 * f.vel[2].y : f.vel[2].y);
    EXPECT_EQ(d.position[2].x, f.pos[2].x);
    std::remove(path.c_str());
  }
}

TEST(H5md, AbandonedWriterLeavesNothing) {
  if (!h5md_available()) GTEST_SKIP() << "built without HDF5";
  const std::string path = temp_file("abandoned.h5");
  {
    H5mdWriter w(path, 3, Box(1.0), {});
    const Frame f = frame(3, 0);
    w.append({0, 0.0, &f.pos, &f.vel, &f.img, &f.type});
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(test::temporaries_of(path).empty());
}

TEST(H5md, UnwritablePathIsAnInputError) {
  if (!h5md_available()) GTEST_SKIP() << "built without HDF5";
  EXPECT_THROW(H5mdWriter("/nonexistent-dir/x.h5", 3, Box(1.0), {}), InputError);
}

#ifdef MESO_TEST_HDF5

// The message of the InputError read_h5md_frame(path, frame) throws; a test
// failure when it reads the file or throws anything else.
std::string refusal(const std::string& path, std::size_t frame = 0) {
  try {
    read_h5md_frame(path, frame);
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not an InputError: " << e.what();
    return "";
  }
  ADD_FAILURE() << path << " was read";
  return "";
}

// The layout of a 2-frame trajectory of 5 particles with one dataset
// replaced; the file's refusal must name the file and contain `needle`.
void expect_layout_refused(testing::H5Dataset replaced, const std::string& needle) {
  const std::string path = temp_file("layout.h5");
  std::vector<testing::H5Dataset> sets{replaced};  // the first of a path wins
  for (auto& s : testing::h5md_layout(2, 5, 10.0)) sets.push_back(s);
  testing::write_h5_layout(path, sets);
  const std::string msg = refusal(path);
  EXPECT_NE(msg.find("H5MD file '" + path + "': "), std::string::npos) << msg;
  EXPECT_NE(msg.find(needle), std::string::npos) << "wanted: " << needle << "\nmessage: " << msg;
  std::remove(path.c_str());
}

const std::string kAll = "/particles/trajectory/";

TEST(H5mdReader, ReadsTheTestLayout) {
  const std::string path = temp_file("layout-ok.h5");
  testing::write_h5_layout(path, testing::h5md_layout(2, 5, 10.0));
  const H5mdData d = read_h5md_frame(path, 1);
  EXPECT_EQ(d.step, (std::vector<int64_t>{0, 10}));
  EXPECT_EQ(d.position.size(), 5u);
  EXPECT_EQ(d.edges.x, 10.0);
  EXPECT_EQ(d.species[0], 1);  // 0, 1 repeated over both frames' 10 particles
  EXPECT_EQ(d.species[1], 0);
  std::remove(path.c_str());
}

TEST(H5mdReader, RefusesDatasetsOfTheWrongRankOrShape) {
  // Rank 4 overran a 3-element extent buffer (a crash) before it was checked.
  expect_layout_refused({kAll + "position/value", {2, 5, 3, 2}, false, {1.0}},
                        "position/value has shape (2, 5, 3, 2), not (frames, N, 3)");
  expect_layout_refused({kAll + "position/value", {2, 5}, false, {1.0}}, "has shape (2, 5), not (frames, N, 3)");
  expect_layout_refused({kAll + "velocity/value", {2, 4, 3}, false, {1.0}},
                        "velocity/value has shape (2, 4, 3), not (frames, N, 3) as position");
  expect_layout_refused({kAll + "species/value", {2, 5, 1}, true, {0}}, "species/value has shape (2, 5, 1)");
  expect_layout_refused({kAll + "box/edges/value", {3}, false, {10.0}}, "box/edges/value has shape (3), not");
  expect_layout_refused({kAll + "position/step", {3}, true, {0}}, "position/step has shape (3), not (frames)");
  expect_layout_refused({kAll + "position/time", {2, 1}, false, {0}}, "position/time has shape (2, 1)");
  expect_layout_refused({kAll + "image/value", {2, 5, 3}, false, {0.5}}, "image/value does not hold integers");
  expect_layout_refused({kAll + "position/value", {}, false, {}, true}, "position/value is not a dataset");
}

TEST(H5mdReader, RefusesBoxEdgesAndPositionsItCannotUse) {
  for (const double edge : {0.0, -5.0, 1e300, std::nan(""), HUGE_VAL})
    expect_layout_refused({kAll + "box/edges/value", {2, 3}, false, {10.0, edge, 10.0}}, "box edge y = ");
  expect_layout_refused({kAll + "position/value", {2, 5, 3}, false, {1.0, 2.0, std::nan(""), 3.0}},
                        "the position of particle 0 in frame 0 is not finite");
  expect_layout_refused({kAll + "species/value", {2, 5}, true, {0, -1}}, "particle 1 in frame 0 has species -1");
}

TEST(H5mdReader, RefusesFilesThatAreNoTrajectory) {
  const std::string path = temp_file("foreign.h5");
  testing::write_h5_layout(path, {{"/data", {4}, false, {1.0}}});
  EXPECT_NE(refusal(path).find("no dataset /particles/trajectory/position/value"), std::string::npos);
  { std::FILE* f = std::fopen(path.c_str(), "w"); std::fclose(f); }
  EXPECT_NE(refusal(path).find("H5MD file '" + path + "': the file is empty"), std::string::npos);
  { std::FILE* f = std::fopen(path.c_str(), "w"); std::fputs("x y z\n", f); std::fclose(f); }
  EXPECT_NE(refusal(path).find("not an HDF5 file"), std::string::npos);
  std::remove(path.c_str());
  EXPECT_NE(refusal(path).find("cannot read H5MD file '" + path + "'"), std::string::npos);
  // A frame past the end is named, not read.
  testing::write_h5_layout(path, testing::h5md_layout(2, 5, 10.0));
  EXPECT_NE(refusal(path, 2).find("frame 2 does not exist (2 frames)"), std::string::npos);
  std::remove(path.c_str());
}

TEST(H5mdReader, RefusesAFifoWithoutOpeningIt) {
  // Opening a FIFO for reading blocks until a writer comes: it hung.
  const std::string path = temp_file("fifo.h5");
  std::remove(path.c_str());
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  EXPECT_NE(refusal(path).find("H5MD file '" + path + "' is a FIFO, not a file"), std::string::npos);
  std::remove(path.c_str());
  const std::string dir = temp_file("dir.h5");
  fs::create_directory(dir);
  EXPECT_NE(refusal(dir).find("is a directory, not a file"), std::string::npos);
  fs::remove(dir);
}

#endif  // MESO_TEST_HDF5

}  // namespace
}  // namespace meso::io
