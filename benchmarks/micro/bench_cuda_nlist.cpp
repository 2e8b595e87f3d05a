// Tang & Karniadakis Table 2 re-measured: neighbor-list build time of the
// `ballot` and `atomic` builders for rho in {3, 6, 50}, n in {64k, 512k}
// (r_c = 1, skin 0.3, dpd-fluid parameters), on a fluid relaxed for 200
// steps from its random start. The time is the list kernel plus its
// bookkeeping kernel, median of 20 CUDA-event-timed builds on the same
// state (cell list excluded, as in the paper's table; reported separately).
// Name: BM_NeighborListBuild/<ballot|atomic>/rho:<rho>/n:<n>.
#include <benchmark/benchmark.h>

#include "meso/cuda/cuda_backend.hpp"
#include "meso/cuda/device_info.hpp"
#include "meso/run/simulation.hpp"

namespace {

using namespace meso;

void BM_NeighborListBuild(benchmark::State& state, const char* nlist) {
  if (cuda::device_count() == 0) {
    state.SkipWithError("no CUDA device");
    return;
  }
  DpdFluidParams fp;
  fp.rho = double(state.range(0));
  fp.n = uint64_t(state.range(1));
  fp.s = 0.5;
  fp.seed = 11;
  BackendRegistry reg;
  cuda::register_cuda_backend(reg);
  Variant v = Variant::parse(std::string("nlist=") + nlist);
  RunParams rp;
  Simulation sim(reg.create("cuda", v), make_dpd_fluid(fp), rp);
  sim.run(200);
  auto& info = dynamic_cast<cuda::CudaBackendInfo&>(sim.backend());
  std::map<std::string, cuda::KernelProfile> k;
  for (auto _ : state) {
    k = info.profile_kernels(20);
    state.SetIterationTime(k["nlist"].median_us * 1e-6);
  }
  state.counters["nlist_ms"] = k["nlist"].median_us * 1e-3;
  state.counters["cells_ms"] = k["cells"].median_us * 1e-3;
  state.counters["mean_neighbors"] = sim.neighbor_stats().mean_neighbors;
}

void table2(benchmark::internal::Benchmark* b) {
  for (int rho : {3, 6, 50})
    for (int n : {65536, 524288}) b->Args({rho, n});
  b->ArgNames({"rho", "n"})->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);
}

BENCHMARK_CAPTURE(BM_NeighborListBuild, ballot, "ballot")->Apply(table2);
BENCHMARK_CAPTURE(BM_NeighborListBuild, atomic, "atomic")->Apply(table2);

}  // namespace
