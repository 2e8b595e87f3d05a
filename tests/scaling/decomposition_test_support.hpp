// Shared by the domain decomposition tests (decomposition_test.cpp,
// decomposition_mpcd_test.cpp; both in decomposition_test and, built with
// MESO_DECOMPOSITION_CUDA, decomposition_gpu_test): this rank and the number
// of ranks, the backend the ranks run (CPU reference or CUDA), and the DPD
// and LJ systems and the SRD solvent they compare, with and without slit walls.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <memory>
#include <string_view>

#include "meso/reference/cpu_backend.hpp"
#ifdef MESO_DECOMPOSITION_CUDA
#include <cuda_runtime_api.h>

#include <string>

#include "meso/cuda/cuda_backend.hpp"
#include "meso/cuda/device_info.hpp"
#include "../support/test_variant.hpp"
#endif
#include "meso/core/dpd_slit.hpp"
#include "meso/core/init.hpp"
#include "meso/core/mpcd.hpp"
#include "meso/run/simulation.hpp"

namespace meso::scaling::test {

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int world_size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

#ifdef MESO_DECOMPOSITION_CUDA
inline constexpr const char* kBackend = "cuda";
inline std::unique_ptr<Backend> backend(const Variant& v) {
  BackendRegistry r;
  cuda::register_cuda_backend(r);
  return r.create("cuda", meso::test::with_test_axes(v));
}
// Why --transport nccl cannot run here, or empty: one rank moves nothing,
// the build may have no NCCL, and NCCL wants a GPU per rank.
inline std::string nccl_unavailable() {
  if (world_size() < 2) return "one rank moves nothing between GPUs";
  if (!cuda::nccl_available()) return "this build has no NCCL";
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus < world_size())
    return std::to_string(world_size()) + " ranks on " + std::to_string(gpus) + " GPU(s): NCCL needs a GPU per rank";
  return {};
}
// The CUDA variant of the gates: fp64 storage and arithmetic; `axes` over it.
inline std::unique_ptr<Backend> cpu(std::string_view axes = "") {
  return backend(Variant::parse(axes, Variant::parse("precision=double")));
}
#else
inline constexpr const char* kBackend = "cpu";
inline std::unique_ptr<Backend> backend(const Variant& v) { return std::make_unique<reference::CpuBackend<double>>(v); }
inline std::unique_ptr<Backend> cpu(std::string_view axes = "") { return backend(Variant::parse(axes)); }
#endif

// A system and its run parameters, as the tests compare them on one rank
// and on many.
struct Case {
  const char* name;
  System sys;
  RunParams rp;
};

inline Case dpd_case() {
  DpdFluidParams f;
  f.n = 3000;  // L = 10: 8 ranks make domains of 5 > r_c + skin
  f.seed = 7;
  Case c{"dpd", make_dpd_fluid(f), {}};
  c.rp.dt = 0.02;
  c.rp.skin = 0.3;
  c.rp.seed = 11;
  return c;
}

inline Case lj_case() {
  LjLiquidParams l;
  l.n = 4000;
  l.rho = 0.5;  // L = 20: 8 ranks make domains of 10 > r_c + skin = 2.8
  l.seed = 3;
  Case c{"lj", make_lj_liquid(l), {}};
  c.rp.dt = 0.004;
  c.rp.integrator = Integrator::nve;
  c.rp.skin = 0.3;
  return c;
}

// dpd-channel's fluid between slit walls normal to z (docs/walls.md), the
// upper moving at +0.2 and the lower at -0.2 along x, driven along x: 1080
// particles in a slit 6 x 6 x 10 (box 6 x 6 x 12). Taller than wide, so
// that without the walls the grid of two ranks would split z (1x1x2); with
// them every grid keeps z whole (8 ranks: 4x2x1, domains 1.5 x 3 > r_c +
// skin).
inline Case dpd_slit_case() {
  DpdSlitParams p;
  p.fluid.lx = p.fluid.ly = 6.0;
  p.fluid.seed = 9;
  p.height = 10.0;
  p.wall_speed = 0.2;
  Case c{"dpd slit", make_dpd_slit(p), {}};
  c.sys.body_force.g = {0.05, 0.0, 0.0};
  c.rp.dt = 0.01;
  c.rp.skin = 0.3;
  c.rp.seed = 19;
  return c;
}

// The same system with its particles stored in reverse order: the same
// physics, summed in another order (the round-off yardstick of the
// comparisons with one rank).
inline System reversed(System s) {
  ParticleData<double>& p = s.particles;
  std::reverse(p.position.begin(), p.position.end());
  std::reverse(p.velocity.begin(), p.velocity.end());
  std::reverse(p.force.begin(), p.force.end());
  std::reverse(p.type.begin(), p.type.end());
  std::reverse(p.tag.begin(), p.tag.end());
  std::reverse(p.image.begin(), p.image.end());
  return s;
}

// The SRD solvent the MPCD tests compare.
inline MpcdSystem srd_case(const MpcdParams& prm, double L = 8.0) {
  SrdFluidParams f;
  f.L = L;  // 8 cells: 8 ranks (2 x 2 x 2) make domains of 4 cells >= 2
  f.rho = 10.0;
  f.seed = 17;
  return make_srd_fluid(f, prm);
}

// The SRD solvent between slit walls 8 cells apart (box 8 x 8 x 10 cells):
// without the walls the grid of two ranks would split z; with them 8 ranks
// make 4x2x1, domains of 2 x 4 cells.
inline MpcdSystem srd_slit_case(const MpcdParams& prm) {
  SrdSlitParams f;
  f.lx = f.ly = 8.0;
  f.height = 8.0;
  f.seed = 23;
  return make_srd_slit(f, prm);
}

}  // namespace meso::scaling::test
