// A System is everything a backend needs to advance DPD dynamics: the box, the
// particles and the per-type-pair parameter tables. Heterogeneous bead types
// are ordinary input: every parameter is looked up per (type_i, type_j).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meso/box.hpp"
#include "meso/particle_data.hpp"
#include "physics/body_force.hpp"
#include "physics/dpd_force.hpp"

namespace meso {

// Symmetric ntypes x ntypes table stored densely so that kernels can index it
// as params[ti * ntypes + tj] without branches.
template <class T>
class PairTable {
 public:
  PairTable() = default;
  explicit PairTable(uint32_t ntypes, const T& fill = T{})
      : ntypes_(ntypes), data_(static_cast<std::size_t>(ntypes) * ntypes, fill) {}

  uint32_t ntypes() const { return ntypes_; }
  const T& operator()(uint32_t i, uint32_t j) const { return data_[i * ntypes_ + j]; }
  // Sets both (i, j) and (j, i): interactions are symmetric.
  void set(uint32_t i, uint32_t j, const T& v) {
    data_[i * ntypes_ + j] = v;
    data_[j * ntypes_ + i] = v;
  }
  const std::vector<T>& data() const { return data_; }

 private:
  uint32_t ntypes_ = 0;
  std::vector<T> data_;
};

struct System {
  Box box;
  ParticleData<double> particles;
  std::vector<std::string> type_names{"A"};
  std::vector<double> type_mass{1.0};
  PairTable<physics::DpdPairParams> dpd{1};
  double kT = 1.0;
  // External driving (Poiseuille flows); inactive (g = 0) by default. Every
  // backend adds it to the pair forces of local particles in compute_forces.
  physics::BodyForce body_force;

  uint32_t ntypes() const { return static_cast<uint32_t>(type_names.size()); }
  double max_rcut() const;
  double density() const { return static_cast<double>(particles.n_local) / box.volume(); }

  // Throws InputError naming the first inconsistent value: positive box,
  // masses and cutoffs, finite state, types within range, unique tags, and a
  // box of at least 2 (r_c + skin) so minimum image is unambiguous.
  void validate(double skin) const;
};

// The parameters of a homogeneous DPD fluid (the `dpd-fluid` workload and
// the REFERENCES.md cases): one bead type, a, gamma, kT, r_c, s, density.
struct DpdFluidParams {
  double rho = 3.0;
  double a = 25.0;
  double gamma = 4.5;
  double kT = 1.0;
  double rcut = 1.0;
  double s = 1.0;
  double mass = 1.0;
  // Box: cubic with N = rho L^3 when only n is given; lx, ly, lz override.
  uint64_t n = 0;
  double lx = 0.0, ly = 0.0, lz = 0.0;
  uint64_t seed = 1;

  void validate() const;
};

// Builds a homogeneous DPD fluid: uniform random positions and Maxwell-Boltzmann
// velocities at kT with zero net momentum (see init.hpp), both from `seed`.
System make_dpd_fluid(const DpdFluidParams& p);

}  // namespace meso
