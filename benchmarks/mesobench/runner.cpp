#include "runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <new>

#include "memory_estimate.hpp"
#include "meso/core/error.hpp"
#include "meso/run/progress.hpp"
#include "meso/run/simulation.hpp"

namespace meso::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::string ignored_axes(const Backend& b) {
  const auto applicable = b.applicable_axes();
  std::string out;
  for (const auto& a : Variant::axes())
    if (std::find(applicable.begin(), applicable.end(), a) == applicable.end())
      out += (out.empty() ? "" : ",") + a;
  return out;
}

// Warm-up (untimed steps that also calibrate how many steps fill min_time),
// then opt.repeats timed batches; advance(k) runs k steps.
template <class Advance>
void time_steps(BenchResult& r, Backend& b, const RunOptions& opt, Advance&& advance) {
  uint64_t warm_steps = 0;
  progress::begin(r.label + " (warm-up)", 0);
  const auto t_warm = Clock::now();
  while (warm_steps < 2 || seconds_since(t_warm) < opt.warmup_time) {
    advance(1);
    ++warm_steps;
  }
  b.synchronize();
  const double per_step = seconds_since(t_warm) / static_cast<double>(warm_steps);
  r.steps_per_repeat = std::max<uint64_t>(2, static_cast<uint64_t>(std::ceil(opt.min_time / per_step)));
  progress::begin(r.label, r.steps_per_repeat * static_cast<uint64_t>(opt.repeats));
  const progress::NoSplit whole_repeats;  // progress between repeats, none inside the timed calls

  for (int k = 0; k < opt.repeats; ++k) {
    b.synchronize();
    const auto t0 = Clock::now();
    advance(r.steps_per_repeat);
    b.synchronize();
    r.tps.push_back(static_cast<double>(r.steps_per_repeat) / seconds_since(t0));
  }
  progress::end();
  r.tps_median = median(r.tps);
  r.tps_min = *std::min_element(r.tps.begin(), r.tps.end());
  r.tps_max = *std::max_element(r.tps.begin(), r.tps.end());
  r.mps_median = r.tps_median * static_cast<double>(r.n) * 1e-6;
}

void describe(BenchResult& r, const BenchCase& c, const Backend& b, const Variant& variant, const Box& box) {
  r.bench = c;
  r.backend = b.name();
  r.variant_requested = variant.to_string();
  r.variant_effective = variant.to_string(b.applicable_axes());
  r.variant_ignored = ignored_axes(b);
  r.name = c.name(r.backend, r.variant_effective);
  r.label = c.label(r.variant_given);  // set by the callers before
  const Vec3d L = box.lengths();
  r.box[0] = L.x, r.box[1] = L.y, r.box[2] = L.z;
}

// One step is an MD step, or a collision period of a solvent alone; TPS
// counts those per second.
BenchResult run_case_impl(const BenchCase& c, const BackendRegistry& registry,
                          const std::string& backend, const ResolvedVariant& rv, const RunOptions& opt) {
  const Variant& variant = rv.variant;
  BenchResult r;
  r.variant_default = rv.base;
  r.variant_given = rv.given;
  const auto t_setup = Clock::now();
  SimulationSetup setup = c.make_setup();
  r.n = setup.size();
  const Box box = setup.box();
  Simulation sim(registry.create(backend, variant), std::move(setup));
  Backend& b = sim.backend();
  describe(r, c, b, variant, box);
  r.setup_seconds = seconds_since(t_setup);
  time_steps(r, b, opt, [&](uint64_t k) { sim.run(k); });
  r.neighbors = sim.neighbor_stats();
  r.final_thermo = sim.thermo();
  if (opt.inspect) r.device = opt.inspect(sim);
  // A benchmark of a diverged simulation measures nothing: refuse to report it.
  check_not_diverged(c, r.name, r.final_thermo.temperature, r.final_thermo.pressure, sim.step());
  return r;
}

}  // namespace

void describe_case(BenchResult& r, const BenchCase& c, const Backend& b, const ResolvedVariant& rv,
                   const Box& box) {
  r.variant_default = rv.base;
  r.variant_given = rv.given;
  describe(r, c, b, rv.variant, box);
}

BenchResult run_case(const BenchCase& c, const BackendRegistry& registry,
                     const std::string& backend, const ResolvedVariant& rv, const RunOptions& opt) {
  // check_fits_in_memory refused what cannot fit before anything ran; an
  // allocation can still fail (other processes, the device's memory, lists):
  // that too is reported with N and the bytes, as bad input.
  try {
    return run_case_impl(c, registry, backend, rv, opt);
  } catch (const std::bad_alloc& e) {
    // Thrust reports a failed device allocation as a std::bad_alloc too.
    progress::end();
    throw InputError(out_of_memory_message(c, backend == "cpu" ? "host" : "host or device", e.what()));
  } catch (const OutOfMemory& e) {
    progress::end();
    throw InputError(out_of_memory_message(c, backend == "cpu" ? "host" : "device", e.what()));
  }
}

}  // namespace meso::bench
