#include "meso/systems/water.hpp"

#include <cmath>

#include "meso/core/error.hpp"
#include "meso/systems/gay_berne_liquid.hpp"
#include "meso/core/init.hpp"
#include "meso/ops/communicator.hpp"

namespace meso {
double SsdWaterParams::box_length() const { return std::cbrt(double(n) / water_units::number_density(density)); }

void SsdWaterParams::validate(double skin) const {
  if (n < 2 || n > 0xffffffffull) throw_input_error("N = ", n, " is invalid: allowed 2 .. 2^32 - 1");
  require_positive("density", density);
  require_positive("temperature", temperature);
  require_positive("mass", mass);
  if (!(inertia.x > 0.0 && inertia.y > 0.0 && inertia.z > 0.0))
    throw_input_error("SSD moments of inertia (", inertia.x, ", ", inertia.y, ", ", inertia.z,
                      ") must all be positive: a water molecule is an asymmetric top");
  const double L = box_length(), need = 2.0 * (ssd.rcut + skin);
  if (L < need)
    throw_input_error("N = ", n, " molecules at ", density, " g/cm^3 fill a box of L = ", L,
                      " A, shorter than 2 (r_c + skin) = ", need, " A: use N >= ",
                      std::ceil(water_units::number_density(density) * need * need * need));
  const double spacing = L / std::ceil(std::cbrt(double(n)));
  if (spacing < 0.85 * ssd.sigma)
    throw_input_error("density ", density, " g/cm^3 puts the lattice start ", spacing,
                      " A apart, closer than 0.85 sigma = ", 0.85 * ssd.sigma, " A");
}

System make_ssd_water(const SsdWaterParams& p) {
  System sys;
  const double L = p.box_length();
  sys.box = Box(L);
  sys.type_names = {"SSD"};
  sys.type_mass = {p.mass};
  sys.kT = p.kT();
  sys.set_pair_style<physics::SsdParams>(1, p.ssd);
  Domain whole;
  whole.global = sys.box;
  sys.particles = place_lattice(p.n, sys.box, whole);
  ParticleData<double>& q = sys.particles;
  q.set_rotational(true);
  for (std::size_t i = 0; i < q.n_local; ++i) {
    q.orientation[i] = random_orientation(q.tag[i], p.seed);
    q.inertia[i] = p.inertia;
  }
  draw_maxwell_boltzmann(sys, p.kT(), p.seed);
  draw_angular_momenta(q, p.kT(), p.seed);
  return sys;
}

}  // namespace meso
