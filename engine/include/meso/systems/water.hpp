// SSD/RF water in a System (the `ssd-water` workload): one orientational
// site per molecule in real units (Angstrom, kcal/mol, amu; the time unit
// is 48.888 fs), the moments of inertia and parameters of OpenMD's SSD/RF
// (meso/physics/ssd_water.hpp).
#pragma once

#include <cstdint>

#include "meso/physics/ssd_water.hpp"
#include "meso/core/system.hpp"

namespace meso {

namespace water_units {
inline constexpr double kBoltzmann = 0.0019872043;  // kcal/(mol K)
inline constexpr double kTimeFs = 48.888;           // fs per time unit (A sqrt(amu mol/kcal))
// molecules per A^3 at a density in g/cm^3 (M = 18.0153 g/mol)
inline constexpr double number_density(double g_per_cm3) { return g_per_cm3 / 18.0153 * 0.602214076; }
}  // namespace water_units

struct SsdWaterParams {
  uint64_t n = 64000;
  double density = 0.997;     // g/cm^3 (SSD/RF's at 298 K and 1 atm, Fennell & Gezelter 2004)
  double temperature = 298.15;  // K
  physics::SsdParams ssd;
  double mass = 18.0153;                    // amu
  Vec3d inertia{1.7696, 0.6145, 1.1550};    // amu A^2, body x (normal to the plane), y (H-H), z (dipole)
  uint64_t seed = 1;

  double kT() const { return water_units::kBoltzmann * temperature; }
  double box_length() const;
  void validate(double skin) const;  // InputError naming the bad value
};

// Molecules on a simple cubic lattice (m = ceil(N^(1/3)) sites a side, N of
// them evenly spaced: about 3.1 A apart at 0.997 g/cm^3, beyond the LJ
// sigma), orientations uniform at random, velocities and body-frame angular
// momenta Maxwell-Boltzmann at kT, all from `seed`. A thermostat melts it.
System make_ssd_water(const SsdWaterParams& p);

}  // namespace meso
