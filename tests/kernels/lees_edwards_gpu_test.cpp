// GPU (label gpu): Lees-Edwards shear is not on the CUDA backend yet
// (docs/walls.md): every list kind finds pairs by the periodic minimum image
// or periodic cell shifts, so a sheared system is refused by name rather
// than run unsheared. Skips (not passes) without a device.
#include <gtest/gtest.h>

#include <string>

#include "gpu_test_support.hpp"
#include "meso/core/error.hpp"
#include "meso/run/simulation.hpp"

namespace {

using namespace meso;
using namespace test;

TEST(LeesEdwardsGpu, ShearIsRefusedByName) {
  REQUIRE_GPU();
  const BackendRegistry reg = make_registry();
  DpdFluidParams f;
  f.lx = f.ly = f.lz = 6.0;
  f.shear_rate = 0.5;
  for (const char* v : {"precision=double", "precision=mixed,nlist=half"}) {
    try {
      Simulation gpu(reg.create("cuda", Variant::parse(v)), make_dpd_fluid(f), RunParams{});
      ADD_FAILURE() << "shear on the cuda backend was accepted (" << v << ")";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("shear_rate = 0.5: Lees-Edwards shear is not provided by the cuda backend"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
