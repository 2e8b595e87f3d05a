// Binned velocity profiles for flow measurements (Poiseuille, Couette): the
// mass-weighted mean of one velocity component in slabs along one axis,
// accumulated over many snapshots. A profile is the ratio of two sums,
// sum(m v) / sum(m) per bin over all samples, i.e. the momentum density over
// the mass density, which is what continuum hydrodynamics calls u(x); averaging
// per-snapshot bin means instead would weight sparse snapshots too heavily.
// Any particle container can be profiled: the MD ParticleData, the MPCD
// solvent (MpcdParticles, one mass), or spans over arrays of any other.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "meso/core/box.hpp"
#include "meso/core/particle_data.hpp"

namespace meso {

struct MpcdParticles;  // meso/core/mpcd.hpp

// One snapshot as a profile reads it: n particles' wrapped positions and
// velocities, their types, and the mass of each type (indexed by type).
struct ParticleSpans {
  std::span<const Vec3d> position, velocity;
  std::span<const uint32_t> type;
  std::span<const double> type_mass;
};

class VelocityProfile {
 public:
  VelocityProfile() = default;
  // Slabs of equal width tile the box along `axis` (0, 1, 2 = x, y, z), from
  // -L/2 to L/2; `component` is the velocity component averaged. Throws
  // InputError for bins == 0 or an axis/component outside 0..2.
  VelocityProfile(const Box& box, int axis, int component, uint32_t bins);

  // When set, every snapshot is taken in its centre-of-mass frame along
  // `component`: the mass-weighted mean velocity of all particles is
  // subtracted. A reverse Poiseuille flow gives the centre of mass a random
  // walk (the two halves hold slightly different numbers of particles, so
  // the opposite body forces do not cancel exactly); that uniform drift is
  // not part of the flow being compared with hydrodynamics.
  void set_remove_center_of_mass(bool on) { remove_com_ = on; }

  // Adds one snapshot (positions must be wrapped into the box). Throws
  // InputError when the spans differ in length or a type has no mass.
  void add(const ParticleSpans& p);
  // The local particles of an MD snapshot; type_mass is indexed by type.
  void add(const ParticleData<double>& p, const std::vector<double>& type_mass);
  // An MPCD solvent snapshot: every particle has the one solvent mass.
  void add(const MpcdParticles& p, double mass);

  uint32_t bins() const { return static_cast<uint32_t>(mass_.size()); }
  int axis() const { return axis_; }
  int component() const { return component_; }
  double bin_width() const { return width_; }
  double bin_center(uint32_t b) const { return lo_ + (b + 0.5) * width_; }
  std::vector<double> centers() const;
  uint64_t samples() const { return samples_; }

  // sum(m v) / sum(m) per bin; an empty bin gives NaN (not 0, which would
  // look like a measured velocity).
  std::vector<double> mean() const;
  // Mean number of particles per bin per snapshot.
  std::vector<double> mean_count() const;

  void reset();
  // Adds the sums of another profile with the same geometry (e.g. the same
  // time window of an independent run). Throws InputError on a mismatch.
  void merge(const VelocityProfile& other);

 private:
  // The one accumulation loop behind every add(); mass_of(i) is particle
  // i's mass.
  template <class MassOf>
  void accumulate(std::span<const Vec3d> position, std::span<const Vec3d> velocity, MassOf mass_of);

  int axis_ = 0;
  int component_ = 0;
  double lo_ = 0.0;
  double width_ = 1.0;
  bool remove_com_ = false;
  std::vector<double> momentum_, mass_;
  std::vector<uint64_t> count_;
  uint64_t samples_ = 0;
};

// A set of time windows [begin, end] (in simulation time), each with its own
// profile: the published transient profiles are averages over
// [T - 0.5, T + 0.5] at several T. sample() adds a snapshot to every window
// containing its time, both ends included.
class WindowedProfiles {
 public:
  struct Window {
    double begin = 0.0, end = 0.0;
    VelocityProfile profile;
  };

  // Throws InputError when a window is empty (end < begin), starts before 0,
  // or ends after run_end, the last time the run will reach.
  WindowedProfiles(const VelocityProfile& prototype, const std::vector<std::pair<double, double>>& windows,
                   double run_end);

  // Whether some window contains `time` (callers copy particles out of a
  // backend only then).
  bool wants(double time) const;
  // Returns true when the snapshot was inside at least one window.
  bool sample(double time, const ParticleData<double>& p, const std::vector<double>& type_mass);

  const std::vector<Window>& windows() const { return windows_; }
  std::vector<Window>& windows() { return windows_; }

 private:
  std::vector<Window> windows_;
};

}  // namespace meso
