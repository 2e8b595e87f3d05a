#include "variant_defaults.hpp"

#include <algorithm>

namespace meso::bench {

// How an entry gets here: it must be the fastest variant measured for that
// workload, backend and precision on the device the committed figures come
// from (an H200), among those that passed every gate the workload's physics
// has; an axis a gate never ran with is named in the evidence. Figures:
// results/cuda-dpd/README.md, results/cuda-lj/README.md and results/dppc/README.md.
const std::vector<VariantDefault>& variant_defaults() {
  static const std::vector<VariantDefault> table = {
      // dpd-fluid on the GPU: mixed precision, Morton order, fused second
      // half-step, fast pow and the fp32 Gaussian transform of the pair
      // noise. The gates with exactly this variant's physics: the
      // poiseuille-viscosity and dpd-temperature long forms (PASS, H200,
      // results/cuda-dpd/issue13-part2), the poiseuille-transient long form
      // with the same axes and fp64 noise (short form with fp32 noise), every
      // axis against the CPU reference in the GPU tests. Faster, not
      // default: rng=tea ran with no gate. Not faster: gather=masked (bitwise
      // this variant; +0.4% on the H200 within the spread, -1.2% on the
      // H100), gather=record, tpp > 1.
      {"dpd-fluid", "cuda", Precision::mixed,
       "precision=mixed,reorder=morton2,sort=100,pow=fast,fuse=on,noise=fp32",
       "H200, N = 1M: 1625 TPS (1502 with noise=fp64, 888 with Variant{}); H100: 1591; "
       "results/cuda-dpd/issue13-part2; gates: poiseuille-viscosity and dpd-temperature long "
       "forms (this variant), poiseuille-transient long form (noise=fp64), GPU tests"},
      {"dpd-fluid", "cuda", Precision::double_,
       "precision=double,reorder=morton2,sort=100,pow=fast,fuse=on",
       "H200, N = 1M: 1331 TPS (710 with Variant{}; gather=masked 1315, gather=record 1155); "
       "H100: 1278; results/cuda-dpd/issue13, issue13-part2; "
       "gates: poiseuille-viscosity long form (double, Variant{}), the same axes in mixed "
       "(poiseuille-transient long form), GPU tests"},
      {"dpd-fluid", "cuda", Precision::single,
       "precision=single,reorder=morton2,sort=100,pow=fast,fuse=on,noise=fp32",
       "the mixed default's axes in fp32 arithmetic (a drift-study precision; GPU tests only)"},
      // lj-liquid on the GPU: the tiled builder with 4 lanes per particle in
      // mixed (20813 TPS against 11357 with Variant{}), the atomic builder in
      // double (the fp64 tile leaves few blocks per SM). Gates: nve-drift
      // short form on the GPU with the tiled variant (double, mixed, single;
      // mixed shift p_drift fails there with every fp32 variant, the random
      // walk the long form resolves), GPU tests; the nve-drift long form ran
      // with Variant{} only.
      {"lj-liquid", "cuda", Precision::mixed,
       "precision=mixed,nlist=tiled,reorder=morton2,sort=100,tpp=4",
       "H200, N = 64000: 20813 TPS (results/cuda-lj); gates: nve-drift short form on the GPU with "
       "this variant, GPU tests; nve-drift long form ran with the default builder only"},
      {"lj-liquid", "cuda", Precision::double_,
       "precision=double,nlist=atomic,reorder=morton2,sort=100,tpp=4",
       "H200, N = 64000: 13888 TPS against 12742 (tiled) and 9465 (ballot) (results/cuda-lj); "
       "gates: nve-drift short form (tiled variant), GPU tests"},
      {"lj-liquid", "cuda", Precision::single,
       "precision=single,nlist=tiled,reorder=morton2,sort=100,tpp=4",
       "H200, N = 64000: 20794 TPS (results/cuda-lj); gates: nve-drift short form on the GPU with "
       "this variant, GPU tests"},
      // The CPU reference: the particles in cell order, sorted every 100
      // steps (reorder=cell,sort=100). The reorder only permutes storage (the
      // forces differ by summation round-off); the lists and the cell list
      // then walk memory in order. Measured on the 16-core host of an H100
      // (results/scaling/h100-cpu-5d4faf9): dpd-fluid N = 262144 one
      // thread 2.29 TPS against 0.76 with Variant{} (3.0x), 16 OpenMP
      // threads 19.8 against 11.05; lj-liquid N = 64000 one thread 8.89
      // against 6.73. Gates: every validation short form passes on the cpu
      // with it (`mesobench validate --backend cpu --variant
      // reorder=cell,sort=100`: results/validation/
      // cpu-short-reorder-cell-sort100.json; CI's gate runs Variant{}), and
      // the decomposition tests (forces to 1e-9 of one rank with TEA and
      // reorder=cell).
      {"dpd-fluid", "cpu", Precision::double_, "reorder=cell,sort=100",
       "H100 host, N = 262144: 2.29 TPS one thread (0.76 with Variant{}), 19.8 on 16 threads (11.05); "
       "results/scaling/h100-cpu-5d4faf9; gates: the CPU validation short forms with it "
       "(results/validation/cpu-short-reorder-cell-sort100.json)"},
      {"lj-liquid", "cpu", Precision::double_, "reorder=cell,sort=100",
       "H100 host, N = 64000: 8.89 TPS one thread (6.73 with Variant{}); results/scaling/h100-cpu-5d4faf9; "
       "gates: the CPU validation short forms with it (results/validation/cpu-short-reorder-cell-sort100.json)"},
      // srd-fluid on the GPU: mixed precision (fp32 positions and
      // velocities, the fixed-point cell sums exact in either) and the
      // solvent sorted into cell order every 25 collisions. Sorting only
      // permutes storage: the collisions are bitwise the same
      // (MpcdGpu.ReproducibleAndSortNeutral). Gates: the srd-momentum and
      // srd-viscosity long forms in mixed and in double (PASS, H200,
      // results/srd), GPU tests against the reference.
      {"srd-fluid", "cuda", Precision::mixed, "precision=mixed,reorder=cell,sort=25",
       "H200, L = 50: 10814 collisions/s (7704 unsorted, 8482 sort=5, 10039 sort=100; double sort=25 7874); "
       "results/srd; gates: srd-momentum and srd-viscosity long forms in mixed, GPU tests"},
      {"srd-fluid", "cuda", Precision::double_, "precision=double,reorder=cell,sort=25",
       "H200, L = 50: 7874 collisions/s; results/srd; gates: srd-momentum and srd-viscosity long forms in "
       "double, GPU tests"},
      // mdscf-dppc on the GPU (pair style none: bonded forces and the
      // MD-SCF field): mixed precision and the atomic scatter of the
      // density, faster than GALAMOST's per-vertex gather at both sizes
      // (fp64 atomics are native on sm_90; the gather's cell sort costs more
      // than the atomics save). Gate: the dppc-density long form with this
      // variant (H100, results/dppc), GPU tests against the reference for
      // both density variants and every precision.
      {"mdscf-dppc", "cuda", Precision::mixed, "precision=mixed,density=scatter",
       "H100: 20k beads 24001 TPS (gather 19944), 996k beads 3449 TPS (gather 3290); results/dppc; "
       "gates: dppc-density long form (this variant), GPU tests"},
      {"mdscf-dppc", "cuda", Precision::double_, "precision=double,density=scatter",
       "H100: 20k beads 23393 TPS (gather 19549), 996k beads 2825 TPS (gather 2703); results/dppc; "
       "gates: dppc-density long form in mixed, GPU tests (double against the reference)"},
  };
  return table;
}

Precision default_precision(const std::string& workload, const std::string& backend) {
  // Every workload runs in mixed on the GPU (what their gates and targets
  // are stated for); the CPU reference has no mixed.
  if (backend == "cuda" && (workload == "dpd-fluid" || workload == "lj-liquid" || workload == "mdscf-dppc" ||
                            workload == "srd-fluid"))
    return Precision::mixed;
  return Variant{}.precision;
}

std::string default_variant_text(const std::string& workload, const std::string& backend,
                                 Precision precision) {
  for (const auto& d : variant_defaults())
    if (d.workload == workload && d.backend == backend && d.precision == precision) return d.variant;
  if (precision == Variant{}.precision) return "";
  return std::string("precision=") + to_string(precision);
}

ResolvedVariant resolve_variant(const std::string& workload, const std::string& backend,
                                const std::string& given) {
  ResolvedVariant r;
  const Variant named = Variant::parse(given);  // validates given
  const std::vector<std::string> axes = Variant::named_axes(given);
  const bool has_precision = std::find(axes.begin(), axes.end(), "precision") != axes.end();
  const Precision p = has_precision ? named.precision : default_precision(workload, backend);
  r.base = default_variant_text(workload, backend, p);
  r.given = named.to_string(axes);
  r.variant = Variant::parse(given, Variant::parse(r.base));
  return r;
}

}  // namespace meso::bench
