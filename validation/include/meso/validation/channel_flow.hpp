// Body-force-driven flow between two planes (the Poiseuille validation
// cases): the analytic start-up series (Tang & Karniadakis 2014 Eq. 10,
// Sigalotti et al. 2003) and the reverse-Poiseuille viscosity measurement
// that both Poiseuille cases share, so that the transient case takes its
// viscosity from exactly the code path the viscosity case validates.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "meso/analysis/parabola_fit.hpp"
#include "meso/run/backend.hpp"
#include "meso/core/mpcd.hpp"
#include "meso/analysis/velocity_profile.hpp"
#include "meso/validation/validation_case.hpp"

namespace meso::validation {

// Start-up flow in a channel of width d (walls at z = +-d/2, z measured from
// the centre line), fluid at rest at t = 0, driven by a body force per unit
// mass g, kinematic viscosity nu:
//   u(z,t) = g d^2/(8 nu) (1 - (2z/d)^2)
//            - sum_n 4 (-1)^n g d^2 / (nu pi^3 (2n+1)^3) cos((2n+1) pi z/d) exp(-(2n+1)^2 pi^2 nu t/d^2)
// docs/reference.md writes F for the driving; with nu kinematic, F/nu must be
// an acceleration over a kinematic viscosity (F = rho g over eta = rho nu is
// the same ratio), so F = g here.
// Returns the average of u over z in [z0, z1] and t in [t0, t1] (exact
// integrals of each term; z0 == z1 or t0 == t1 give point values).
double startup_channel_velocity(double z0, double z1, double t0, double t1, double g, double nu, double d);

// Viscosity from reverse Poiseuille flow in a periodic box (Backer et al.
// 2005): body force +g along z for x < 0 and -g for x >= 0, a parabola
// fitted to each half of the binned profile u_z(x). The protocol is the same
// for every fluid; the fluid comes from a DrivenFlow (the DPD fluid, the SRD
// solvent, or any other), so that all share one measurement.
struct ReversePoiseuilleProtocol {
  double g = 0.055;
  uint32_t bins = 48;             // along x; even, so that bins do not straddle the force boundary
  double equilibrate_time = 100;  // from rest to steady state
  double production_time = 100;   // profile averaged over this
  double sample_every_time = 0.1;
  double monitor_every_time = 1.0;  // flow amplitude series (approach to steady state)
  int runs = 10;                    // independent: own seed and initial configuration
  uint64_t seed = 1;
};

// The DPD fluid (System::body_force).
struct ReversePoiseuilleSetup : ReversePoiseuilleProtocol {
  DpdFluidParams fluid;  // lx: gradient direction (two channels of width lx/2); flow along z
  RunParams run;
};

// The MPCD/SRD solvent (MpcdParams::body_force, applied while it streams);
// one step is one collision period solvent.dt.
struct SrdReversePoiseuilleSetup : ReversePoiseuilleProtocol {
  MpcdParams solvent;  // its body_force is set by the measurement
  double lx = 16.0, ly = 8.0, lz = 8.0;  // box edges in cells of solvent.cell_size; lx: gradient direction
  double rho = 10.0;                     // particles per cell
};

// One independent run of a driven fluid, as the measurement sees it.
class DrivenFlow {
 public:
  virtual ~DrivenFlow() = default;
  virtual Box box() const = 0;
  virtual double kT() const = 0;
  virtual double total_mass() const = 0;
  virtual uint64_t size() const = 0;
  virtual double step_time() const = 0;  // simulation time per step
  virtual uint64_t step() const = 0;
  virtual void run(uint64_t steps) = 0;
  // Copies the particles out of the backend; the spans stay valid until the
  // next call.
  virtual ParticleSpans snapshot() = 0;
};
// Builds run k's fluid (no mean flow yet, driven by the reverse body force g along z
// flipping across x) from its seed.
using DrivenFlowFactory = std::function<std::unique_ptr<DrivenFlow>(uint64_t seed)>;

struct ReversePoiseuilleRun {
  uint64_t seed = 0;
  std::vector<double> profile;  // production average, centre-of-mass frame
  double eta = 0.0;             // from the curvature of both halves
  double eta_lower = 0.0, eta_upper = 0.0;
  double eta_first = 0.0, eta_second = 0.0;  // first and second half of the production
  double model_se = 0.0;                     // fluctuating-hydrodynamics standard error of eta
  std::vector<double> monitor_time, monitor_amplitude;
};

struct ReversePoiseuilleResult {
  std::vector<ReversePoiseuilleRun> runs;
  std::vector<double> centers, mean_profile;
  double mass_density = 0.0;
  double eta = 0.0;       // mean of the runs
  double se_runs = 0.0;   // standard deviation of the runs / sqrt(runs); 0 for one run
  double se_model = 0.0;  // fluctuating-hydrodynamics standard error of the mean
  double se = 0.0;        // the one used: se_runs with >= 5 runs, otherwise se_model
  std::string se_method;
  double relaxation_time = 0.0;  // d^2 / (pi^2 nu) of the slowest start-up mode
  double startup_bias = 0.0;     // relative eta bias left by the start-up transient
  bool steady = false;           // startup_bias <= 0.25 se / eta
  nlohmann::json fits;           // parabolas of the mean profile, per half (for plots)
  uint64_t n = 0;
};

// Runs `p.runs` independent runs (run k from seed ctx.seed + 1000003 k) and
// combines them: the one measurement behind both overloads below.
ReversePoiseuilleResult measure_reverse_poiseuille(const Context& ctx, const ReversePoiseuilleProtocol& p,
                                                   const DrivenFlowFactory& make_run);
ReversePoiseuilleResult measure_reverse_poiseuille(const Context& ctx, const ReversePoiseuilleSetup& s);
ReversePoiseuilleResult measure_reverse_poiseuille(const Context& ctx, const SrdReversePoiseuilleSetup& s);
nlohmann::json to_json(const ReversePoiseuilleResult& r);

// Plane Poiseuille flow between slit walls at z = +-h driven by g along the
// walls (the slit gates): the parabola c0 + c1 z + c2 z^2 fitted to the
// profile u(z) gives eta = -rho_m g / (2 c2) and the slip length
// b = u_wall / |du/dz|_wall, u_wall the fit at z = +-h averaged (c0 + c2 h^2:
// the linear term cancels) and the wall shear rate 2 |c2| h.
struct SlitFit {
  double eta = 0.0;
  double slip = 0.0;  // both walls averaged
  ParabolaFit fit;
};
SlitFit fit_slit(const std::vector<double>& z, const std::vector<double>& u, double h, double rho_m, double g);

// The production of a slit gate in steps of dt: equilibration from rest,
// then `blocks` blocks of whole sampling periods, one profile per block.
struct SlitSchedule {
  double dt = 0.0;
  uint64_t equilibrate = 0, sample = 1, block = 1;
  int blocks = 2;
  double start() const { return static_cast<double>(equilibrate) * dt; }  // of the production
  double end() const { return start() + static_cast<double>(block * static_cast<uint64_t>(blocks)) * dt; }
};
// Throws InputError naming a negative or zero time or fewer than 2 blocks.
SlitSchedule slit_schedule(double dt, double equilibrate_time, double production_time, double sample_every_time,
                           int blocks);

// Runs the schedule: run(n) advances n steps, sample(p) adds the state now
// to p; each block's profile starts as a copy of `empty`.
std::vector<VelocityProfile> sample_slit_blocks(const SlitSchedule& s, const VelocityProfile& empty,
                                                const std::function<void(uint64_t)>& run,
                                                const std::function<void(VelocityProfile&)>& sample,
                                                const std::string& title);

// The parabola of the blocks merged and of each block over the bins with
// |z| < z_fit, the standard errors of eta and the slip length over the
// blocks, and how steady the production was: the no-slip start-up series
// (startup_channel_velocity) with the measured nu, averaged over the
// production window and fitted like the data, gives the relative curvature
// the transient still leaves out (startup_bias; 1 without a positive nu),
// steady when it is below SE/4.
struct SlitMeasurement {
  std::vector<double> z, u;  // the fitted bins' centres and mean velocities
  SlitFit fit;
  std::vector<double> eta_blocks, slip_blocks;
  double se_eta = 0.0, se_slip = 0.0;
  double startup_bias = 1.0;
  bool steady = false;
};
SlitMeasurement measure_slit(const std::vector<VelocityProfile>& blocks, double z_fit, double h, double rho_m,
                             double g, const SlitSchedule& s);
// What both slit gates report of it: the blocks' eta and slip length, the
// slip length and its SE, how steady, and the relaxation time H^2 / (pi^2 nu).
void add_slit_data(nlohmann::json& data, const SlitMeasurement& m, double h, double rho_m);

// Kinetic-theory viscosity of a DPD fluid with w_D = (1 - r/r_c)^(2s)
// (Groot & Warren 1997 Eq. 34-35 after Marsh; mass 1): the kinetic part
// 45 kT / (4 pi gamma r_c^3) for s = 1, generally (m kT / (2 gamma)) / I_2 with
// I_2 = (4 pi / 3) int r^2 w_D(r) dr, plus the dissipative part
// (2 pi gamma rho^2 / 15) int r^4 w_D(r) dr. It neglects velocity
// correlations between neighbours, which strong friction builds up.
struct KineticViscosity {
  double kinetic = 0.0, dissipative = 0.0;
  double total() const { return kinetic + dissipative; }
};
KineticViscosity kinetic_theory_viscosity(double rho, double gamma, double kT, double rcut, double s);

// Shear viscosity of SRD with a random grid shift in three dimensions from
// kinetic theory: Kikuchi, Pooley, Ryder & Yeomans, J. Chem. Phys. 119, 6388
// (2003), as collected in the review of Gompper, Ihle, Kroll & Winkler, Adv.
// Polym. Sci. 221, 1 (2009) (its kinetic and collisional viscosities of
// SRD), with n the mean number of particles per cell, a the cell size, h = dt_c, m the
// particle mass, alpha the rotation angle:
//   kinetic     (n kT h / a^3) [5n / ((n - 1 + e^-n)(4 - 2 cos a - 2 cos 2a)) - 1/2]
//   collisional (m / (18 a h)) (n - 1 + e^-n) (1 - cos a)
// (the factor n - 1 + e^-n averages over Poisson-distributed cell
// occupancies). The kinetic part assumes molecular chaos, which fails at
// small mean free paths h sqrt(kT/m) << a; there the collisional part, exact
// up to the occupancy average (Ihle, Tuzel & Kroll, PRE 72, 046707 (2005)),
// dominates.
struct SrdViscosity {
  double kinetic = 0.0, collisional = 0.0;
  double total() const { return kinetic + collisional; }
};
SrdViscosity srd_kinetic_theory_viscosity(double n, double kT, double mass, double a, double dt, double angle_deg);

}  // namespace meso::validation
