// The named workloads of DESIGN.md section 7 and the benchmark cases built from
// them. A case name reads like a Google Benchmark name and encodes everything
// that makes two numbers comparable:
//   dpd-fluid/step/<backend>/<effective variant>/rho=3/rc=1/s=0.5/N=32768
//   lj-liquid/step/<backend>/<effective variant>/phi=0.2/rc=3/N=64000
//   srd-fluid/collide/<backend>/<effective variant>/rho=10/L=50
//   mdscf-dppc/step/<backend>/<effective variant>/lipids=528/W=14000/grid=20x20x22
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meso/backend.hpp"
#include "meso/dppc.hpp"
#include "meso/mpcd.hpp"
#include "meso/system.hpp"

namespace meso::bench {

struct BenchCase {
  std::string workload;  // "dpd-fluid", "lj-liquid"
  std::string kernel;    // what is timed: "step" = the whole time step
  PairStyle style = PairStyle::dpd;
  DpdFluidParams fluid;  // style dpd
  LjLiquidParams lj;     // style lj
  // The MD-SCF DPPC bilayer (style none): bonded forces plus the field;
  // `replicate` k tiles the box k x k in the bilayer plane (k^2 lipids and
  // waters), the 1M-bead system at k = 7.
  DppcBilayerParams dppc;
  uint32_t replicate = 1;
  // The MPCD solvent workload (srd-fluid): one "step" is one collision
  // period (stream, sort when due, collide); no MD particles.
  bool mpcd = false;
  SrdFluidParams srd;
  MpcdParams solvent;
  RunParams run;
  bool in_default_suite = false;

  uint64_t n() const;
  void validate() const;  // the parameters of its style, and the run's
  System make_system() const;
  DppcBilayerParams dppc_params() const;  // dppc with the replication applied

  // Full name for a backend and the variant string it honoured.
  std::string name(const std::string& backend, const std::string& variant) const;
};

// All registered cases, in a fixed order.
const std::vector<BenchCase>& all_cases();

// Overrides from `--param key=value`: DPD cases take rho, a, gamma, kT, rc, s,
// N, L, dt, skin, rebuild_every, integrator, lambda, seed, types; LJ cases take rho,
// phi, kT, rc, ron, mode, N, dt, skin, rebuild_every, integrator, tau, gamma,
// seed; the mdscf-dppc case takes lipids, waters, replicate, lx, ly, lz,
// kelvin, grid (spacing, nm), sigma (filter, nm), update (steps), kappa,
// rho0, dt (ps), gamma (Langevin drag, 1/ps), seed; the srd-fluid case takes L, N (the cubic box of whole
// cells nearest to N at rho), rho, kT, angle, dt, rule (srd, at),
// thermostat (0, 1), shift (0, 1), seed. Throws InputError naming an
// unknown key or a value that does not parse; physical validity is checked by
// the engine when the system is built.
void apply_param(BenchCase& c, const std::string& key_value);

}  // namespace meso::bench
