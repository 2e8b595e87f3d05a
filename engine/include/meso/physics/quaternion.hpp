// Unit quaternions for particle orientations, on host and device. A
// quaternion q = (s, v) rotates body-frame vectors into the space frame:
// a_space = q (0, a_body) q*. Products compose rotations right to left
// (q1 q2 applies q2 first). A plain aggregate, copied to the GPU byte for
// byte like Vec3.
#pragma once

#include <cmath>

#include "meso_hd.hpp"
#include "vec3.hpp"

namespace meso {

template <class T>
struct Quat {
  T s;        // scalar part
  Vec3<T> v;  // vector part
};

using Quatd = Quat<double>;

template <class T>
MESO_HD Vec3<T> cross(Vec3<T> a, Vec3<T> b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

template <class T>
MESO_HD Quat<T> operator*(Quat<T> a, Quat<T> b) {
  return {a.s * b.s - dot(a.v, b.v), a.s * b.v + b.s * a.v + cross(a.v, b.v)};
}

template <class T>
MESO_HD Quat<T> conj(Quat<T> q) { return {q.s, -q.v}; }

template <class T>
MESO_HD T norm2(Quat<T> q) { return q.s * q.s + dot(q.v, q.v); }

template <class To, class From>
MESO_HD Quat<To> quat_cast(Quat<From> q) { return {static_cast<To>(q.s), vec_cast<To>(q.v)}; }

// q (0, a) q* without forming the products: a + 2 s (v x a) + 2 v x (v x a).
template <class T>
MESO_HD Vec3<T> rotate(Quat<T> q, Vec3<T> a) {
  const Vec3<T> t = T(2) * cross(q.v, a);
  return a + q.s * t + cross(q.v, t);
}

// The inverse rotation (space frame to body frame), q* (0, a) q.
template <class T>
MESO_HD Vec3<T> rotate_inverse(Quat<T> q, Vec3<T> a) { return rotate(conj(q), a); }

// Rescaled to unit norm (integrators renormalise to keep rounding from
// accumulating into a shear).
template <class T>
MESO_HD Quat<T> normalized(Quat<T> q) {
  using std::sqrt;
  const T k = T(1) / sqrt(norm2(q));
  return {k * q.s, k * q.v};
}

// The rotation by `angle` about the unit vector `axis`.
template <class T>
MESO_HD Quat<T> quat_from_axis_angle(Vec3<T> axis, T angle) {
  using std::cos;
  using std::sin;
  return {cos(T(0.5) * angle), sin(T(0.5) * angle) * axis};
}

}  // namespace meso
