#include "memory_estimate.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "meso/core/error.hpp"
#include "meso/core/mpcd.hpp"
#include "meso/core/particle_data.hpp"

namespace meso::bench {
namespace {

constexpr double kMaxParticles = 4294967295.0;  // tags are 32-bit

std::string describe_size(const BenchCase& c) { return c.workload->size_text(c); }

}  // namespace

double particle_count(const BenchCase& c) { return c.workload->particle_count(c); }

double host_bytes_at_least(const BenchCase& c) {
  return 2.0 * particle_count(c) * c.workload->particle_bytes();
}

double host_bytes_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  double kb = 0.0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024.0;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  double scaled = bytes;
  while (scaled >= 1000.0 && u < 4) scaled /= 1000.0, ++u;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g %s (%.3g bytes)", scaled, units[u], bytes);
  return buf;
}

void check_fits_in_memory(const BenchCase& c) {
  const double n = particle_count(c), need = host_bytes_at_least(c);
  if (!std::isfinite(n) || !(n > 0.0)) return;  // bad rho or box: BenchCase::validate names them
  if (!(n <= kMaxParticles))
    throw_input_error(describe_size(c), " is too many particles: tags are 32-bit (N < 2^32), and they would need at least ",
                      format_bytes(need), " of host memory");
  const double have = host_bytes_available();
  if (have > 0.0 && need > have)
    throw_input_error(describe_size(c), " needs at least ", format_bytes(need),
                      " of host memory (two copies of the particle arrays); this machine has ", format_bytes(have),
                      " available: choose a smaller N or L");
}

std::string out_of_memory_message(const BenchCase& c, const std::string& where, const std::string& what) {
  return describe_size(c) + " did not fit in " + where + " memory (the particle arrays alone need at least " +
         format_bytes(host_bytes_at_least(c) / 2.0) + " per copy): " + what + "; choose a smaller N or L";
}

}  // namespace meso::bench
