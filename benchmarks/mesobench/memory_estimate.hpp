// How much memory a benchmark case needs at least, checked before anything is
// allocated: a box too large for the machine (`--param L=1e7`) is refused
// with N and the bytes it would need, instead of dying inside std::vector.
#pragma once

#include <cstdint>
#include <string>

#include "workload.hpp"

namespace meso::bench {

// Bytes per particle of one copy of the host arrays (position, velocity,
// force, type, tag, image for MD; no force for the MPCD solvent): what
// Workload::particle_bytes returns.
inline constexpr double kMdParticleBytes = 3 * sizeof(Vec3d) + 2 * sizeof(uint32_t) + sizeof(Image);
inline constexpr double kMpcdParticleBytes = 2 * sizeof(Vec3d) + 2 * sizeof(uint32_t) + sizeof(Image);

// Particles the case would create (rho L^3 for a given box), as a double so
// that absurd boxes do not overflow.
double particle_count(const BenchCase& c);
// A lower bound of the host bytes: the system as built plus the backend's own
// copy of the particle arrays (neighbor and cell lists come on top).
double host_bytes_at_least(const BenchCase& c);
// Physical memory this process could get (MemAvailable), 0 when unknown.
double host_bytes_available();
// "3.2 GB (3.2e+09 bytes)".
std::string format_bytes(double bytes);

// Throws InputError naming N and the bytes when the case cannot fit: more
// particles than 32-bit tags allow, or more memory than the machine has.
// Returns quietly when N is not a positive number (invalid rho or box, which
// BenchCase::validate reports).
void check_fits_in_memory(const BenchCase& c);

// The message for an allocation that failed anyway (std::bad_alloc, or the
// device's cudaErrorMemoryAllocation): N, the bytes at least, and `what`.
std::string out_of_memory_message(const BenchCase& c, const std::string& where, const std::string& what);

}  // namespace meso::bench
