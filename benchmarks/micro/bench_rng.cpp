// Per-call cost of the pair-noise generators (Tang & Karniadakis sec. 3.4
// compare TEA with other RNGs). Inputs vary every call so nothing is hoisted.
#include <benchmark/benchmark.h>

#include "meso/physics/pair_noise.hpp"
#include "meso/physics/philox.hpp"
#include "meso/physics/tea.hpp"

namespace {

void BM_Philox4x32_10(benchmark::State& state) {
  uint32_t i = 1;
  for (auto _ : state) {
    const auto r = meso::physics::philox4x32_10({{i, i + 7, 3, 0}}, {{42, 0}});
    benchmark::DoNotOptimize(r);
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Philox4x32_10);

void BM_PairGaussian_Philox(benchmark::State& state) {
  uint32_t i = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(meso::physics::pair_gaussian_philox(i, i + 13, 1000, 42));
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PairGaussian_Philox);

void BM_PairGaussian_Tea(benchmark::State& state) {
  uint32_t i = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(meso::physics::pair_gaussian_tea(i, i * 2654435761u, i + 13,
                                                              (i + 13) * 2654435761u, 1000, 42));
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PairGaussian_Tea);

void BM_TeaSignature(benchmark::State& state) {
  uint32_t i = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(meso::physics::tea_signature(i, 0.1f * i, -0.2f, 0.3f, 42));
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TeaSignature);

}  // namespace
