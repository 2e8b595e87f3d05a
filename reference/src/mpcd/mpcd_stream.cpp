#include "meso/reference/mpcd_stream.hpp"

#include <stdexcept>

#include "meso/ops/mpcd.hpp"
#include "meso/physics/srd_lees_edwards.hpp"
#include "meso/physics/srd_slit.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::reference {
namespace {

// Box::wrap works in double; stored as float, a coordinate just below +L/2
// can round up to +L/2 itself, outside [-L/2, L/2) (MpcdSystem::validate
// would refuse it on the way back in), and with L/2 not a float one just
// above -L/2 can round below it. Folds those cases; a no-op in double.
template <class Real>
void fold_edges(Real& x, int32_t& img, double l) {
  if (static_cast<double>(x) >= 0.5 * l) {
    x = static_cast<Real>(static_cast<double>(x) - l);
    img += 1;
  } else if (static_cast<double>(x) < -0.5 * l) {
    x = static_cast<Real>(static_cast<double>(x) + l);
    img -= 1;
  }
}

}  // namespace

template <class Real>
void mpcd_stream(CpuMpcd<Real>& s, uint64_t collision) {
  const Box box = s.box;
  const Vec3d L = box.lengths();
  const double dt = s.params.dt, m = s.params.mass;
  const physics::BodyForce& bf = s.params.body_force;
  const bool forced = bf.active();
  const physics::SlitWall& wall = s.params.wall;
  const bool sheared = s.params.shear.active();
  if (sheared && collision == 0)
    throw std::logic_error("mpcd_stream: a sheared solvent needs the number of the collision that ends the period");
  const physics::LeesEdwards le = s.params.shear.at(L, static_cast<double>(collision) * dt);
  const int64_t n = static_cast<int64_t>(s.size());
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    Vec3d r = vec_cast<double>(s.pos[i]);
    Vec3d v = vec_cast<double>(s.vel[i]);
    if (wall.active()) {
      // Bounce-back at the slit walls with the exact crossing time.
      const Vec3d g = forced ? (1.0 / m) * bf.force(r, s.type[i], m) : Vec3d{0.0, 0.0, 0.0};
      physics::slit_stream(r, v, g, dt, wall);
      s.vel[i] = vec_cast<Real>(v);
    } else if (forced) {
      const Vec3d g = (1.0 / m) * bf.force(r, s.type[i], m);
      r += dt * v + (0.5 * dt * dt) * g;
      v += dt * g;
      s.vel[i] = vec_cast<Real>(v);
    } else {
      r += dt * v;
    }
    Image& img = s.image[i];
    if (sheared) {
      // Across a z face into the sheared image (lees_edwards.hpp); x and y
      // are folded next.
      const int crossed = physics::le_wrap(r, v, L, le);
      img.z += crossed;
      if (crossed != 0) s.vel[i] = vec_cast<Real>(v);
    }
    box.wrap(r, img);
    Vec3<Real> rs = vec_cast<Real>(r);
    fold_edges(rs.x, img.x, L.x);
    fold_edges(rs.y, img.y, L.y);
    const int32_t z_before = img.z;
    fold_edges(rs.z, img.z, L.z);
    if (sheared && img.z != z_before) {
      // Storage rounding carried the particle across a z face: it takes the
      // image's offset and velocity too.
      double x = static_cast<double>(rs.x);
      physics::srd_le_carry(x, v.x, img.z - z_before, box.lo().x, L.x, le);
      rs.x = static_cast<Real>(x);
      fold_edges(rs.x, img.x, L.x);
      s.vel[i] = vec_cast<Real>(v);
    }
    s.pos[i] = rs;
  }
}

namespace {

template <class Real>
class CpuMpcdStream final : public MpcdStreamOp {
 public:
  explicit CpuMpcdStream(CpuContext<Real>& c) : c_(c) {}
  void stream(uint64_t collision) override {
    c_.mpcd.require_loaded("mpcd/stream");
    mpcd_stream(c_.mpcd, collision);
  }

 private:
  CpuContext<Real>& c_;
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_mpcd_stream(CpuContext<Real>& c) {
  return std::make_unique<CpuMpcdStream<Real>>(c);
}

template void mpcd_stream<double>(CpuMpcd<double>&, uint64_t);
template void mpcd_stream<float>(CpuMpcd<float>&, uint64_t);
template std::unique_ptr<Operation> make_mpcd_stream<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_mpcd_stream<float>(CpuContext<float>&);

}  // namespace meso::reference
