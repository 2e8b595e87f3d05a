// ctest -L validation: vesicle-formation's short form on a committed frame
// with a known count (issue 57; README.md beside the case). vesicle-frame.h5
// beside this file holds one closed vesicle by construction: the 150
// BBBAABBB chains of the short form's 12000 beads placed as one bilayer
// sphere (core radius 3; 95 chains with their A blocks outside, 55 inside),
// the solvent moved out of the membrane, then 1000 steps (t = 10) of the
// dpd-vesicle model's dynamics on the CPU reference. Positions are kept to
// 0.001 (HDF5's scale-offset filter; scripts/shrink_h5md_frame.py), about
// 80 kB. The disabled test at the end wrote it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <numbers>
#include <random>
#include <string>

#include "meso/analysis/morphology.hpp"
#include "meso/io/h5md.hpp"
#include "meso/run/simulation.hpp"
#include "meso/systems/vesicle.hpp"
#include "support/run_validation_case.hpp"

namespace {

using namespace meso;

const std::string kFrame = std::string(MESO_VALIDATION_DIR) + "/vesicle-formation/vesicle-frame.h5";

// The frame as analyse_morphology reads it (tags in file order).
ParticleData<double> particles_of(const io::H5mdData& f) {
  ParticleData<double> p;
  p.resize(f.position.size());
  for (std::size_t i = 0; i < f.position.size(); ++i) {
    p.position[i] = f.position[i];
    p.type[i] = static_cast<uint32_t>(f.species[i]);
    p.tag[i] = static_cast<uint32_t>(i);
  }
  return p;
}

MorphologyParams short_form_morphology() {
  MorphologyParams m;  // the gate's settings (vesicle_formation.cpp)
  m.chains = 150;
  m.chain_length = 8;
  return m;
}

TEST(Validation, VesicleFormationCommittedFrameHoldsItsVesicle) {
  if (!io::h5md_available()) GTEST_SKIP() << "built without HDF5";
  const io::H5mdData f = io::read_h5md_frame(kFrame, 0);
  ASSERT_EQ(f.position.size(), 12000u);
  const Box box(f.edges.x, f.edges.y, f.edges.z);
  const Morphology g = analyse_morphology(box, particles_of(f), short_form_morphology());
  // One aggregate of every chain, closed around one lumen.
  EXPECT_EQ(g.vesicles, 1u);
  ASSERT_EQ(g.aggregates.size(), 1u);
  const Aggregate& v = g.aggregates[0];
  EXPECT_EQ(v.kind, AggregateKind::vesicle);
  EXPECT_EQ(v.chains, 150u);
  EXPECT_EQ(g.chains_aggregated, 150u);
  // Its size, against the construction (core radius 3, 1.5 thick): the
  // long form's own rule holds too, the lumen as wide as the bilayer thick.
  EXPECT_NEAR(v.radius, 3.0, 0.5);
  const double lumen_diameter = 2.0 * std::cbrt(3.0 * v.lumen_volume / (4.0 * std::numbers::pi));
  std::cout << "vesicle: radius " << v.radius << ", thickness " << v.thickness << " (extent " << v.extent
            << "), lumen " << v.lumen_volume
            << " (diameter " << lumen_diameter << "), area per chain " << v.area_per_chain << "\n";
  EXPECT_GE(lumen_diameter, v.thickness);
}

TEST(Validation, VesicleFormationCommittedFrameCutOpenHasNoVesicle) {
  if (!io::h5md_available()) GTEST_SKIP() << "built without HDF5";
  // The same frame with a hole through the membrane: the B beads within
  // 1.5 of the +z axis above the centre become solvent, so the lumen joins
  // the bulk. The analysis must find no vesicle (a membrane with a pore is
  // not closed), though the chains stay aggregated.
  const io::H5mdData f = io::read_h5md_frame(kFrame, 0);
  const Box box(f.edges.x, f.edges.y, f.edges.z);
  ParticleData<double> p = particles_of(f);
  Vec3d centre{0, 0, 0};
  uint64_t nb = 0;
  for (std::size_t i = 0; i < p.n_local; ++i)
    if (p.type[i] == kVesicleB) {  // no B bead is near the box's faces: no wrap
      centre += p.position[i];
      ++nb;
    }
  centre = (1.0 / double(nb)) * centre;
  for (std::size_t i = 0; i < p.n_local; ++i) {
    const Vec3d d = box.min_image(p.position[i] - centre);
    if (p.type[i] == kVesicleB && d.z > 0.0 && d.x * d.x + d.y * d.y < 1.5 * 1.5) p.type[i] = kVesicleS;
  }
  const Morphology g = analyse_morphology(box, p, short_form_morphology());
  EXPECT_EQ(g.vesicles, 0u);
  EXPECT_GT(g.chain_fraction(), 0.9);
}

// Writes the frame (by hand, once: MESO_VESICLE_FRAME=out.h5 validation_test
// --gtest_also_run_disabled_tests --gtest_filter='*DISABLED_MakeVesicleFrame',
// then scripts/shrink_h5md_frame.py out.h5 vesicle-frame.h5).
TEST(Validation, DISABLED_MakeVesicleFrame) {
  const char* out = std::getenv("MESO_VESICLE_FRAME");
  ASSERT_NE(out, nullptr) << "set MESO_VESICLE_FRAME to the file to write";
  VesicleParams vp;
  vp.n = 12000;  // the short form's box: L = 13.4, 150 chains
  vp.seed = 1;
  System sys = make_dpd_vesicle(vp);
  const uint64_t chains = vp.chains();
  ASSERT_EQ(chains, 150u);
  // The bilayer: chain c's direction from a Fibonacci lattice on its
  // leaflet's sphere; its first B block runs out from the core's middle
  // (radius R) along it, its A blocks sit 1.1 from R, its second B block
  // runs back beside the first, 0.38 (a bond) away along a tangent.
  const double R = 3.0;
  const uint64_t outer = 95;
  auto direction = [](uint64_t k, uint64_t n) {
    const double z = 1.0 - (2.0 * double(k) + 1.0) / double(n), r = std::sqrt(1.0 - z * z);
    const double phi = double(k) * std::numbers::pi * (3.0 - std::sqrt(5.0));
    return Vec3d{r * std::cos(phi), r * std::sin(phi), z};
  };
  const double depth[8] = {0.0, 0.38, 0.76, 1.1, 1.1, 0.76, 0.38, 0.0};
  for (uint64_t c = 0; c < chains; ++c) {
    const bool out_leaflet = c < outer;
    const Vec3d n = out_leaflet ? direction(c, outer) : direction(c - outer, chains - outer);
    const double s = out_leaflet ? 1.0 : -1.0;
    Vec3d t = std::fabs(n.z) < 0.9 ? Vec3d{-n.y, n.x, 0.0} : Vec3d{0.0, -n.z, n.y};
    t = (1.0 / std::sqrt(dot(t, t))) * t;
    for (int b = 0; b < 8; ++b)
      sys.particles.position[c * 8 + b] = (R + s * depth[b]) * n + (b < 4 ? -0.19 : 0.19) * t;
  }
  // The solvent out of the membrane and its head groups (R -+ 1.3), drawn
  // again uniformly where it is not.
  std::mt19937_64 rng(vp.seed);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  const double l = sys.box.lengths().x;
  for (std::size_t i = chains * 8; i < sys.particles.n_local; ++i)
    for (Vec3d& x = sys.particles.position[i]; std::fabs(std::sqrt(dot(x, x)) - R) < 1.3;)
      x = Vec3d{u(rng) * l, u(rng) * l, u(rng) * l};
  RunParams rp;
  rp.dt = 0.01;
  rp.skin = 0.3;
  rp.integrator = Integrator::velocity_verlet;
  rp.seed = 1;
  Simulation sim(test_support::validation_backend(), sys, rp);
  sim.run(1000);
  const ParticleData<double> p = sim.particles();
  std::vector<Vec3d> pos(p.n_local), vel(p.n_local, Vec3d{0, 0, 0});
  std::vector<Image> img(p.n_local, Image{0, 0, 0});
  std::vector<uint32_t> species(p.n_local);
  for (std::size_t i = 0; i < p.n_local; ++i) {
    Vec3d x = p.position[i];
    Image im{0, 0, 0};
    sim.system().box.wrap(x, im);
    pos[p.tag[i]] = x;
    species[p.tag[i]] = p.type[i];
  }
  io::H5mdMetadata meta;
  meta.workload = "dpd-vesicle";
  meta.setup = "vesicle-formation's committed frame: one bilayer sphere of 150 chains, t = 10 from its placing";
  meta.backend = "cpu";
  io::H5mdWriter w(out, p.n_local, sim.system().box, meta);
  io::H5mdFrame fr;
  fr.step = 1000;
  fr.time = 10.0;
  fr.position = &pos;
  fr.velocity = &vel;  // not needed by the analysis: zeros, which the file stores in a few bytes
  fr.image = &img;
  fr.species = &species;
  w.append(fr);
  w.close();
  const Morphology g = analyse_morphology(sim.system().box, p, short_form_morphology());
  std::cout << "wrote " << out << ": " << g.vesicles << " vesicle(s), " << g.aggregates.size() << " aggregate(s)\n";
}

}  // namespace
