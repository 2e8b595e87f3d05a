#include "meso/validation/validation_case.hpp"

#include <cmath>
#include <stdexcept>

namespace meso::validation {

Result run_dpd_temperature(const Context& ctx);  // dpd-temperature/dpd_temperature.cpp
Result run_nve_drift_shift(const Context& ctx);  // nve-drift/nve_drift.cpp
Result run_nve_drift_xplor(const Context& ctx);

const char* to_string(Form f) { return f == Form::short_form ? "short" : "long"; }

const std::vector<Case>& all_cases() {
  static const std::vector<Case> cases = {
      {"dpd-temperature",
       "Groot & Warren, J. Chem. Phys. 107, 4423 (1997): DPD fluid rho = 3, a = 25, gamma = 4.5, kT = 1",
       run_dpd_temperature},
      {"nve-drift-shift",
       "Anderson, Lorenz & Travesset, J. Comput. Phys. 227, 5342 (2008), sec. 8.2, Table 2: LJ "
       "N = 5000, rho = 0.4, r_cut = 2.5, shifted",
       run_nve_drift_shift},
      {"nve-drift-xplor",
       "Anderson, Lorenz & Travesset, J. Comput. Phys. 227, 5342 (2008), sec. 8.2, Table 2: LJ "
       "N = 5000, rho = 0.4, r_cut = 2.5, XPLOR r_on = 1.5",
       run_nve_drift_xplor},
  };
  return cases;
}

BlockAverage block_average(const std::vector<double>& series, int blocks) {
  const std::size_t per = series.size() / static_cast<std::size_t>(blocks);
  if (blocks < 2 || per == 0) throw std::invalid_argument("block_average: too few samples");
  std::vector<double> means(static_cast<std::size_t>(blocks), 0.0);
  for (int b = 0; b < blocks; ++b) {
    for (std::size_t k = 0; k < per; ++k) means[b] += series[b * per + k];
    means[b] /= static_cast<double>(per);
  }
  double m = 0.0;
  for (double x : means) m += x;
  m /= blocks;
  double var = 0.0;
  for (double x : means) var += (x - m) * (x - m);
  var /= blocks - 1;
  return {m, std::sqrt(var / blocks)};
}

}  // namespace meso::validation
