// Reference-backend kernels on the dpd-fluid workload (rho = 3, a = 25,
// gamma = 4.5, s = 0.5, r_c = 1): cell list, neighbor list, forces and the
// whole step, each per particle. Names follow Google Benchmark conventions:
// BM_<kernel>/<N>. The mesobench CLI measures whole runs; these isolate pieces.
#include <benchmark/benchmark.h>

#include "meso/core/presets.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"

namespace {

using namespace meso;

System fluid(int64_t n) {
  DpdFluidParams p = presets::tang_dpd_fluid(3.0, static_cast<uint64_t>(n));
  p.seed = 7;
  return make_dpd_fluid(p);
}

RunParams run_params() {
  RunParams r;
  r.dt = 0.005;
  r.skin = 0.3;
  return r;
}

void BM_CpuCellList(benchmark::State& state) {
  Simulation sim(std::make_unique<reference::CpuBackend<double>>(Variant{}), fluid(state.range(0)),
                 run_params());
  for (auto _ : state) sim.plan().cells().build();
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_CpuCellList)->Arg(32768)->Arg(262144)->Unit(benchmark::kMillisecond);

void BM_CpuNeighborList(benchmark::State& state) {
  Simulation sim(std::make_unique<reference::CpuBackend<double>>(Variant{}), fluid(state.range(0)),
                 run_params());
  for (auto _ : state) sim.plan().nlist().build();
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_CpuNeighborList)->Arg(32768)->Arg(262144)->Unit(benchmark::kMillisecond);

void BM_CpuDpdForce(benchmark::State& state) {
  Simulation sim(
      std::make_unique<reference::CpuBackend<double>>(Variant::parse(state.range(1) ? "rng=tea" : "rng=philox")),
      fluid(state.range(0)), run_params());
  ForceOp& force = *sim.plan().forces().front();
  ForceRequest r;
  for (auto _ : state) {
    ++r.step;
    force.compute(r);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetLabel(state.range(1) ? "rng=tea" : "rng=philox");
}
BENCHMARK(BM_CpuDpdForce)->Args({32768, 0})->Args({32768, 1})->Args({262144, 0})
    ->Unit(benchmark::kMillisecond);

void BM_CpuDpdStep(benchmark::State& state) {
  Simulation sim(std::make_unique<reference::CpuBackend<double>>(Variant{}), fluid(state.range(0)),
                 run_params());
  for (auto _ : state) sim.run(1);
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.counters["TPS"] = benchmark::Counter(static_cast<double>(state.iterations()),
                                             benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CpuDpdStep)->Arg(32768)->Arg(262144)->Unit(benchmark::kMillisecond);

}  // namespace
