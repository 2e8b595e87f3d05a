// trajectory_digest: runs a named workload's default state point for a number
// of steps on one backend and variant and prints FNV-1a digests of the state
// (positions, velocities, forces, images, in tag order) every `every` steps.
// Two builds that print the same digests ran bitwise identical trajectories;
// it is how a refactor that must not change behaviour is checked (the
// before/after logs in results/refactor/).
//
//   trajectory_digest dpd-fluid|lj-liquid N backend variant steps every [skin inner_skin]
//
// skin and inner_skin replace the workload's skin and turn on dynamic
// pruning (RunParams::inner_skin; the sanitizer runs of the prune kernel).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "meso/run/backend.hpp"
#include "meso/reference/cpu_backend.hpp"
#include "meso/run/simulation.hpp"
#include "meso/core/system.hpp"
#ifdef MESO_HAVE_CUDA
#include "meso/cuda/cuda_backend.hpp"
#endif

namespace {

struct Fnv {
  uint64_t h = 1469598103934665603ull;
  void add(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  }
};

uint64_t digest(const meso::ParticleData<double>& p) {
  Fnv f;
  for (std::size_t i = 0; i < p.n_local; ++i) {
    f.add(&p.position[i], sizeof(p.position[i]));
    f.add(&p.velocity[i], sizeof(p.velocity[i]));
    f.add(&p.force[i], sizeof(p.force[i]));
    f.add(&p.image[i], sizeof(p.image[i]));
    f.add(&p.tag[i], sizeof(p.tag[i]));
  }
  return f.h;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7 && argc != 9) {
    std::fprintf(stderr, "usage: %s dpd-fluid|lj-liquid N backend variant steps every [skin inner_skin]\n",
                 argv[0]);
    return 2;
  }
  try {
    const std::string workload = argv[1];
    const uint64_t n = std::stoull(argv[2]);
    const std::string backend = argv[3], variant = argv[4];
    const uint64_t steps = std::stoull(argv[5]), every = std::stoull(argv[6]);
    meso::System sys;
    meso::RunParams run;
    run.dt = 0.005;
    run.rebuild_every = 0;
    if (workload == "dpd-fluid") {  // benchmarks/mesobench/workloads.cpp, dpd_fluid()
      meso::DpdFluidParams f;
      f.rho = 3.0; f.a = 25.0; f.gamma = 4.5; f.kT = 1.0; f.rcut = 1.0; f.s = 0.5;
      f.n = n; f.seed = 12345;
      sys = meso::make_dpd_fluid(f);
      run.skin = 0.3;
    } else if (workload == "lj-liquid") {  // lj_liquid()
      meso::LjLiquidParams l;
      l.n = n; l.packing_fraction = 0.20; l.kT = 1.2; l.rcut = 3.0;
      l.mode = meso::physics::LjMode::shift; l.seed = 12345;
      sys = meso::make_lj_liquid(l);
      run.skin = 0.4;
      run.integrator = meso::Integrator::nvt;
      run.kT = 1.2;
      run.tau = 0.5;
    } else {
      std::fprintf(stderr, "unknown workload '%s'\n", workload.c_str());
      return 2;
    }
    if (argc == 9) {
      run.skin = std::stod(argv[7]);
      run.inner_skin = std::stod(argv[8]);
    }
    meso::BackendRegistry reg;
    meso::reference::register_cpu_backend(reg);
#ifdef MESO_HAVE_CUDA
    meso::cuda::register_cuda_backend(reg);
#endif
    meso::Simulation sim(reg.create(backend, meso::Variant::parse(variant)), sys, run);
    std::printf("%s N=%llu backend=%s variant='%s'\n", workload.c_str(), (unsigned long long)n,
                backend.c_str(), variant.c_str());
    std::printf("step %6d digest %016llx\n", 0, (unsigned long long)digest(sim.particles()));
    for (uint64_t done = 0; done < steps;) {
      const uint64_t k = std::min(every, steps - done);
      sim.run(k);
      done += k;
      const auto t = sim.thermo();
      std::printf("step %6llu digest %016llx  pe %.17g ke %.17g\n", (unsigned long long)done,
                  (unsigned long long)digest(sim.particles()), t.potential_energy, t.kinetic_energy);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "trajectory_digest: %s\n", e.what());
    return 2;
  }
}
