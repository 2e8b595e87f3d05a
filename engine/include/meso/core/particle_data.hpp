// Particle state as a structure of arrays (HOOMD-blue's ParticleData): one
// array per field, local particles first, then ghosts. The storage precision of
// position, velocity and force is a template parameter; the reference backend
// uses double, and float storage is instantiated for single/mixed studies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "meso/core/box.hpp"
#include "meso/physics/quaternion.hpp"
#include "meso/physics/vec3.hpp"

namespace meso {

template <class Real>
struct ParticleData {
  using real_type = Real;

  std::vector<Vec3<Real>> position;
  std::vector<Vec3<Real>> velocity;
  std::vector<Vec3<Real>> force;
  std::vector<uint32_t> type;
  std::vector<uint32_t> tag;  // global id, unique across ranks
  std::vector<Image> image;   // periodic crossings of local particles
  std::size_t n_local = 0;    // particles [0, n_local) are owned by this rank
  std::size_t n_ghost = 0;    // particles [n_local, n_local + n_ghost) are ghosts

  // Orientational particles (meso/physics/rigid_body.hpp), stored only when
  // `rotational`: the body-to-space orientation, the body-frame angular
  // momentum, the principal moments of inertia (0 on an axis that carries
  // no rotation), and the space-frame torque the forces write. An isotropic
  // system keeps these arrays empty and pays nothing for them.
  bool rotational = false;
  std::vector<Quat<Real>> orientation;
  std::vector<Vec3<Real>> angmom;
  std::vector<Vec3<Real>> inertia;
  std::vector<Vec3<Real>> torque;

  std::size_t size() const { return n_local + n_ghost; }

  void resize(std::size_t n_local_new, std::size_t n_ghost_new = 0) {
    n_local = n_local_new;
    n_ghost = n_ghost_new;
    const std::size_t n = size();
    position.resize(n);
    velocity.resize(n);
    force.resize(n);
    type.resize(n);
    tag.resize(n);
    image.resize(n);
    if (rotational) {
      orientation.resize(n, Quat<Real>{Real(1), {Real(0), Real(0), Real(0)}});
      angmom.resize(n);
      inertia.resize(n);
      torque.resize(n);
    }
  }

  // Turns the orientation arrays on (identity orientations, no angular
  // momentum, inertia or torque) or off (they are released).
  void set_rotational(bool on) {
    rotational = on;
    if (!on) {
      orientation = {};
      angmom = {};
      inertia = {};
      torque = {};
    }
    resize(n_local, n_ghost);
  }

  // Slot k takes every field of slot i of `from` (which may be *this):
  // compaction, selection and tag-order copies.
  void copy_slot(std::size_t k, const ParticleData& from, std::size_t i) {
    position[k] = from.position[i];
    velocity[k] = from.velocity[i];
    force[k] = from.force[i];
    type[k] = from.type[i];
    tag[k] = from.tag[i];
    image[k] = from.image[i];
    if (from.rotational) {
      if (!rotational) set_rotational(true);
      orientation[k] = from.orientation[i];
      angmom[k] = from.angmom[i];
      inertia[k] = from.inertia[i];
      torque[k] = from.torque[i];
    }
  }

  // Converting copy between storage precisions (e.g. double master state into
  // float storage for a single-precision run).
  template <class Other>
  static ParticleData from(const ParticleData<Other>& o) {
    ParticleData p;
    p.resize(o.n_local, o.n_ghost);
    for (std::size_t i = 0; i < o.size(); ++i) {
      p.position[i] = vec_cast<Real>(o.position[i]);
      p.velocity[i] = vec_cast<Real>(o.velocity[i]);
      p.force[i] = vec_cast<Real>(o.force[i]);
    }
    p.type = o.type;
    p.tag = o.tag;
    p.image = o.image;
    if (o.rotational) {
      p.set_rotational(true);
      for (std::size_t i = 0; i < o.size(); ++i) {
        p.orientation[i] = quat_cast<Real>(o.orientation[i]);
        p.angmom[i] = vec_cast<Real>(o.angmom[i]);
        p.inertia[i] = vec_cast<Real>(o.inertia[i]);
        p.torque[i] = vec_cast<Real>(o.torque[i]);
      }
    }
    return p;
  }
};

}  // namespace meso
