#include "meso/core/mdscf_field.hpp"

#include <algorithm>
#include <cmath>

#include "meso/core/error.hpp"

namespace meso {

void MdscfField::grid_for(const Box& box, double h, uint32_t& nx_, uint32_t& ny_, uint32_t& nz_) {
  require_positive("MD-SCF grid spacing", h);
  const Vec3d L = box.lengths();
  auto n = [&](double l) { return static_cast<uint32_t>(std::max(4.0, std::round(l / h))); };
  nx_ = n(L.x);
  ny_ = n(L.y);
  nz_ = n(L.z);
}

void MdscfField::validate(const Box& box, uint32_t ntypes) const {
  if (nx < 4 || ny < 4 || nz < 4)
    throw_input_error("MD-SCF grid ", nx, " x ", ny, " x ", nz,
                      " is invalid: at least 4 vertices per axis are needed for the periodic central differences");
  if (chi.size() != static_cast<std::size_t>(ntypes) * ntypes)
    throw_input_error("MD-SCF chi table has ", chi.size(), " entries but there are ", ntypes, " types (",
                      ntypes * ntypes, " entries needed)");
  for (uint32_t k = 0; k < ntypes; ++k)
    for (uint32_t l = 0; l < ntypes; ++l) {
      const double c = chi[k * ntypes + l];
      if (!std::isfinite(c)) throw_input_error("MD-SCF chi(", k, ", ", l, ") = ", c, " is not finite");
      if (c != chi[l * ntypes + k])
        throw_input_error("MD-SCF chi(", k, ", ", l, ") = ", c, " differs from chi(", l, ", ", k,
                          ") = ", chi[l * ntypes + k], ": the table must be symmetric");
    }
  require_finite("MD-SCF 1/kappa", inv_kappa);
  require_non_negative("MD-SCF 1/kappa", inv_kappa);
  require_positive("MD-SCF rho0", rho0);
  if (update_every == 0) throw_input_error("MD-SCF update_every = 0 is invalid: it must be >= 1 step");
  require_finite("MD-SCF filter sigma", filter_sigma);
  require_non_negative("MD-SCF filter sigma", filter_sigma);
  if (filter_sigma > 0.0 && 8.0 * filter_sigma > box.min_length())
    throw_input_error("MD-SCF filter sigma = ", filter_sigma, " is too wide for the box: 8 sigma = ",
                      8.0 * filter_sigma, " exceeds the shortest box length ", box.min_length());
}

}  // namespace meso
