#include "meso/core/dpd_slit.hpp"

#include "meso/core/error.hpp"

namespace meso {

System make_dpd_slit(const DpdSlitParams& p) {
  require_positive("slit height", p.height);
  require_positive("slit Lx", p.fluid.lx);
  require_positive("slit Ly", p.fluid.ly);
  require_finite("wall speed", p.wall_speed);
  DpdFluidParams f = p.fluid;
  f.lz = p.height;
  f.n = 0;
  System sys = make_dpd_fluid(f);  // positions in [-height/2, height/2)
  sys.box = Box(f.lx, f.ly, p.height + 2.0 * f.rcut);
  physics::DpdWall& w = sys.wall;
  w.h = 0.5 * p.height;
  w.speed = p.wall_speed;
  w.a = f.a;
  w.gamma = f.gamma;
  w.kT = f.kT;
  w.density = p.wall_force ? f.rho : 0.0;
  w.rcut = f.rcut;
  w.s = f.s;
  w.bounce_back = p.bounce_back;
  return sys;
}

}  // namespace meso
